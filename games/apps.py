from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # Celery wiring: the tasks registered in every process, so that a service sends one by its name
        # (games.services.publish) through the task itself (its options, a test's eager mode).
        from games import tasks  # noqa: F401, PLC0415
