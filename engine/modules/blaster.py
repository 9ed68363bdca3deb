"""003 "Blaster": "All of your normal laser shots are replaced with larger blaster shots for one turn. Shots
fired do 2 points of damage to bots (but still only 1 point to force fields). You are pushed backward 1
space each time you fire your blaster."

Turn based. In the `bot_lasers` step of every phase the bot fires a blaster shot instead of its laser
(`fire` hook): 2 damage to the bot it hits, 1 point to a force field. When the shot hit a bot or a force
field (003 "Phase Steps": bots fire "if aimed at a target"), the recoil follows the hit: a `pushed_back`
event, then a real push one square backward (walls block it, a pit or the edge kills, a real bot behind is
pushed). A shot that reaches no target is drawn (`shot`, `target: null`) but gives no recoil.
docs/rules.md "Modules".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..elements.lasers import BLAST_DAMAGE, bot_shot
from ..geometry import opposite
from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Mover, Turn


@register_module
class Blaster(Module):
    name = "blaster"
    title = "Blaster"
    help = (
        "For the whole turn your laser shots do 2 damage (still 1 to a force field), and every shot that "
        "hits pushes you 1 square back."
    )
    short = "shots do 2 damage and push you back 1, for the turn"
    base_price = 200
    activation = "turn"

    def fire(self, turn: Turn, bot: Mover) -> None:
        with turn.caused_by(self.name):
            shot = bot_shot(turn, bot, bot.dir, damage=BLAST_DAMAGE)
            if shot is None or bot.at is None or (not shot.hit and shot.field is None):
                return
            back = opposite(bot.dir)
            turn.emit("pushed_back", bot.id, at=list(bot.at), dir=back)
            turn.advance(bot, back, by=bot.id, mode="push")
