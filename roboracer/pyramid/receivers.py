"""The Pyramid hears a game's end (games.signals.game_finished) inside the finishing transaction."""

from django.dispatch import receiver

from games.signals import competition, game_finished
from roboracer.pyramid import selectors, services


@receiver(game_finished, dispatch_uid="pyramid.finish_challenge")
def on_game_finished(sender, game, state, **kwargs) -> None:
    # In the game's own transaction: the places change together with the game's end, or not at all.
    services.finish_challenge(game=game)


@receiver(competition, dispatch_uid="pyramid.competition")
def _competition(sender, game, **kwargs) -> dict | None:
    return selectors.competition_of(game=game)
