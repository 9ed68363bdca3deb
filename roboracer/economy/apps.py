from django.apps import AppConfig


class EconomyConfig(AppConfig):
    name = "roboracer.economy"
    label = "economy"
    verbose_name = "Module economy"
