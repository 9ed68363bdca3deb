"""Turntables (003 "Turntable"): each phase a bot on one is rotated 90 degrees its way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..steps import runs_in
from . import Element, choice, register

if TYPE_CHECKING:
    from ..turn import Turn


@dataclass(frozen=True)
class Turntable(Element):
    type: ClassVar[str] = "turntable"
    title: ClassVar[str] = "Turntable"
    help: ClassVar[str] = "Every phase it turns the robot on it a quarter turn, left (L) or right (R)."
    short: ClassVar[str] = "Turntable: turns a robot left (L) or right (R) each phase"
    no_marker: ClassVar[bool] = True
    rotation: str

    @property
    def quarter_turns(self) -> int:
        return 1 if self.rotation == "R" else -1


register(Turntable, layer="tile", fields={"rotation": choice("rotation", ("L", "R"))})


@runs_in("turntables")
def run_turntables(turn: Turn) -> None:
    for bot in turn.in_order():
        tile = turn.course.tiles.get(bot.at)
        if isinstance(tile, Turntable):
            turn.rotate(bot, 1 if tile.rotation == "R" else -1, "turntable")
