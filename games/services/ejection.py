"""A player out of a running game, for every kind: resigned (games.services.lobby.leave_game), ejected by
another player once their time ran out (!eject, games.services.chat), by the timer (games.services.timeouts)
or by staff."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import clocks, kinds, lobby_feed
from games.models import Game, Program, Seat
from games.services import lines, locking, publish, turns
from roboracer.common.errors import Conflict, NotAllowed, NotFound

logger = logging.getLogger(__name__)


def eject(game: Game, seats: list[Seat], *, by: str, reason: str, by_name: str = "") -> list[int]:
    """Eject the seats' players (the caller holds the lock, the game is programming, and saves the game). `by`
    is the username (or "timer", "staff") the event records; `by_name` the name players see in the chat line.

    The kind takes their pieces out (`remove`). If that ends the game, the last one in wins by forfeit.
    Otherwise, in a kind whose remaining players must move again after an ejection (RoboRacer, 003 "!eject")
    their moves of this turn are cleared (a move the rules made for them stays) and their clocks run again.
    """
    kind = kinds.of(game)
    now = timezone.now()
    new_state, events = kind.remove(kind.load(game), [seat.bot_id for seat in seats])
    mark_ejected(game, seats, by=by, now=now)
    game.state = kind.dump(new_state)
    numbers = [seat.number for seat in seats]
    lines.system_chat(game, lines.forfeit_line(seats, by=by, by_name=by_name or by, reason=reason))
    ejected = {"seats": numbers, "bots": [s.bot_id for s in seats], "by": by, "reason": reason, "turn": game.turn,
               "events": events}
    if kind.finished(new_state):
        publish.append_event(game, "seats_ejected", {**ejected, "resubmit": False})
        turns.finish(game, new_state, now)
        if game.winner is not None:
            lines.system_chat(game, f"{lines.names([game.winner])} wins by forfeit: {kind.forfeit_words}")
        return numbers
    if kind.resubmit_after_eject:
        remaining = turns.live_seats(game, new_state)
        cleared = [seat for seat in remaining if kind.required_move(new_state, seat.bot_id) is None]
        Program.objects.filter(seat__in=cleared, turn=game.turn).delete()
        for seat in cleared:
            if not clocks.running(seat) and not seat.autopilot:
                clocks.start(seat, now, from_=game.clocks_from)
                seat.save(update_fields=["clock_started_at", "deadline", "expired"])
        publish.schedule_computers(game, [seat for seat in cleared if seat.computer or seat.autopilot])
    publish.append_event(game, "seats_ejected", {**ejected, "resubmit": kind.resubmit_after_eject})
    publish.clocks_event(game, list(game.seats.order_by("number")), now)
    turns.execute_when_all_ready(game, new_state, now)
    return numbers


def mark_ejected(game: Game, seats: list[Seat], *, by: str, now: datetime) -> None:
    """The seats' side of an ejection, whatever the game's kind: clocks stopped, marked ejected by `by`, and
    their programs of this turn gone."""
    for seat in seats:
        clocks.stop(seat, now)
        seat.ejected_at, seat.ejected_by, seat.expired = now, by, False
        seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline", "expired",
                                 "ejected_at", "ejected_by"])
    Program.objects.filter(seat__in=seats, turn=game.turn).delete()


@transaction.atomic
def staff_eject(*, user, game_id: int, seat_number: int) -> list[int]:
    """Staff eject any seat, whatever its clocks say (Django admin and the API)."""
    if not user.is_staff:
        raise NotAllowed("only staff can eject a player whose game time has not run out; use !eject in the chat")
    game = locking.locked_game(game_id, user=user)
    seat = game.seats.filter(number=seat_number).first()
    if seat is None:
        raise NotFound(f"game {game_id} has no seat {seat_number}")
    if game.status == Game.Status.LOBBY:
        seat.delete()
        lobby_feed.changed(game=game, left=(seat.user_id,))
        publish.append_event(game, "seat_left", {"seat": seat.number, "by": "staff"})
        game.save()
        return [seat_number]
    if game.status == Game.Status.RESOLVING:
        raise Conflict("a turn is being played; try again once it has been")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"this game is {game.status}")
    if seat.ejected_at is not None or not turns.in_game(game, seat):
        raise Conflict(f"seat {seat_number} is already out of the game")
    ejected = eject(game, [seat], by="staff", reason=f"ejected by {user.get_username()}")
    game.save()
    return ejected

