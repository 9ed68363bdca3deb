from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "roboracer.accounts"
    label = "accounts"
