"""Games the site seats itself (tournament tables, Pyramid challenges) and organisers' actions on a game. They
go through these, never by writing the game's rows themselves; each runs in the caller's transaction, on a game
whose row the caller locked (games.services.locking.locked_game)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F

from games import clocks
from games.models import Game, Seat
from games.selectors import seats as seats_selectors
from games.services import computer_seats, lines, lobby, locking, publish, setup, turns
from roboracer.common.errors import InvalidInput

logger = logging.getLogger(__name__)


@transaction.atomic
def create_seated_game(*, creator, users: list, computers: tuple[str, ...] | list[str] = (), **options) -> Game:
    """A game made by the site for players it seats itself (a tournament table, a pyramid challenge): created
    by `creator` (an organiser, a challenger) with `create_game`'s options, `users` seated in that order
    (seat 1 the first; the creator need not be among them), then one computer player of each strength in
    `computers` (a tournament table filled up; the game is then unrated), and started at once, its first turn
    dealt and the players notified. `options` are create_game's, its kind's settings included (a RoboRacer
    game's course; max_seats defaults to the number of seats)."""
    if not users or len({user.pk for user in users}) != len(users):
        raise InvalidInput("a seated game needs distinct players")
    for strength in computers:
        computer_seats.check_strength(strength)
    total = len(users) + len(computers)
    options.setdefault("max_seats", total)
    # Competitive: a tournament table unless the caller says (the Pyramid does). games.services.setup refuses puzzle
    # courses here, and computer players on a course they can't play.
    options.setdefault("use", setup.TOURNAMENT)
    options["computers"] = len(computers)
    if computers:
        options["rated"] = False
    game = lobby.create_game(user=creator, **options)
    return seat_and_start(game, users=users, computers=computers)


def seat_and_start(game: Game, *, users: list, computers: tuple[str, ...] | list[str] = ()) -> Game:
    """A new lobby's seats given to `users` in that order and then to computer players of `computers`' strengths,
    and the game started: a game the site seats itself, of any kind (games.kinds). In the caller's transaction."""
    total = len(users) + len(computers)
    Seat.objects.filter(game=game).delete()
    game = locking.locked_game(game.pk)
    taken: set[str] = set()
    placed = []
    for number, user in enumerate(users, start=1):
        color = lobby.seat_color(user, taken, number)
        taken.add(color)
        placed.append(Seat.objects.create(game=game, user=user, number=number, color=color))
    for number, strength in enumerate(computers, start=len(users) + 1):
        placed.append(computer_seats.seat_computer(game, placed, strength, number))
    if total < seats_selectors.start_minimum(game):
        raise InvalidInput(f"{game.board_name} needs at least {seats_selectors.start_minimum(game)} players")
    game.max_seats = total
    turns.start(game)
    game.save()
    return game


def add_game_time(*, game: Game, seconds: int, now: datetime) -> bool:
    """`seconds` more game time for every seat still playing (an organiser's extension): a running deadline
    moves on as much, and a clock that had run out runs again if its deadline is now ahead. A `clocks` event
    tells the screens. False, and nothing changed, for a game that has ended."""
    if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
        return False
    playing = Seat.objects.filter(game=game, ejected_at__isnull=True)
    playing.update(game_left=F("game_left") + seconds)
    playing.filter(deadline__isnull=False).update(deadline=F("deadline") + timedelta(seconds=seconds))
    playing.filter(expired=True, deadline__gt=now).update(expired=False)
    seats = list(game.seats.order_by("number"))
    publish.append_event(game, "clocks", {"server_time": now.isoformat(), "seats": [clocks.public(s, now) for s in seats]})
    game.save(update_fields=["version", "updated_at"])
    return True


def pause_clocks(*, game: Game, now: datetime, words: str) -> bool:
    """An organiser's pause (a tournament paused): every clock of the game stands still, the ones running now and
    any a later turn starts, until resume_clocks; nobody's time runs out meanwhile. Programs may still be sent
    (a turn all have programmed is played). `words` go into the game's chat. False, and nothing changed, for a
    game that has ended or is paused already."""
    if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED) or game.clocks_from == clocks.PAUSED:
        return False
    game.clocks_from = clocks.PAUSED
    seats = list(game.seats.order_by("number"))
    for seat in seats:
        if clocks.running(seat) and seat.ejected_at is None:
            clocks.stop(seat, now)
            clocks.start(seat, now, from_=clocks.PAUSED)
            seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline", "expired"])
    lines.system_chat(game, words)
    publish.clocks_event(game, seats, now)
    game.save(update_fields=["clocks_from", "version", "updated_at"])
    return True


def resume_clocks(*, game: Game, now: datetime, words: str) -> bool:
    """The pause's end: the clocks it held run again from now, with the time they had. False, and nothing
    changed, for a game that is not paused."""
    if game.clocks_from != clocks.PAUSED:
        return False
    game.clocks_from = now
    seats = list(game.seats.order_by("number"))
    for seat in seats:
        if clocks.paused(seat):
            clocks.start(seat, now)
            seat.save(update_fields=["clock_started_at", "deadline", "expired"])
    if game.status not in (Game.Status.FINISHED, Game.Status.CANCELLED):
        lines.system_chat(game, words)
        publish.clocks_event(game, seats, now)
    game.save(update_fields=["clocks_from", "version", "updated_at"])
    return True


def hand_seat_to(*, seat: Seat, user) -> None:
    """A substitute takes a seat (a tournament's replacement, checked by the organiser's service first)."""
    seat.user = user
    seat.save(update_fields=["user"])


def cancel_for(*, game: Game, reason: str, now: datetime) -> None:
    """The game ends, cancelled, with `reason` in its `game_cancelled` event (a revoked Pyramid challenge): no
    clock runs on and there is no result."""
    game.status = Game.Status.CANCELLED
    game.finished_at = now
    Seat.objects.filter(game=game).update(clock_started_at=None, deadline=None)
    publish.append_event(game, "game_cancelled", {"reason": reason})
    game.save(update_fields=["status", "finished_at", "version", "updated_at"])

