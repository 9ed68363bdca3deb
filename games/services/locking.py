"""The game's row lock, for every writer: one query, and a private game is missing to a stranger in the same
query with the same NotFound as an id that never existed."""

from __future__ import annotations

import json
import logging

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery

from games.models import Game, Hand, Program, Seat
from games.selectors import access
from roboracer.common import compiled
from roboracer.common.errors import NotFound

logger = logging.getLogger(__name__)


def locked_game(game_id: int, *, user=None) -> Game:
    """The game, its row locked. Given a `user`, only a game they may see (access.visible_games): a private
    game is missing to a stranger, in the same one query and with the same NotFound as an id that never
    existed, so no answer (status, message, flash) or query count tells the two apart."""
    games = Game.objects.select_for_update()
    if user is not None:
        games = access.visible_games(user=user, games=games)
    try:
        # No join: the game keeps its own copy of the layout, and the course row (its name, player limits)
        # is read only where needed.
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"game {game_id} does not exist") from None


def _visible_for_update(staff: bool, *, game_id: int, user_id: int):

    placeholder = get_user_model()(pk=user_id, is_staff=staff)
    return access.visible_games(user=placeholder, games=Game.objects.select_for_update()).filter(pk=game_id)


_visible_lock = compiled.Compiled(_visible_for_update)


def locked_visible_game(game_id: int, *, user) -> Game:
    """`_locked_game(game_id, user=user)` for the hot path: the same query (access.visible_games, two EXISTS
    subqueries), compiled once per process. One query either way, and a private game's stranger gets the
    NotFound of a missing id."""
    if not (user and user.is_authenticated) or not isinstance(game_id, int):
        return locked_game(game_id, user=user)
    # An id no integer column holds (SQLite refuses to bind it) is a missing game, as the ORM's paths answer.
    fits = 0 < game_id < 2**63
    game = next(iter(_visible_lock.run(bool(user.is_staff), game_id=game_id, user_id=user.pk)), None) if fits else None
    if game is None:
        raise NotFound(f"game {game_id} does not exist")
    return game


def _seats_with_turn(_variant, *, game_id: int, turn: int):
    hands = Hand.objects.filter(seat=OuterRef("pk"), turn=turn).values("chips")[:1]
    programs = Program.objects.filter(seat=OuterRef("pk"), turn=turn).values("pk")[:1]
    return Seat.objects.filter(game_id=game_id).annotate(
        turn_hand=Subquery(hands), turn_program=Subquery(programs)).order_by("number")


_seats_and_turn = compiled.Compiled(_seats_with_turn)


def seats_hands_programs(game: Game) -> tuple[list[Seat], dict[int, list], set[int]]:
    """The game's seats, with this turn's hand of each ({seat id: chips}) and the seats that have a program:
    one query where three were (a program's hot path)."""
    seats = _seats_and_turn.run(game_id=game.pk, turn=game.turn)
    hands = {seat.pk: json.loads(seat.turn_hand) if isinstance(seat.turn_hand, str) else seat.turn_hand
             for seat in seats if seat.turn_hand is not None}
    return seats, hands, {seat.pk for seat in seats if seat.turn_program is not None}


resolution_lock = compiled.Compiled(lambda _variant, *, game_id: Game.objects.select_for_update(
    of=("self",)).select_related("course").defer("course__data").filter(pk=game_id))

