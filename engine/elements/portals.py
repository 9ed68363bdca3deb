"""Portals (003 "Portal"): mounted on one side of a square, facing out of it. A bot moving out of the
square through that side arrives at once on the square of the closest portal facing back at it (on the
same row or column, ahead, mounted on the side toward the entered one) and goes on from there. A red
portal lets shots through the same way; other portals stop them. The back of a portal (the edge crossed
the other way) blocks like a wall. A portal with no exit locks all the bot's chips (its damage goes to 9),
or destroys it if it is rebooting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..geometry import Square, neighbour, opposite
from . import Element, choice, direction, register

if TYPE_CHECKING:
    from ..course import Course


@dataclass(frozen=True)
class Portal(Element):
    type: ClassVar[str] = "portal"
    title: ClassVar[str] = "Portal"
    help: ClassVar[str] = (
        "Driving out through a portal's side puts you on the square of the nearest portal facing it, and "
        "the move goes on from there. Red portals carry shots too, blue ones stop them. A portal with no "
        "exit is very bad news: 9 damage."
    )
    short: ClassVar[str] = "Portal: leads to the portal facing it (red ones let shots through)"
    side: str
    colour: str


register(
    Portal, layer="mount", fields={"side": direction("side"), "colour": choice("colour", ("red", "blue"))}
)


def portal_on(course: Course, at: Square, side: str) -> Portal | None:
    for element in course.mounted.get("portal", {}).get(at, ()):
        if element.side == side:
            return element
    return None


def exit_of(course: Course, portal: Portal) -> Square | None:
    """The square of the closest portal ahead that faces the entered one, or None."""
    square = portal.at
    facing = opposite(portal.side)
    while True:
        square = neighbour(square, portal.side)
        if not course.on_course(square):
            return None
        if portal_on(course, square, facing) is not None:
            return square
