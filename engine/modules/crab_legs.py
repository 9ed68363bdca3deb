"""003 "Crab Legs": "Phase based. An unplayed move chip is required to activate this module. Changes Right or
Left chips into sideways move-1's."

R moves the bot one square to its right without turning, L to its left (`ChipPlay.sideways`). On a rail
the bot faces along, the rail blocks it; an inverter swaps the side; a magnet stops it; a doubler makes it
two squares (003 "Crab Legs", "Magnet", "Doubler"). U-turns and move chips are unchanged (docs/rules.md
"Modules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import ChipPlay, Mover, Turn


@register_module
class CrabLegs(Module):
    name = "crab_legs"
    title = "Crab Legs"
    help = (
        "In the phase you pick, a Turn left or Turn right chip moves you 1 square sideways instead. Needs"
        " a spare move chip: a 1, 2, 3 or Back up from your hand that your program does not play."
    )
    short = "in one phase a Left or Right chip moves you sideways 1 (needs a spare move chip)"
    base_price = 150
    activation = "phase"
    needs_spare = True  # an unplayed move chip (1 2 3 B) must be left in the hand

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        """L and R become a sideways move-1 to that side."""
        if play.kind == "turn" and play.quarter_turns in (-1, 1):
            play.kind, play.count, play.sideways = "move", 1, play.quarter_turns
            play.quarter_turns, play.moved_by = 0, self.name
