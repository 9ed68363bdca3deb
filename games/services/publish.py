"""What a write tells the world, after its commit: numbered public events (games.broadcast), the clocks' readings,
"your turn" notices, each player's pushed snapshot, and the Celery tasks a write schedules (a resolution, the
computers' moves), sent by name so that services never import the tasks that call them."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app
from django.db import transaction
from django.urls import reverse

from games import broadcast, clocks, kinds, lobby_feed
from games.models import Game, GameEvent, Seat
from games.selectors import snapshots
from games.services import notices

logger = logging.getLogger(__name__)
# The tasks' names (games.tasks registers them under these).
RESOLVE_TURN = "games.tasks.resolve_turn"
COMPUTER_MOVE = "games.tasks.computer_move"
TURN_EMAILS = "games.tasks.send_turn_emails"


def append_event(game: Game, kind: str, data: dict | None = None) -> GameEvent:
    """Number and store a public event; the caller holds the game lock and saves the game."""
    game.version += 1
    event = GameEvent(game=game, version=game.version, kind=kind, data=data or {})
    broadcast.store_event(event)  # at once, or with the others of a program's or a resolution's transaction
    broadcast.send_after_commit(event)
    if kind in lobby_feed.KINDS:
        lobby_feed.changed(game=game, kind=kind)
    return event


def clock_reading(seats: list[Seat], now: datetime) -> dict:
    """What the `clocks` event (and a `seat_ready`) tells browsers: the seats' clocks as of `now`."""
    return {"server_time": now.isoformat(), "seats": [clocks.public(seat, now) for seat in seats]}


def clocks_event(game: Game, seats: list[Seat], now: datetime) -> None:
    append_event(game, "clocks", clock_reading(seats, now))


def schedule_resolution(game: Game) -> None:
    game_id, turn = game.pk, game.turn
    # robust: if Redis is down the task is lost, and the beat sweep re-enqueues the resolution.
    transaction.on_commit(lambda: _send(RESOLVE_TURN, (game_id, turn)), robust=True)


def push_snapshots(game: Game, last_turn: dict | None = None, dealt: dict | None = None) -> None:
    """Once the deal commits, every player's snapshot of the new turn, their hand included, goes to their own
    sockets on the game's page: no player has to ask for one after `turn_dealt`. Built right after the commit
    from the game as it was committed (the caller held its lock and is done with it) and its seats read then;
    the turn's hands and programs are the deal's (`dealt`) and the last turn the one just stored
    (`last_turn`) when the caller passes them, else they are read then too."""

    def push() -> None:
        broadcast.push_snapshots(snapshots.game_snapshots(game=game, last_turn=last_turn, dealt=dealt))

    transaction.on_commit(push, robust=True)


def notify_turn(game: Game, seats: list[Seat]) -> None:
    """"Your turn": a WebSocket message to each player's own group, and an e-mail in slow games."""
    if not seats:
        return
    game_id, turn = game.pk, game.turn
    kind = kinds.of(game)
    course = kind.board_name(game)
    noun = getattr(kind, "turn_noun", "turn")  # RAMbots: "round"
    for seat in seats:
        notices.notify(
            user_ids=[seat.user_id], kind="your_turn", text=f"Your move in game {game_id} ({course}), {noun} {turn}",
            link=reverse("game", args=[game_id]), source={"game": game_id},
            message={"game": game_id, "turn": turn, "turn_noun": noun, "course": course,
                     "deadline": seat.deadline.isoformat() if seat.deadline else None,
                     "server_time": seat.clock_started_at.isoformat() if seat.clock_started_at else None},
        )
    if game.move_time >= clocks.E_MAIL_FROM_MOVE_TIME:
        seat_ids = [seat.pk for seat in seats]
        transaction.on_commit(lambda: _send(TURN_EMAILS, (game_id, turn, seat_ids)), robust=True)


def schedule_computers(game: Game, seats: list[Seat], *, delays: dict[int, float] | None = None) -> None:
    """After the commit, a task on the `computers` queue for each seat a computer plays this turn: the workers
    of that queue do the thinking, so turn resolution never waits behind it. `delays` (seat number: seconds)
    holds a computer's move back that long (RAMbots' Speedbots: a think time a person could match)."""
    if not seats:
        return
    game_id, turn, numbers = game.pk, game.turn, [seat.number for seat in seats]
    delays = delays or {}

    def send() -> None:
        for number in numbers:
            wait = delays.get(number, 0)
            _send(COMPUTER_MOVE, (game_id, turn, number), queue="computers", **({"countdown": wait} if wait > 0 else {}))

    transaction.on_commit(send, robust=True)



def _send(name: str, args: tuple, **options) -> None:
    """The task `name` with `args`, by name: through its registered task when this process has it (so a test's
    eager mode runs it in place), else straight to the broker."""
    current_app.signature(name, args=args, **options).apply_async()

