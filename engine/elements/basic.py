"""Floor, walls, pits, starts and repair tiles (003 "Elements": Floor, Pit, Start, Repairs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..steps import runs_in
from . import Element, direction, flag, optional, register, whole

if TYPE_CHECKING:
    from ..turn import Turn


@dataclass(frozen=True)
class Floor(Element):
    type: ClassVar[str] = "floor"
    title: ClassVar[str] = "Floor"
    help: ClassVar[str] = "Plain factory floor. Nothing happens here; every square a course does not fill is floor."


@dataclass(frozen=True)
class Wall(Element):
    """A wall on one side of a square; it blocks moves and shots both ways across that edge."""

    type: ClassVar[str] = "wall"
    title: ClassVar[str] = "Wall"
    help: ClassVar[str] = (
        "Walls stand on the edges between squares. A robot that runs into one stops there and loses the "
        "rest of that chip's move; shots stop at walls too."
    )
    short: ClassVar[str] = "Wall: blocks moves and shots"
    side: str


@dataclass(frozen=True)
class Pit(Element):
    """Moving or being pushed in destroys at once (engine.turn.Turn.place); a pit can't be crossed."""

    type: ClassVar[str] = "pit"
    title: ClassVar[str] = "Pit"
    help: ClassVar[str] = (
        "A hole in the floor. A robot that moves, is pushed or carried into a pit, or off the edge of the"
        " course, is destroyed at once and loses a life. A 2 or 3 can't jump a pit."
    )
    short: ClassVar[str] = "Pit: a robot that falls in is destroyed"
    pit: ClassVar[bool] = True
    no_marker: ClassVar[bool] = True

    def hole(self, turn: Turn, at) -> str:
        return "pit"


@dataclass(frozen=True)
class Start(Element):
    type: ClassVar[str] = "start"
    title: ClassVar[str] = "Start"
    help: ClassVar[str] = (
        "Where the robots begin the race: seat 1 on start 1 and so on, facing the arrow. It is also where"
        " a robot comes back after losing a life, until it tags its first check point."
    )
    short: ClassVar[str] = "Start: the number is the seat, the arrow the first heading"
    numbered: ClassVar[bool] = True
    number: int
    dir: str


@dataclass(frozen=True)
class Repair(Element):
    """A damaged bot ending a turn here is repaired by `amount`."""

    type: ClassVar[str] = "repair"
    title: ClassVar[str] = "Repair site"
    help: ClassVar[str] = "A robot ending a turn here has 1 or 2 damage repaired (the number shows how many)."
    short: ClassVar[str] = "Repair site: repairs 1 or 2 damage at the end of a turn"
    archives: ClassVar[bool] = True  # 000 wrenches, 001 green wrenches
    amount: int
    upgrade: bool = False  # classic (000): a crossed wrench/hammer square also gives the upgrade offered there

    @property
    def repair_amount(self) -> int:
        return self.amount


register(Floor, layer="tile", fields={})
register(Wall, layer="edge", fields={"side": direction("side")})
register(Pit, layer="tile", fields={})
register(Start, layer="marker", fields={"number": whole("number", 1, 8), "dir": direction("dir")})
register(Repair, layer="tile", fields={"amount": whole("amount", 1, 2), "upgrade": optional(flag("upgrade"), False)})


def shielded_by_radiation(turn: Turn, bot) -> bool:
    """003 "Virtual Burn": virtual bots are not repaired by course elements where radiation lies."""
    return bot.virtual and bot.at in turn.radiation


@runs_in("repairs")
def repair_tiles(turn: Turn) -> None:
    for bot in turn.in_order():
        tile = turn.course.tiles.get(bot.at)
        if isinstance(tile, Repair) and not shielded_by_radiation(turn, bot) and bot.drone_of is None:
            turn.repair(bot, tile.amount, "repair")
