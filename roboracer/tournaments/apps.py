from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "roboracer.tournaments"
    label = "tournaments"

    def ready(self) -> None:
        from roboracer.tournaments import (
            receivers,  # noqa: F401 - connects the game_finished receiver
            tasks,  # noqa: F401 - registered in every process (services send by name)
        )
