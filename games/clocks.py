"""The move and game clocks of 003 "Time Limits", as arithmetic on a seat (no database, no "now" of its own).

A seat's clock runs while it has to program: move time runs down first, then game time. After a turn is
resolved the next turn's clocks start once its animation is over (at 1x, at most 60 s): a clock whose
`clock_started_at` lies ahead has not begun to count. On its first program
of a turn the clock stops and move time reloads: to the maximum if any opponent is still thinking, else by
half the maximum, up to the maximum.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

PRESETS = {  # preset: (move seconds, game seconds)
    "realtime": (2 * 60, 10 * 60),
    "daily": (24 * 3600, 7 * 24 * 3600),
    "tournament": (3 * 24 * 3600, 15 * 24 * 3600),
}
MIN_MOVE_TIME = 15
MAX_MOVE_TIME = 30 * 24 * 3600
MAX_GAME_TIME = 60 * 24 * 3600
E_MAIL_FROM_MOVE_TIME = 3600  # "your turn" e-mails only for games this slow or slower


@dataclass(frozen=True)
class Left:
    move: float
    game: float

    @property
    def total(self) -> float:
        return self.move + self.game


def left_at(seat, now: datetime) -> Left:
    """Time left on the seat's clocks at `now` (the stored values if the clock is stopped)."""
    if seat.clock_started_at is None:
        return Left(max(seat.move_left, 0.0), max(seat.game_left, 0.0))
    elapsed = max((now - seat.clock_started_at).total_seconds(), 0.0)
    move = max(seat.move_left - elapsed, 0.0)
    over = max(elapsed - seat.move_left, 0.0)
    return Left(move, max(seat.game_left - over, 0.0))


# A game whose clocks an organiser paused (games.services.organisers.pause_clocks) has this as its `clocks_from`,
# and its thinking seats' clocks "start" then: the arithmetic above holds their time still (a clock whose start
# lies ahead spends nothing, its deadline is never due), and every path that starts a clock from the game's
# `clocks_from` (a deal, a program taken back, a seat handed back) starts it paused too.
PAUSED = datetime(9000, 1, 1, tzinfo=UTC)


def paused(seat) -> bool:
    return seat.clock_started_at is not None and seat.clock_started_at >= PAUSED


# A turn's clocks wait for its animation at most this long (docs/site.md "When the move clock starts").
MAX_ANIMATION_WAIT = 60


def animation_wait(seconds: float) -> float:
    """How long the next turn's clocks wait for the last turn's animation of `seconds` at 1x."""
    return min(max(seconds, 0.0), float(MAX_ANIMATION_WAIT))


def start(seat, now: datetime, *, from_: datetime | None = None) -> None:
    """The seat's clock runs from `from_` (the turn's clocks_from: after the last turn's animation), or from
    `now` if that is later or not given."""
    begins = now if from_ is None or from_ < now else from_
    seat.clock_started_at = begins
    seat.deadline = begins + timedelta(seconds=max(seat.move_left, 0) + max(seat.game_left, 0))
    seat.expired = seat.deadline <= now


def stop(seat, now: datetime) -> None:
    left = left_at(seat, now)
    seat.move_left, seat.game_left = left.move, left.game
    seat.clock_started_at = None
    seat.deadline = None


def reload(seat, *, maximum: int, opponents_thinking: bool) -> None:
    """After the seat's program is in (its clock stopped): 003's reload of the move time."""
    if opponents_thinking:
        seat.move_left = float(maximum)
    else:
        seat.move_left = min(float(maximum), seat.move_left + maximum / 2)
    seat.expired = False


def running(seat) -> bool:
    return seat.clock_started_at is not None


def expired_at(seat, now: datetime) -> bool:
    """The game timer has run out while the seat is thinking (003: others may eject it)."""
    return seat.deadline is not None and seat.deadline <= now


def public(seat, now: datetime) -> dict:
    left = left_at(seat, now)
    if paused(seat):  # held still by the organiser: shown stopped, and said why
        return {"number": seat.number, "move_left": round(left.move, 1), "game_left": round(left.game, 1),
                "clock_running": False, "expired": False, "paused": True}
    reading = {
        "number": seat.number,
        "move_left": round(left.move, 1),
        "game_left": round(left.game, 1),
        "clock_running": running(seat),
        "expired": expired_at(seat, now),
    }
    if seat.clock_started_at is not None and seat.clock_started_at > now:
        # Running, but it starts counting down only this many seconds from `now` (the turn's animation).
        reading["starts_in"] = round((seat.clock_started_at - now).total_seconds(), 1)
    return reading
