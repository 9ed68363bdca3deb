"""Edge elements besides the plain wall (003 "Elements"): one-way wall, sliding wall, curtain, window and
the shocker. Each stands on the edge between two squares (side `side` of `at`); `engine.turn` asks them
whether a move or a shot crosses that edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..errors import CourseError
from ..geometry import opposite
from . import Element, direction, phases, register

if TYPE_CHECKING:
    from ..turn import Mover, Turn


@dataclass(frozen=True)
class OneWayWall(Element):
    """Lets bots and shots cross only toward `dir` (003 "One Way Wall")."""

    type: ClassVar[str] = "one_way_wall"
    title: ClassVar[str] = "One-way wall"
    help: ClassVar[str] = "Robots and shots cross it only the way of its arrow."
    short: ClassVar[str] = "One-way wall: crossed only the way of the arrow"
    side: str
    dir: str

    def stops_move(self, heading: str, phase: int) -> bool:
        return heading != self.dir

    def stops_shot(self, heading: str, phase: int) -> bool:
        return heading != self.dir


def _check_one_way(wall: OneWayWall, where: str) -> None:
    if wall.dir not in (wall.side, opposite(wall.side)):
        raise CourseError(
            f"{where}: 'dir' must cross the wall's edge ({wall.side} or {opposite(wall.side)}), got {wall.dir!r}"
        )


@dataclass(frozen=True)
class SlidingWall(Element):
    """A wall that slides open during `open` phases (003 "Sliding Wall")."""

    type: ClassVar[str] = "sliding_wall"
    title: ClassVar[str] = "Sliding wall"
    help: ClassVar[str] = "A wall that slides open in the phases it shows."
    short: ClassVar[str] = "Sliding wall: open in the phases shown"
    side: str
    open: frozenset[int]

    def stops_move(self, heading: str, phase: int) -> bool:
        return phase not in self.open

    stops_shot = stops_move


@dataclass(frozen=True)
class Curtain(Element):
    """Blocks shots, lets bots through (003 "Curtain")."""

    type: ClassVar[str] = "curtain"
    title: ClassVar[str] = "Curtain"
    help: ClassVar[str] = "Robots drive through it; shots stop at it."
    short: ClassVar[str] = "Curtain: stops shots, not robots"
    side: str

    def stops_move(self, heading: str, phase: int) -> bool:
        return False

    def stops_shot(self, heading: str, phase: int) -> bool:
        return True


@dataclass(frozen=True)
class Window(Element):
    """Blocks bots, lets shots through (003 "Window")."""

    type: ClassVar[str] = "window"
    title: ClassVar[str] = "Window"
    help: ClassVar[str] = "Shots pass through it; robots stop at it."
    short: ClassVar[str] = "Window: stops robots, not shots"
    side: str

    def stops_move(self, heading: str, phase: int) -> bool:
        return True

    def stops_shot(self, heading: str, phase: int) -> bool:
        return False


@dataclass(frozen=True)
class Shocker(Element):
    """Blocks like a wall; a bot running, pushed or carried into it takes 1 damage per try (003 "Shocker")."""

    type: ClassVar[str] = "shocker"
    title: ClassVar[str] = "Shocker"
    help: ClassVar[str] = (
        "Blocks robots and shots like a wall, and every try to cross it costs 1 damage (a fast belt into "
        "it can shock you several times a phase)."
    )
    short: ClassVar[str] = "Shocker: blocks; 1 damage for each try to cross"
    side: str

    def stops_move(self, heading: str, phase: int) -> bool:
        return True

    def stops_shot(self, heading: str, phase: int) -> bool:
        return True

    def bumped(self, turn: Turn, bot: Mover) -> None:
        turn.damage(bot, 1, "shocker")


register(
    OneWayWall,
    layer="edge",
    fields={"side": direction("side"), "dir": direction("dir")},
    check=_check_one_way,
)
register(SlidingWall, layer="edge", fields={"side": direction("side"), "open": phases("open")})
register(Curtain, layer="edge", fields={"side": direction("side")})
register(Window, layer="edge", fields={"side": direction("side")})
register(Shocker, layer="edge", fields={"side": direction("side")})
