"""What the apps above games say about a game: the competition it is a table of, notes for one viewer
(games.signals)."""

from __future__ import annotations

from games import signals
from games.models import Game


def competition(*, game: Game) -> dict | None:
    """The competition another app runs this game in (a tournament's table): `{"kind", "name", "url"}`, or None
    (games.signals.competition)."""
    for _receiver, answer in signals.competition.send(sender=Game, game=game):
        if answer:
            return answer
    return None


def viewer_notes(*, game: Game, user) -> list[str]:
    """What other apps tell this viewer about this game (games.signals.viewer_notes): "You were replaced by ..."."""
    if not (user and user.is_authenticated):
        return []
    return [answer for _receiver, answer in signals.viewer_notes.send(sender=Game, game=game, user=user) if answer]
