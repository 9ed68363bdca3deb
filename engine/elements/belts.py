"""Belts (003 "Belt"): 1, 2, 3 and 5 speed, straight and turning, moving in five sub-phases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..errors import CourseError
from ..geometry import DIRECTIONS, Square, neighbour, opposite
from ..steps import runs_in
from . import Element, direction, register, sides, whole

if TYPE_CHECKING:
    from ..turn import Mover, Turn

# Sub-phases a-e: the belt speeds that move one square in each.
SUB_PHASES = ((5,), (5,), (3, 5), (2, 3, 5), (1, 2, 3, 5))


@dataclass(frozen=True)
class Belt(Element):
    type: ClassVar[str] = "belt"
    title: ClassVar[str] = "Conveyor belt"
    help: ClassVar[str] = (
        "Every phase a belt carries the robot on it the way of its arrows: speed 1, 2, 3 or 5 squares a "
        "phase. A belt never pushes; a robot in the way blocks it. Carried onto a turning belt (↻) from "
        "the side, a robot is turned with the belt."
    )
    short: ClassVar[str] = "Belt: arrows show the way, the number its speed (1, 2, 3, 5); ↻ marks a turning belt"
    conveys: ClassVar[bool] = True
    no_marker: ClassVar[bool] = True
    dir: str
    speed: int
    curves_from: frozenset[str]


def _check(belt: Belt, where: str) -> None:
    for side in belt.curves_from:
        if side in (belt.dir, opposite(belt.dir)):
            raise CourseError(
                f"{where}: 'curves_from' side {side!r} of a belt running {belt.dir} is not a side a bot can "
                f"be turned from (only the sides across its direction are)"
            )


register(
    Belt,
    layer="tile",
    fields={
        "dir": direction("dir"),
        "speed": whole("speed", 1, 5, allowed=(1, 2, 3, 5)),
        "curves_from": sides("curves_from"),
    },
    check=_check,
)


def _turn_towards(travel: str, exit_dir: str) -> int:
    """Quarter turns (clockwise positive) from the travel direction to the belt's direction: +1 or -1."""
    return ((DIRECTIONS.index(exit_dir) - DIRECTIONS.index(travel) + 1) % 4) - 1


_ASK = object()  # a belt's exit whose edge element or portal decides turn by turn (`Turn.edge_stop`)


def _belts(course) -> tuple[dict[Square, tuple[Belt, Square, object]], frozenset[int]]:
    """The course's belts by square, each with the square it carries to and what stands on its exit edge
    ("wall", None, or `_ASK`), and the belt speeds the course has: found once per course (`Course.memo`)."""
    table = course.memo.get("belts")
    if table is None:
        ask = bool(course.mounted.get("portal"))  # a portal's back may stop a move off any square
        belts = {}
        for at, tile in course.tiles.items():
            if isinstance(tile, Belt):
                edge = (at, tile.dir)
                stop = "wall" if edge in course.walls else _ASK if ask or edge in course.edges else None
                belts[at] = (tile, neighbour(at, tile.dir), stop)
        table = course.memo["belts"] = (belts, frozenset(belt.speed for belt, _, _ in belts.values()))
    return table


@runs_in("belts")
def run_belts(turn: Turn) -> None:
    belts, present = _belts(turn.course)
    if not belts:
        return
    riding = [bot for bot in turn.in_order(actors=True) if bot.at in belts]
    if not riding:
        return
    for sub, speeds in enumerate(SUB_PHASES, start=1):
        if present.intersection(speeds):  # a sub-phase of speeds the course lacks moves nobody
            _sub_phase(turn, sub, speeds, belts, riding)


