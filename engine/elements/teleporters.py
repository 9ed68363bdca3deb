"""Teleporters (003 "Teleporter"): in colour groups of two or more, each group a loop drawn at random once
per race (from the first turn's seed, then kept in the state). They act twice a phase, before and after
weapon fire, on every bot on one that moved since teleporters last acted.

Series numbers run 1..n per colour in reading order; the loop gives each teleporter its destination. A
destination under an intact force field sends the bot on at once (each hop is mapped); a destination
holding a real bot makes the arriving bot virtual. A number shows once it is used: the series number when
a bot arrives there, the destination number when a bot leaves from there.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..errors import CourseError
from ..geometry import Square
from ..steps import runs_in
from . import Element, described, register
from .covers import field_up

if TYPE_CHECKING:
    from ..course import Course
    from ..turn import Turn


@dataclass(frozen=True)
class Teleporter(Element):
    type: ClassVar[str] = "teleporter"
    title: ClassVar[str] = "Teleporter"
    help: ClassVar[str] = (
        "A robot that moved onto a teleporter (for any reason) is sent to the next teleporter of the same"
        " colour, just before and just after weapons fire. With three or more of a colour the loop is "
        "secret until robots use it: the green number is a teleporter's place in its colour, the red one "
        "where it leads. Arriving on a real robot makes you virtual."
    )
    short: ClassVar[str] = (
        "Teleporter: to the next of its colour; green = its number, red = where it leads (shown once used)"
    )
    teleports: ClassVar[bool] = True
    colour: str


def _colour(value, where):
    if not isinstance(value, str) or not value.isalpha() or not value.islower() or len(value) > 12:
        raise CourseError(f"{where}: 'colour' must be a lowercase colour name such as 'red', got {value!r}")
    return value


described(_colour, "colour", max_length=12)
register(Teleporter, layer="ceiling", fields={"colour": _colour})


def groups(course: Course) -> dict[str, list[Teleporter]]:
    """Each colour's teleporters in series order (reading order)."""
    found: dict[str, list[Teleporter]] = {}
    for element in course.of_type("teleporter"):
        found.setdefault(element.colour, []).append(element)
    return found


def series(course: Course, at: Square) -> int:
    element = course.ceiling[at]
    return [t.at for t in groups(course)[element.colour]].index(at) + 1


def draw_loop(course: Course, seed: int) -> dict[Square, Square]:
    """Each teleporter's destination: a pair swaps; three or more form one loop in a random order."""
    rng = random.Random(f"teleporters:{seed}")
    loop: dict[Square, Square] = {}
    for _, group in sorted(groups(course).items()):
        squares = [t.at for t in group]
        order = [squares[0]] + rng.sample(squares[1:], len(squares) - 1)
        for index, at in enumerate(order):
            loop[at] = order[(index + 1) % len(order)]
    return loop


def _run(turn: Turn) -> None:
    ceiling = turn.course.ceiling
    for bot in turn.in_order(actors=True):  # bombs teleport too (003 "Bomb")
        if not bot.moved:
            continue
        bot.moved = False
        if not isinstance(ceiling.get(bot.at), Teleporter):
            continue
        origin = bot.at
        at = origin
        seen = {at}
        while True:
            destination = turn.board.loop[at]
            turn.emit(
                "teleported", bot.id, colour=ceiling[at].colour, series=series(turn.course, at),
                destination=series(turn.course, destination), **{"from": list(at), "to": list(destination)},
            )  # fmt: skip
            turn.board.dest_shown.add(at)
            turn.board.series_shown.add(destination)
            at = destination
            if not field_up(turn, at) or at in seen:
                break
            seen.add(at)
        if field_up(turn, at):
            # Every other teleporter of the loop is covered: the bot is back where it started.
            at = origin
        if not bot.virtual and turn.real_bot_at(at) not in (None, bot):
            turn.make_virtual(bot, "teleporter")
        bot.at = at
        if turn.remains_ids:
            turn.arrived(bot)  # remains there are collected at once (003 "Arena Remains")
    for bot in turn.bots.values():
        bot.moved = False
    for actor in turn.actors.values():
        actor.moved = False


@runs_in("teleporters_before")
def teleport_before(turn: Turn) -> None:
    if turn.course.of_type("teleporter"):
        _run(turn)


@runs_in("teleporters_after")
def teleport_after(turn: Turn) -> None:
    if turn.course.of_type("teleporter"):
        _run(turn)
