from django.apps import AppConfig


class PyramidConfig(AppConfig):
    name = "roboracer.pyramid"
    label = "pyramid"
    verbose_name = "Pyramid"

    def ready(self) -> None:
        from roboracer.pyramid import receivers  # noqa: F401  (connects game_finished)