def _sub_phase(
    turn: Turn, sub: int, speeds: tuple[int, ...], belts: dict[Square, tuple[Belt, Square, object]],
    riding: list[Mover],
) -> None:
    """Every bot on a belt of these speeds moves one square at once.

    A move is blocked by a wall, by a real bot ahead that is not itself carried away in this sub-phase
    (belts never push), by a head-on swap, or, when two real bots would end on one square, for every one
    but the first in priority. Virtual bots are blocked by walls only.
    """
    riders: list[tuple[Mover, Belt, Square]] = []
    exits: list[object] = []
    # Only a bot on a belt when the belts began can ride one now (belts carry from belt to belt; nothing else
    # moves a bot in this step), in priority order; bombs ride belts too (003 "Bomb").
    for bot in riding:
        found = belts.get(bot.at)
        if found is not None and found[0].speed in speeds:
            riders.append((bot, found[0], found[1]))
            exits.append(found[2])
    if not riders:
        return
    blocked: dict[str, str] = {}
    portals = turn.course.mounted.get("portal", {})
    enter = turn.course.hooks["enter"]
    for (bot, belt, target), stop in zip(riders, exits, strict=True):
        reason, edge = turn.edge_stop(bot.at, belt.dir) if stop is _ASK else (stop, None)
        if reason is None and portals and any(p.side == belt.dir for p in portals.get(bot.at, ())):
            reason = "portal"  # belts don't carry through portals (docs/rules.md)
        turn.bump(bot, edge)  # a shocker: 1 damage per move into it (003 "Shocker")
        if reason is None and turn.course.on_course(target):
            for unit in enter.get(target, ()):  # force fields; mirrors (belts don't break them, 003 "Belt")
                reason = unit.enter(turn, bot, belt.dir, "belt")
                if reason is not None:
                    break
        if reason is not None:
            blocked[bot.id] = reason
    riders = [rider for rider in riders if rider[0].at is not None]
    changed = True
    while changed:
        changed = False
        riders = [rider for rider in riders if rider[0].at is not None]  # a bot shocked to death
        moving = {
            bot.at: (bot, target) for bot, _, target in riders if bot.id not in blocked and not bot.virtual
        }
        real: dict[Square, Mover] = {}  # `Turn.real_bot_at` for every square at once: nobody moves in a pass
        for other in turn.bots.values():
            if other.at is not None and not other.virtual:
                real.setdefault(other.at, other)
        claimed: set[Square] = set()
        for bot, _, target in riders:
            if bot.id in blocked or bot.virtual:
                continue
            reason = None
            if target in claimed:
                reason = "bot"
            else:
                ahead = real.get(target)
                if ahead is not None:
                    leaving = moving.get(target)
                    if leaving is None or leaving[1] == bot.at:  # staying put, or a head-on swap
                        reason = "bot"
                        if turn.activations:
                            turn.contact(bot, ahead)  # a module: shockers (docs/rules.md "Modules")
                            if bot.at is None or ahead.at is None:
                                changed = True  # shocked to death: it won't block, or move (003)
                                break
            if reason:
                blocked[bot.id] = reason
                changed = True
                break
            claimed.add(target)
    for bot, belt, _ in riders:
        if bot.id in blocked and bot.at is not None:
            turn.emit("blocked", bot.id, at=list(bot.at), dir=belt.dir, by=blocked[bot.id])
    sliding: list[tuple[Mover, str]] = []
    for bot, belt, target in riders:
        if bot.id in blocked or bot.at is None:
            continue  # blocked, or (a piece of arena remains) collected by a bot carried onto it just now
        turn.emit("carried", bot.id, sub=sub, **{"from": list(bot.at), "to": list(target)})
        if turn.place(bot, target):
            landing = belts.get(target)
            if landing is not None and opposite(belt.dir) in landing[0].curves_from:
                turn.rotate(bot, _turn_towards(belt.dir, landing[0].dir), "belt")
            elif landing is None:
                turn.arrive(bot, belt.dir)
                if bot.at is not None:
                    sliding.append((bot, belt.dir))
    for bot, heading in sliding:  # once every bot of the sub-phase has moved (003 "Oil")
        if bot.at is not None:
            turn.slide(bot, heading)
