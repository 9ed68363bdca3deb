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

from ..geometry import Square, opposite
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


def _first_hit(ray: tuple[Square, ...], targets: dict[Square, list[Mover]]) -> tuple[Square, list[Mover]]:
    """The square where a beam along `ray` stops, and the bots there it hits (none: it reached the end)."""
    for square in ray:
        hit = [bot for bot in targets.get(square, ()) if bot.at == square]  # not destroyed earlier this step
        if hit:
            return square, hit
    return ray[-1], []


def _by_square(bots: list[Mover]) -> dict[Square, list[Mover]]:
    squares: dict[Square, list[Mover]] = {}
    for bot in bots:
        squares.setdefault(bot.at, []).append(bot)
    return squares


@runs_in("bot_lasers")
def bots_fire(turn: Turn) -> None:
    course = turn.course
    on_course = turn.in_order()
    real = _by_square([bot for bot in on_course if not bot.virtual])
    for shooter in on_course:
        if shooter.at is None or shooter.virtual or shooter.rebooting:
            continue
        ray = course.ray(shooter.at, shooter.dir)[1:]
        if not ray:
            continue  # facing a wall or the edge: nothing to fire into
        last, hit = _first_hit(ray, real)
        target = hit[0] if hit else None
        turn.emit(
            "shot", shooter.id, source="bot", dir=shooter.dir, beams=1,
            target=target.id if target else None, **{"from": list(ray[0]), "to": list(last)},
        )  # fmt: skip
        if target is not None:
            turn.damage(target, 1, "bot laser")


@runs_in("wall_lasers")
def wall_lasers_fire(turn: Turn) -> None:
    lasers = turn.course.of_type("laser")
    if not lasers:
        return
    everyone = _by_square(turn.in_order())
    for laser in lasers:
        heading = opposite(laser.side)
        last, hit = _first_hit(turn.course.ray(laser.at, heading), everyone)
        if not hit:
            continue  # the beam is drawn with the course; only a hit is an event
        turn.emit(
            "shot", None, source="laser", dir=heading, beams=laser.beams,
            target=hit[0].id, **{"from": list(laser.at), "to": list(last)},
        )  # fmt: skip
        for bot in hit:
            turn.damage(bot, laser.beams, "laser")
