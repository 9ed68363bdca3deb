"""003 "Prioritizer": "You can choose to act either before or after bots without an active prioritizer".

"All bots with an active prioritizer, selected for 'First', move in order of their original priority. All
bots with no active prioritizer move. All bots with an active prioritizer, selected for 'Last', move in
order of their original priority." The `priority` hook ranks the bot; `Turn.prioritize` reorders the turn
once, after the actions, for every step of every phase. The next turn's priority is computed from this
turn's original order (docs/rules.md "Modules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Mover, Turn


@register_module
class Prioritizer(Module):
    name = "prioritizer"
    title = "Prioritizer"
    help = (
        "This turn you act before (first) or after (last) every robot without an active prioritizer, in "
        "every step of every phase."
    )
    short = "act first or last in every step this turn"
    base_price = 100
    activation = "prioritizer"

    def priority(self, turn: Turn, bot: Mover) -> int:
        return -1 if turn.activations[bot.id].order == "first" else 1
