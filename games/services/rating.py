"""A finished game's rating, in the transaction that finishes it (games.services.turns.finish): games decides
whether the game counts (who moved, whether it is rated: docs/ratings.md) and ratings does the arithmetic
(roboracer.ratings.services.rate_game), a direct call down the layers. News of the finish travels up by the
`game_finished` signal, after this."""

from __future__ import annotations

import logging

from games import kinds
from games.models import Game
from games.selectors import rated
from roboracer.ratings import services as rating_services

logger = logging.getLogger(__name__)


def rate_finished(*, game: Game, outcome) -> list:
    """Rate the finished `game` from `outcome.places` ({bot id: place}, equal places a tie). Seats that never
    moved (no program, not even one the autopilot or a computer sent for them) are left out; with fewer than two
    seats that moved the game is marked `aborted` (a conditional UPDATE; the caller holds the row) and rated for
    nobody (lichess's abort, docs/ratings.md "Aborted games")."""
    seats = list(game.seats.order_by("number"))
    moved = rated.moved_seat_ids(game=game)
    if len(seats) >= 2 and len(moved) < 2:
        Game.objects.filter(pk=game.pk, aborted=False).update(aborted=True)
        game.aborted = True
        logger.info("game %s aborted: fewer than two seats moved", game.pk)
        return []
    if not rated.is_rated(game=game):
        return []
    places = dict(getattr(outcome, "places", None) or {})
    players = [(seat.user_id, places.get(seat.bot_id)) for seat in seats if seat.pk in moved]
    # The game's own kind's rating moves, and only that one (docs/ratings.md "One rating per kind").
    return rating_services.rate_game(game_id=game.pk, kind=game.kind or kinds.DEFAULT, players=players)
