"""Floor elements (003 "Elements"): screen, damaged tile, receptacle, rails, trapdoor, inverter, doubler,
vent, magnet, the virtualizer element, and the liquids on top of the floor, water and oil.

What they do to a bot playing a chip on them or moving over them is each class's hook methods
(`engine.hooks`); the steps they act in at the end of a phase are here: virtualizers, vents, screens (with
damaged tiles breaking and trapdoors opening).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..errors import CourseError
from ..geometry import opposite
from ..steps import runs_in
from . import Element, direction, flag, optional, phases, register, sides

if TYPE_CHECKING:
    from ..turn import ChipPlay, Mover, Turn


@dataclass(frozen=True)
class Screen(Element):
    """A bot may pass over a screen; ending a phase on it is death."""

    type: ClassVar[str] = "screen"
    title: ClassVar[str] = "Screen"
    help: ClassVar[str] = "Safe to drive across, but a robot that ends a phase on a screen is destroyed."
    short: ClassVar[str] = "Screen: safe to cross; a robot ending a phase on it is destroyed"
    no_marker: ClassVar[bool] = True


@dataclass(frozen=True)
class DamagedTile(Element):
    """Breaks into a screen when it starts a phase with a bot on it and ends the phase with none."""

    type: ClassVar[str] = "damaged_tile"
    title: ClassVar[str] = "Damaged tile"
    help: ClassVar[str] = (
        "Holds once. When a robot that started a phase on it has left it by the end of the phase, it "
        "breaks and is a screen for the rest of the race."
    )
    short: ClassVar[str] = "Damaged tile: breaks into a screen once a robot leaves it"
    no_marker: ClassVar[bool] = True


@dataclass(frozen=True)
class Receptacle(Element):
    """A hole: the first bot to move onto it falls to its death and fills it. Covered: plain floor."""

    type: ClassVar[str] = "receptacle"
    title: ClassVar[str] = "Receptacle"
    help: ClassVar[str] = (
        "A hole waiting to be filled: the first robot onto it falls in and is destroyed, and fills it; "
        "after that (or when it is covered) it is ordinary floor."
    )
    short: ClassVar[str] = "Receptacle: the first robot onto it falls in and fills it (covered: floor)"
    covered: bool

    @property
    def no_marker(self) -> bool:
        return not self.covered

    def hole(self, turn: Turn, at) -> str | None:
        return None if self.covered or at in turn.board.filled else "receptacle"

    def fallen(self, turn: Turn, bot: Mover, at) -> None:
        turn.board.filled.add(at)
        turn.emit("receptacle_filled", bot.id, at=list(at))


@dataclass(frozen=True)
class Rail(Element):
    """Rails leave the tile by `sides`: two opposite sides (straight), two adjacent sides (corner) or all
    four (cross). Over a pit, moving on or off other than along the rail is death."""

    type: ClassVar[str] = "rail"
    title: ClassVar[str] = "Rail"
    help: ClassVar[str] = (
        "A robot facing along a rail is on the rail: a turn chip (L, R, U) moves it 1 square along the "
        "rail instead, and turns only if that move is blocked. Driving frontwards onto a corner rail "
        "turns the robot round the corner. Rails over a pit carry you only along the rail: leave them any"
        " other way and you fall."
    )
    short: ClassVar[str] = "Rails: turn chips move a robot along them; over a pit, leave only along the rail"
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

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        """A turn chip played facing along the rail is a move-1 first; the turn happens only if that move
        fails (003 "Rails"). A sideways move (crab legs) played facing along the rail is blocked by it (003
        "Crab Legs")."""
        if bot.dir not in self.sides:
            return
        if play.kind == "turn":
            play.forward_first = True
        elif play.kind == "move" and play.sideways:
            play.blocked_by = "rail"

    def chip_step(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        """Backing up off a corner rail it faces along: its back turns to the other railed side first
        (003 "Corner Rails")."""
        if play.going_back and self.shape == "corner" and bot.dir in self.sides:
            (other,) = self.sides - {bot.dir}
            turn.face(bot, opposite(other), "rail")

    def leave(self, turn: Turn, bot: Mover, heading: str, mode: str) -> tuple[str, str | None]:
        """Pushed backward off a corner rail it faces along: its back turns to the other railed side first,
        and it moves that way (003 "Corner Rails")."""
        if mode == "push" and self.shape == "corner" and bot.dir in self.sides and heading == opposite(bot.dir):
            (other,) = self.sides - {bot.dir}
            turn.face(bot, opposite(other), "rail")
            return other, None
        return heading, None

    def depart(self, turn: Turn, bot: Mover, heading: str) -> bool:
        """Stepping off a rail over a pit other than along the rail drops the bot into the pit (003 "Rails
        Over Pits")."""
        if self.over_pit and heading not in self.sides:
            turn.destroy(bot, "pit")
            return True
        return False

    def arrive(self, turn: Turn, bot: Mover, heading: str) -> None:
        if self.over_pit and opposite(heading) not in self.sides:
            turn.destroy(bot, "pit")
            return
        if self.shape == "corner" and heading == bot.dir and opposite(heading) in self.sides:
            (other,) = self.sides - {opposite(heading)}
            turn.face(bot, other, "rail")  # moving frontwards onto a corner rail (003 "Corner Rails")


def _check_rail(rail: Rail, where: str) -> None:
    if len(rail.sides) not in (2, 4):
        raise CourseError(
            f"{where}: 'sides' must list 2 sides (straight or corner) or all 4 (cross), got {sorted(rail.sides)}"
        )


@dataclass(frozen=True)
class Trapdoor(Element):
    """A pit covered by a trapdoor that is closed in `phases` (safe then) and open in the others."""

    type: ClassVar[str] = "trapdoor"
    title: ClassVar[str] = "Trapdoor"
    help: ClassVar[str] = (
        "A pit with a lid that is closed (safe) in the phases it shows and open (a pit) in the others. "
        "Cross or stop on it only when it is closed."
    )
    short: ClassVar[str] = "Trapdoor: closed (safe) in the phases shown, a pit otherwise"
    no_marker: ClassVar[bool] = True
    phases: frozenset[int]

    def hole(self, turn: Turn, at) -> str | None:
        return "trapdoor" if trapdoor_open(self, turn.phase) else None


@dataclass(frozen=True)
class Inverter(Element):
    """A chip played here is reversed: turns swap left and right, moves go the other way, a sideways move goes
    to the other side, an extra forward square goes backward (003 "Inverter", "Turbo")."""

    type: ClassVar[str] = "inverter"
    title: ClassVar[str] = "Inverter"
    help: ClassVar[str] = (
        "The chip you play while standing on it is reversed: moves go backwards, L and R swap (U stays "
        "U). Driving over it mid-move changes nothing."
    )
    short: ClassVar[str] = "Inverter: a chip played here is reversed"

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        play.invert()


@dataclass(frozen=True)
class Doubler(Element):
    """A chip's movement from here is doubled, its extra squares too; turning is not (003 "Doubler": "Turbo,
    reverse, and crab legs are all doubled")."""

    type: ClassVar[str] = "doubler"
    title: ClassVar[str] = "Doubler"
    help: ClassVar[str] = (
        "The chip you play while standing on it moves you twice as far (a 2 goes 4). Turns, pushes and "
        "belts are not doubled."
    )
    short: ClassVar[str] = "Doubler: a chip played here moves twice as far"

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        if play.kind == "move":
            play.count *= 2
            play.extra *= 2


@dataclass(frozen=True)
class Vent(Element):
    """Moving onto and off a vent with one chip lifts the bot: it flies on, one square more for each vent
    crossed (003 "Vent")."""

    type: ClassVar[str] = "vent"
    title: ClassVar[str] = "Vent"
    help: ClassVar[str] = (
        "Burns the robot on it for 1 damage at the end of every phase. Drive onto and off a vent with one"
        " chip (a 2 or 3) and you fly: over walls, pits and more, one extra square for each vent crossed."
    )
    short: ClassVar[str] = "Vent: 1 damage at the end of a phase; crossing one with a chip flies"
    lifts: ClassVar[bool] = True

    def chip_step(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        if play.taken:  # it moved onto this vent with this chip and is moving off it
            play.airborne = True
            play.add_square()  # the part of the movement under way goes one square further


@dataclass(frozen=True)
class Magnet(Element):
    """Turns a bot arriving to face its way; a bot on it can't turn, moves only its way, and can't leave
    against it (003 "Magnet"). Flying bots pass over it."""

    type: ClassVar[str] = "magnet"
    title: ClassVar[str] = "Magnet"
    help: ClassVar[str] = (
        "A robot arriving on a magnet turns at once to face its way and goes on that way. On it you can't"
        " turn, and you can move only the magnet's way."
    )
    short: ClassVar[str] = "Magnet: robots on it face its way, can't turn, move only its way"
    dir: str

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        if play.kind == "turn" or (play.kind == "move" and play.sideways):
            play.blocked_by = "magnet"  # a sideways move (crab legs) off a magnet: no movement (003 "Magnet")

    def leave(self, turn: Turn, bot: Mover, heading: str, mode: str) -> tuple[str, str | None]:
        if heading == opposite(self.dir):
            return heading, "magnet"
        return self.dir, None  # pushed sideways off a magnet: it moves the magnet's way

    def arrive(self, turn: Turn, bot: Mover, heading: str) -> None:
        turn.face(bot, self.dir, "magnet")


@dataclass(frozen=True)
class Virtualizer(Element):
    type: ClassVar[str] = "virtualizer"
    title: ClassVar[str] = "Virtualizer"
    help: ClassVar[str] = "Makes the robots on it virtual (see Virtual robots below) until the end of the turn."
    short: ClassVar[str] = "Virtualizer: robots on it turn virtual"


@dataclass(frozen=True)
class Water(Element):
    """A chip's movement from water is cut to one square, forward or backward, with no extra squares (003
    "Water": "Turbo has no effect")."""

    type: ClassVar[str] = "water"
    title: ClassVar[str] = "Water"
    help: ClassVar[str] = "A chip played from water moves at most one square, whatever its number."
    short: ClassVar[str] = "Water: a chip played here moves at most one square"

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        if play.kind == "move":
            play.count = 1
            play.extra = 0


@dataclass(frozen=True)
class Oil(Element):
    """Movement that would stop on oil slides on until the bot leaves the oil or is stopped (003 "Oil")."""

    type: ClassVar[str] = "oil"
    title: ClassVar[str] = "Oil"
    help: ClassVar[str] = (
        "A robot whose move ends on oil slides on the same way until it leaves the oil or something stops"
        " it. Sliding robots push nobody."
    )
    short: ClassVar[str] = "Oil: a robot stopping on oil slides on"

    def settle(self, turn: Turn, bot: Mover, heading: str) -> None:
        if bot.kind == "bomb":
            return  # bombs "do not slide on oil" (003 "Bomb")
        liquids = turn.course.liquids
        while bot.at is not None and isinstance(liquids.get(bot.at), Oil):
            if not turn.advance(bot, heading, mode="slide"):
                return


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
    for bot in turn.in_order(actors=True):  # a bomb burned by a vent is destroyed (003 "Bomb")
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
    for bot in turn.in_order(actors=True):
        tile = course.tiles.get(bot.at)
        if isinstance(tile, Screen) or (isinstance(tile, DamagedTile) and bot.at in turn.board.broken):
            turn.destroy(bot, "screen")
    if course.of_type("damaged_tile"):
        now = {bot.at for bot in turn.in_order()}
        for tile in course.of_type("damaged_tile"):
            if tile.at in turn.occupied_at_start and tile.at not in now and tile.at not in turn.board.broken:
                turn.board.broken.add(tile.at)
                turn.emit("tile_broken", None, at=list(tile.at))
    for bot in turn.in_order(actors=True):
        tile = course.tiles.get(bot.at)
        if isinstance(tile, Trapdoor) and trapdoor_open(tile, next_phase):
            turn.destroy(bot, "trapdoor")
