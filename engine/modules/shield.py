"""003 "Shield": "No damage is taken from incoming shots. You do not fire your weapon, whether it be at another
bot or at a force field."

Turn based. Every shot that would damage the bot (bot lasers and blaster modules, wall lasers and wall
blasters) is stopped by the shield (`hit` hook, a `shielded` event, no damage); a repeller's shot is not
damage, so it still pushes the bot. The bot fires nothing all turn (`fire` hook), so it neither hits bots
nor force fields. docs/rules.md "Modules".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..elements.lasers import Strike
    from ..turn import Mover, Turn


@register_module
class Shield(Module):
    name = "shield"
    title = "Shield"
    help = "No damage from shots this turn, but you don't fire either."
    short = "no damage from shots this turn; you don't fire"
    base_price = 200
    activation = "turn"

    def fire(self, turn: Turn, bot: Mover) -> None:
        return  # no weapon fire at all while shielded

    def hit(self, turn: Turn, bot: Mover, strike: Strike) -> bool:
        if strike.push:
            return False
        shooter = strike.shooter
        turn.emit("shielded", bot.id, at=list(bot.at), source=strike.source,
                  shooter=shooter.id if shooter else None, amount=strike.damage)  # fmt: skip
        return True
