from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "roboracer.accounts"
    label = "accounts"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out

        from roboracer.accounts.signals import close_sockets

        user_logged_out.connect(close_sockets, dispatch_uid="accounts-close-sockets")
