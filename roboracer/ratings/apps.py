from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "roboracer.ratings"
    label = "ratings"

    def ready(self) -> None:
        from games.signals import game_finished
        from roboracer.ratings import services

        # Rating runs in the finishing transaction (exactly once per game, docs/ratings.md).
        game_finished.connect(services.on_game_finished, dispatch_uid="ratings.rate_game")
