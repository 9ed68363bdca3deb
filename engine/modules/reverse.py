"""003 "Reverse": "Phase based. The chip in the selected phase is reversed. Left and Right turns are swapped.
Move chips go in the opposite direction."

A U-turn is unchanged. On an inverter the chip is reversed twice, so it plays as printed (003 "Inverter":
"The two negate each other").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import ChipPlay, Mover, Turn


@register_module
class Reverse(Module):
    name = "reverse"
    title = "Reverse"
    help = "In the phase you pick your chip is reversed: left and right swap, moves go backwards."
    short = "in one phase your chip is reversed"
    base_price = 100
    activation = "phase"

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        play.invert()
