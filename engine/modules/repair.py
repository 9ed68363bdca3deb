"""003 "Repair": "At the end of turn, 1 damage point is repaired."

A runner in the `repairs` step (phase 5, after the repair tiles and check points, before the reboot's
full repair): each bot on the course with an active Repair module gets 1 point repaired, event `repaired`
with `cause: "bot"` and `module: "repair"`. Radiation does not stop it: 003 "Radiation" stops repairs "by course elements" only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import runs_in
from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Turn


@register_module
class Repair(Module):
    name = "repair"
    title = "Repair"
    help = "Repairs 1 damage at the end of the turn."
    short = "repair 1 damage at the end of the turn"
    base_price = 150
    activation = "turn"


@runs_in("repairs")
def repair_module(turn: Turn) -> None:
    if not turn.activations:
        return
    for bot in turn.in_order():
        activation = turn.activations.get(bot.id)
        if activation is not None and activation.module == "repair":
            turn.repair(bot, 1, "bot", module="repair")
