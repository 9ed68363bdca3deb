from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "roboracer.ratings"
    label = "ratings"
    # Games rate a finished game by a direct call down (games.services.rating, in the finishing transaction):
    # ratings listens to no signal of games (docs/architecture.md "Layers").
