from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "roboracer.courses"
    label = "courses"
