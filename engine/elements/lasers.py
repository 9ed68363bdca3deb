"""Lasers (003 "Wall Lasers", "Phase Steps": bots fire, then wall lasers in reading order).

Bot lasers: every real bot on the course that is not sitting a reboot out fires forward; the beam starts
in the square ahead and stops at a wall, the course edge or the first real bot, which takes 1 damage.
Virtual bots neither fire, nor are shot by bots, nor stop a bot's beam (003 "Virtuality").

Wall lasers: mounted on one side of their square, they fire away from it, their own square included,
until a wall or the edge. The first square holding any bot stops the beam and every bot on it takes one
damage per beam; wall lasers hit virtual bots too (docs/rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..geometry import Square, neighbour, opposite
from ..steps import runs_in
from . import Element, direction, register, whole

if TYPE_CHECKING:
    from ..turn import Mover, Turn


@dataclass(frozen=True)
class Laser(Element):
    type: ClassVar[str] = "laser"
    side: str
    beams: int


register(Laser, layer="mount", fields={"side": direction("side"), "beams": whole("beams", 1, 3)})


def _trace(turn: Turn, start: Square, heading: str, hits) -> tuple[Square, list[Mover]]:
    """Follow a beam from `start` (included); returns its last square and the bots it hit there."""
    course = turn.course
    square = start
    while True:
        targets = hits(square)
        if targets:
            return square, targets
        if course.wall_between(square, heading):
            return square, []
        ahead = neighbour(square, heading)
        if not course.on_course(ahead):
            return square, []
        square = ahead


@runs_in("bot_lasers")
def bots_fire(turn: Turn) -> None:
    course = turn.course
    for shooter in turn.in_order():
        if shooter.at is None or shooter.virtual or shooter.rebooting:
            continue
        if course.wall_between(shooter.at, shooter.dir) or not course.on_course(
            neighbour(shooter.at, shooter.dir)
        ):
            continue  # facing a wall or the edge: nothing to fire into
        first = neighbour(shooter.at, shooter.dir)

        def real_bot(square: Square) -> list[Mover]:
            bot = turn.real_bot_at(square)
            return [bot] if bot is not None else []

        last, hit = _trace(turn, first, shooter.dir, real_bot)
        target = hit[0] if hit else None
        turn.emit(
            "shot", shooter.id, source="bot", dir=shooter.dir, beams=1,
            target=target.id if target else None, **{"from": list(first), "to": list(last)},
        )  # fmt: skip
        if target is not None:
            turn.damage(target, 1, "bot laser")


@runs_in("wall_lasers")
def wall_lasers_fire(turn: Turn) -> None:
    for laser in turn.course.of_type("laser"):
        heading = opposite(laser.side)
        last, hit = _trace(turn, laser.at, heading, turn.bots_at)
        if not hit:
            continue  # the beam is drawn with the course; only a hit is an event
        turn.emit(
            "shot", None, source="laser", dir=heading, beams=laser.beams,
            target=hit[0].id, **{"from": list(laser.at), "to": list(last)},
        )  # fmt: skip
        for bot in hit:
            turn.damage(bot, laser.beams, "laser")
