"""003 "Turbo": "Phase based. Moves forward 1 after a move chip is executed. (One forward move, even after a
reverse chip) An unplayed move chip is required to activate this module."

The extra square is part of the same chip's movement (`ChipPlay.extra`): the square's elements change it as
they change the chip (an inverter makes it a backward square, a doubler two, water none: 003 "Inverter",
"Doubler", "Water"), it counts for priority, and a 1+turbo moving onto and off a vent flies (003 "Vent").
A turn chip gets nothing (docs/rules.md "Modules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import ChipPlay, Mover, Turn


@register_module
class Turbo(Module):
    name = "turbo"
    title = "Turbo"
    help = (
        "In the phase you pick a move chip moves you 1 more square forward. Needs a spare move chip, like"
        " Crab Legs."
    )
    short = "in one phase a move chip moves you 1 more square (needs a spare move chip)"
    base_price = 250
    activation = "phase"
    needs_spare = True  # an unplayed move chip (1 2 3 B) must be left in the hand

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        """A move chip (forward or backward) gets one forward square after its own movement."""
        if play.kind == "move":
            play.extra, play.extra_backward, play.extra_by = 1, False, self.name
