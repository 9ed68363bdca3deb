from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "roboracer.ratings"
    label = "ratings"
