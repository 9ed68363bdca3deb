"""Floor elements (003 "Elements"): screen, damaged tile, receptacle, rails, trapdoor, inverter, doubler,
vent, magnet, the virtualizer element, and the liquids on top of the floor, water and oil.

Their effect on movement lives in `engine.turn` (which asks these classes what a square does); the
steps they act in at the end of a phase are here: virtualizers, vents, screens (with damaged tiles
breaking and trapdoors opening).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..errors import CourseError
from ..geometry import opposite
from ..steps import runs_in
from . import Element, direction, flag, optional, phases, register, sides

if TYPE_CHECKING:
    from ..turn import Turn


@dataclass(frozen=True)
class Screen(Element):
    """A bot may pass over a screen; ending a phase on it is death."""

    type: ClassVar[str] = "screen"
    no_marker: ClassVar[bool] = True


@dataclass(frozen=True)
class DamagedTile(Element):
    """Breaks into a screen when it starts a phase with a bot on it and ends the phase with none."""

    type: ClassVar[str] = "damaged_tile"
    no_marker: ClassVar[bool] = True


@dataclass(frozen=True)
class Receptacle(Element):
    """A hole: the first bot to move onto it falls to its death and fills it. Covered: plain floor."""

    type: ClassVar[str] = "receptacle"
    covered: bool

    @property
    def no_marker(self) -> bool:
        return not self.covered


@dataclass(frozen=True)
class Rail(Element):
    """Rails leave the tile by `sides`: two opposite sides (straight), two adjacent sides (corner) or all
    four (cross). Over a pit, moving on or off other than along the rail is death."""

    type: ClassVar[str] = "rail"
    sides: frozenset[str]
    over_pit: bool

    @property
    def no_marker(self) -> bool:
        return self.over_pit

    @property
    def shape(self) -> str:
        if len(self.sides) == 4:
            return "cross"
        first = next(iter(self.sides))
        return "straight" if opposite(first) in self.sides else "corner"


def _check_rail(rail: Rail, where: str) -> None:
    if len(rail.sides) not in (2, 4):
        raise CourseError(
            f"{where}: 'sides' must list 2 sides (straight or corner) or all 4 (cross), got {sorted(rail.sides)}"
        )


@dataclass(frozen=True)
class Trapdoor(Element):
    """A pit covered by a trapdoor that is closed in `phases` (safe then) and open in the others."""

    type: ClassVar[str] = "trapdoor"
    no_marker: ClassVar[bool] = True
    phases: frozenset[int]


@dataclass(frozen=True)
class Inverter(Element):
    type: ClassVar[str] = "inverter"


@dataclass(frozen=True)
class Doubler(Element):
    type: ClassVar[str] = "doubler"


@dataclass(frozen=True)
class Vent(Element):
    type: ClassVar[str] = "vent"


@dataclass(frozen=True)
class Magnet(Element):
    type: ClassVar[str] = "magnet"
    dir: str


@dataclass(frozen=True)
class Virtualizer(Element):
    type: ClassVar[str] = "virtualizer"


@dataclass(frozen=True)
class Water(Element):
    type: ClassVar[str] = "water"


@dataclass(frozen=True)
class Oil(Element):
    type: ClassVar[str] = "oil"


register(Screen, layer="tile", fields={})
register(DamagedTile, layer="tile", fields={})
register(Receptacle, layer="tile", fields={"covered": optional(flag("covered"), False)})
register(Rail, layer="tile", fields={"sides": sides("sides"), "over_pit": optional(flag("over_pit"), False)},
         check=_check_rail)  # fmt: skip
register(Trapdoor, layer="tile", fields={"phases": phases()})
register(Inverter, layer="tile", fields={})
register(Doubler, layer="tile", fields={})
register(Vent, layer="tile", fields={})
register(Magnet, layer="tile", fields={"dir": direction("dir")})
register(Virtualizer, layer="tile", fields={})
register(Water, layer="liquid", fields={})
register(Oil, layer="liquid", fields={})


def trapdoor_open(tile: Trapdoor, phase: int) -> bool:
    return phase not in tile.phases


@runs_in("modules")
def note_damaged_tiles(turn: Turn) -> None:
    """Which damaged tiles start this phase with a bot on them."""
    if turn.course.of_type("damaged_tile"):
        turn.occupied_at_start = {bot.at for bot in turn.in_order()}


@runs_in("virtualizers")
def run_virtualizers(turn: Turn) -> None:
    """A virtualizer element turns the bots on it virtual, until the end of the turn (003)."""
    if not turn.course.of_type("virtualizer"):
        return
    for bot in turn.in_order():
        if isinstance(turn.course.tiles.get(bot.at), Virtualizer) and not bot.virtual:
            turn.make_virtual(bot, "virtualizer")


@runs_in("vents")
def vent_damage(turn: Turn) -> None:
    """Bots ending a phase on a vent are burned for 1 damage (003 "Vent")."""
    if not turn.course.of_type("vent"):
        return
    for bot in turn.in_order():
        if isinstance(turn.course.tiles.get(bot.at), Vent):
            turn.damage(bot, 1, "vent")


@runs_in("screens")
def run_screens(turn: Turn) -> None:
    """Screens open, killing bots resting on them; then damaged tiles left empty break into screens, and
    trapdoors open for the next phase, dropping the bots on them (003 "Screen", "Damaged Tile",
    "Trapdoor")."""
    course = turn.course
    if not (course.of_type("screen") or course.of_type("damaged_tile") or course.of_type("trapdoor")):
        return
    next_phase = turn.phase % 5 + 1
    for bot in turn.in_order():
        tile = course.tiles.get(bot.at)
        if isinstance(tile, Screen) or (isinstance(tile, DamagedTile) and bot.at in turn.board.broken):
            turn.destroy(bot, "screen")
    if course.of_type("damaged_tile"):
        now = {bot.at for bot in turn.in_order()}
        for tile in course.of_type("damaged_tile"):
            if tile.at in turn.occupied_at_start and tile.at not in now and tile.at not in turn.board.broken:
                turn.board.broken.add(tile.at)
                turn.emit("tile_broken", None, at=list(tile.at))
    for bot in turn.in_order():
        tile = course.tiles.get(bot.at)
        if isinstance(tile, Trapdoor) and trapdoor_open(tile, next_phase):
            turn.destroy(bot, "trapdoor")
