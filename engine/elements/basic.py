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


@dataclass(frozen=True)
class Wall(Element):
    """A wall on one side of a square; it blocks moves and shots both ways across that edge."""

    type: ClassVar[str] = "wall"
    side: str


@dataclass(frozen=True)
class Pit(Element):
    """Moving or being pushed in destroys at once (engine.turn.Turn.place); a pit can't be crossed."""

    type: ClassVar[str] = "pit"
    pit: ClassVar[bool] = True
    no_marker: ClassVar[bool] = True

    def hole(self, turn: Turn, at) -> str:
        return "pit"


@dataclass(frozen=True)
class Start(Element):
    type: ClassVar[str] = "start"
    numbered: ClassVar[bool] = True
    number: int
    dir: str


@dataclass(frozen=True)
class Repair(Element):
    """A damaged bot ending a turn here is repaired by `amount`."""

    type: ClassVar[str] = "repair"
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
