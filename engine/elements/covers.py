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
    from ..turn import Turn


@dataclass(frozen=True)
class ForceField(Element):
    type: ClassVar[str] = "force_field"
    strength: int
    recharging: bool


@dataclass(frozen=True)
class Mirror(Element):
    """`shape`: "/" and "\\" are diagonal; "-" lies west-east, "|" north-south."""

    type: ClassVar[str] = "mirror"
    shape: str


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
