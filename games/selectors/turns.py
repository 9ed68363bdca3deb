"""Resolved turns, for replays."""

from __future__ import annotations

from games import kinds
from games.models import Game


def resolved_turn(*, game: Game, number: int) -> dict | None:
    """A resolved turn for replay, public to every viewer, as the game's kind shows it. None when that turn has
    not been resolved."""
    turn = game.turns.filter(number=number).first()
    if turn is None:
        return None
    return kinds.of(game).public_turn(game=game, turn=turn)
