"""The Pyramid hears a game's end (games.signals.game_finished) inside the finishing transaction."""

from django.dispatch import receiver

from games.signals import game_finished
from roboracer.pyramid import services


@receiver(game_finished, dispatch_uid="pyramid.finish_challenge")
def on_game_finished(sender, game, state, **kwargs) -> None:
    # In the game's own transaction: the places change together with the game's end, or not at all.
    services.finish_challenge(game=game)
