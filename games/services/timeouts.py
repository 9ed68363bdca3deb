"""A seat past its deadline, by the game's timeout policy (wait, eject, random, computer), for every kind: the
beat task finds the games (`due_games`) and applies the policy once (`enforce_deadline`)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

import engine
from games import clocks, kinds
from games.models import Game, Hand, Program, Seat
from games.services import computer_seats, ejection, lines, locking, publish, turns

logger = logging.getLogger(__name__)


def play_random(game: Game, seats: list[Seat], now: datetime) -> None:
    """Timeout policy "random": a random legal move of the kind's for each seat whose game time ran out (no
    reload)."""
    kind = kinds.of(game)
    state = kind.load(game)
    hands = dict(Hand.objects.filter(seat__in=seats, turn=game.turn).values_list("seat_id", "chips"))
    for seat in seats:
        clocks.stop(seat, now)  # whatever happens next, this seat is not due again this turn
        seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline"])
        hand = hands.get(seat.pk)
        if hand is None or not kind.in_game(state, seat):
            continue
        move = kind.random_move(game, state, seat, hand,
                                seed=engine.derive_seed(game.seed, game.turn, f"timeout-{seat.bot_id}"))
        _, created = Program.objects.update_or_create(
            seat=seat, turn=game.turn, defaults={"chips": list(move.chips), "action": move.action}
        )
        if created:
            publish.append_event(game, "seat_ready", {"seat": seat.number, "random": True})
    publish.clocks_event(game, list(game.seats.order_by("number")), now)
    turns.execute_when_all_ready(game, state, now)


def enforce_deadline(*, game_id: int, now: datetime | None = None) -> str | None:
    """The beat task's work for one game whose deadline passed: mark the seats expired (once), then apply the
    game's timeout policy. Safe to run twice and concurrently; returns what it did, for logs and tests."""
    with transaction.atomic():
        game = locking.locked_game(game_id)
        if game.status != Game.Status.PROGRAMMING:
            return None
        now = now or timezone.now()
        due = list(game.seats.filter(ejected_at__isnull=True, deadline__lte=now))
        if not due:
            return None
        fresh = [seat for seat in due if not seat.expired]
        for seat in fresh:
            seat.expired = True
            seat.save(update_fields=["expired"])
        if fresh:
            then = {
                # A solo game (one seat) has nobody else to eject the player: it waits for their program.
                Game.TimeoutPolicy.WAIT: (" Any player may now send !eject." if game.max_seats > 1
                                           else " The game waits for their program."),
                Game.TimeoutPolicy.RANDOM: " A random program is played for them.",
                Game.TimeoutPolicy.COMPUTER: " A Normal computer player plays for them until they send a program.",
            }.get(game.timeout_policy, "")
            lines.system_chat(game, f"{lines.names(fresh)} {'has' if len(fresh) == 1 else 'have'} run out of game time.{then}")
            publish.append_event(game, "timer_expired", {"seats": [seat.number for seat in fresh]})
            publish.clocks_event(game, list(game.seats.order_by("number")), now)
        did = "expired" if fresh else None
        if game.timeout_policy == Game.TimeoutPolicy.WAIT and _only_computers_to_decide(game, due):
            # 003 lets the other players eject a player out of time; when every other one still in is a computer
            # player, the computers do (they always would): otherwise a game a person left waits for ever.
            ejection.eject(game, due, by="computers", reason="game time ran out", by_name="the computer players (only they were left to decide)")
            did = "ejected"
        elif game.timeout_policy == Game.TimeoutPolicy.EJECT:
            ejection.eject(game, due, by="timer", reason="game time ran out")
            did = "ejected"
        elif game.timeout_policy == Game.TimeoutPolicy.RANDOM:
            play_random(game, due, now)
            did = "random"
        elif game.timeout_policy == Game.TimeoutPolicy.COMPUTER:
            computer_seats.hand_to_computer(game, due, now)
            did = "computer"
        game.save()
        return did


def _only_computers_to_decide(game: Game, due: list[Seat]) -> bool:
    """Under "wait": someone else is still in and no person is among them (computer players, or seats a computer
    plays for their owner, are all that is left to send !eject)."""
    due_ids = {seat.pk for seat in due}
    others = [seat for seat in game.seats.filter(ejected_at__isnull=True) if seat.pk not in due_ids]
    return bool(others) and all(seat.computer or seat.autopilot for seat in others)


def due_games(*, now: datetime | None = None) -> list[int]:
    """Games in programming with a seat past its deadline that the beat task has not dealt with yet: not yet
    marked expired, or a policy that acts (eject, random). Indexed on Seat.deadline."""
    now = now or timezone.now()
    return list(
        Seat.objects.filter(deadline__lte=now, ejected_at__isnull=True, game__status=Game.Status.PROGRAMMING)
        .filter(Q(expired=False) | ~Q(game__timeout_policy=Game.TimeoutPolicy.WAIT))
        .values_list("game_id", flat=True)
        .distinct()
    )


