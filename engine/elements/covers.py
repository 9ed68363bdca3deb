"""Things standing on a square and blocking it (003 "Elements"): force fields and mirrors.

Force field: blocks bots (and shots) like a wall until cleared; every shot of a real bot's laser that
reaches it takes one of its `strength` points. A recharging force field goes down after one shot and comes
back at the end of the next phase (the `force_fields` step). Mirror: reflects shots (a diagonal one by 90
degrees, a flat one that is hit on its face by 180; shots along a flat mirror pass); virtual bots are
blocked by it; a real bot moving or pushed onto it breaks it and has Bad Luck next turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..steps import runs_in
from . import Element, choice, flag, optional, register, whole

if TYPE_CHECKING:
    from ..geometry import Square
    from ..turn import Mover, Turn


@dataclass(frozen=True)
class ForceField(Element):
    type: ClassVar[str] = "force_field"
    title: ClassVar[str] = "Force field"
    help: ClassVar[str] = (
        "Blocks robots and shots until real robots' lasers have shot it down (the number is the shots "
        "needed). A recharging one (↻) is down for one phase per shot."
    )
    short: ClassVar[str] = "Force field: blocks until shot down (number: shots needed; ↻ recharges)"
    strength: int
    recharging: bool

    def up(self, turn: Turn) -> bool:
        if self.recharging:
            return self.at not in turn.fields_down
        return turn.board.field_hits.get(self.at, 0) < self.strength

    def enter(self, turn: Turn, bot: Mover, heading: str, mode: str) -> str | None:
        return "force_field" if self.up(turn) else None

    def land(self, turn: Turn, bot: Mover) -> bool:
        if self.up(turn):
            turn.destroy(bot, "force_field")  # landing in a force field (003 "Vent")
            return True
        return False

    def blocks_shot(self, turn: Turn, at: Square) -> bool:
        return self.up(turn)

    def shot_hit(self, turn: Turn, at: Square) -> None:
        """A real bot's shot reached the intact force field (003 "Force Field")."""
        if self.recharging:
            turn.fields_down[at] = turn.phase
            turn.emit("field_down", None, at=list(at))
            return
        hits = turn.board.field_hits.get(at, 0) + 1
        turn.board.field_hits[at] = hits
        turn.emit("field_damaged", None, at=list(at), hits=hits, strength=self.strength)


def field_up(turn: Turn, at: Square) -> bool:
    """An intact force field stands on the square."""
    cover = turn.course.covers.get(at)
    return isinstance(cover, ForceField) and cover.up(turn)


@dataclass(frozen=True)
class Mirror(Element):
    """`shape`: "/" and "\\" are diagonal; "-" lies west-east, "|" north-south."""

    type: ClassVar[str] = "mirror"
    title: ClassVar[str] = "Mirror"
    help: ClassVar[str] = (
        "Diagonal mirrors turn shots 90 degrees; straight ones send shots back (you can shoot yourself). "
        "A real robot driving onto a mirror breaks it and has Bad Luck: its next hand has little "
        "movement. Virtual robots can't pass it."
    )
    short: ClassVar[str] = "Mirror: reflects shots; a real robot breaks it and gets Bad Luck"
    shape: str

    def intact(self, turn: Turn) -> bool:
        return self.at not in turn.board.mirrors_broken

    def enter(self, turn: Turn, bot: Mover, heading: str, mode: str) -> str | None:
        """Virtual bots are blocked by a mirror; belts and sliding don't break it, so they are too."""
        if self.intact(turn) and (bot.virtual or mode in ("belt", "slide")):
            return "mirror"
        return None

    def arrive(self, turn: Turn, bot: Mover, heading: str) -> None:
        if not bot.virtual and self.intact(turn):
            self.shatter(turn, bot)

    def land(self, turn: Turn, bot: Mover) -> bool:
        if self.intact(turn):
            self.shatter(turn, bot)  # even when virtual (003 "Vent")
        return False

    def turns_shot(self, turn: Turn, at: Square, heading: str) -> str | None:
        return REFLECT.get((self.shape, heading)) if self.intact(turn) else None

    def blasted(self, turn: Turn, at: Square) -> None:
        """003 "Mirror": "An exploding bomb will destroy all mirrors in the bomb's explosion"."""
        if self.intact(turn):
            turn.board.mirrors_broken.add(at)
            turn.emit("mirror_broken", None, at=list(at), cause="bomb")

    def shatter(self, turn: Turn, bot: Mover) -> None:
        """Broken by a real bot moving onto or through it: the bot has Bad Luck next turn."""
        turn.board.mirrors_broken.add(self.at)
        turn.emit("mirror_broken", bot.id, at=list(self.at))
        bot.bad_luck = True


register(
    ForceField,
    layer="cover",
    fields={
        "strength": optional(whole("strength", 1, 9), 1),
        "recharging": optional(flag("recharging"), False),
    },
)
register(Mirror, layer="cover", fields={"shape": choice("shape", ("/", "\\", "-", "|"))})

# Shot reflections: (shape, heading) -> new heading; a missing key means the shot passes.
REFLECT = {
    ("/", "N"): "E", ("/", "E"): "N", ("/", "S"): "W", ("/", "W"): "S",
    ("\\", "N"): "W", ("\\", "W"): "N", ("\\", "S"): "E", ("\\", "E"): "S",
    ("-", "N"): "S", ("-", "S"): "N",
    ("|", "E"): "W", ("|", "W"): "E",
}  # fmt: skip


@runs_in("force_fields")
def recharge(turn: Turn) -> None:
    """Recharging force fields discharged before this phase come back up (003 "Phase Steps")."""
    for at, phase in sorted(turn.fields_down.items()):
        if phase < turn.phase:
            del turn.fields_down[at]
            turn.emit("field_up", None, at=list(at))
