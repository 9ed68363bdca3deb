"""A game's seats: who sits where, how many may start it, whose move it is, where computer players play."""

from __future__ import annotations

from django.db.models import QuerySet

from games import kinds
from games.models import Game, Seat
from roboracer.common import compiled

COMPUTER_MODES = ("race", "arena")  # where computer players play (a puzzle is solved alone)


def seat_of(*, user, game: Game) -> Seat | None:
    if not user or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


def _game_seats(with_users: bool, *, game_id: int) -> QuerySet:
    seats = Seat.objects.filter(game_id=game_id).order_by("number")
    return seats.select_related("user", "user__profile") if with_users else seats


_compiled_seats = compiled.Compiled(_game_seats)


def seats_of(*, game: Game, with_users: bool = False) -> list[Seat]:
    """`list(game.seats.all())` (with each seat's user and profile if `with_users`), in seat order and each
    seat's `game` the one given, its SQL built once per process: every deal and every snapshot reads them."""
    seats = _compiled_seats.run(with_users, game_id=game.pk)
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    return seats


def start_minimum(game: Game) -> int:
    """How many seated players the creator may start the game with: a course builder's test drive starts with
    whoever is seated (docs/course-builder.md "Test drive"), any other game needs its course's minimum."""
    return 1 if game.test_drive else kinds.of(game).min_players(game)


def awaiting_my_move(*, user, games) -> set[int]:
    """Ids of the given games where it is the user's move: programming, my clock running (so I have a hand
    and no program in yet)."""
    ids = [game.pk for game in games if game.status == Game.Status.PROGRAMMING]
    return set(
        Seat.objects.filter(game_id__in=ids, user=user, clock_started_at__isnull=False).values_list(
            "game_id", flat=True
        )
    )
