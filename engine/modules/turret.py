"""003 "Turret": "You can aim your laser right, left, or back instead of, or in addition to, forward."

Turn based; the activation names `aim` (L, R or B: relative to the bot's heading when it fires) and
`front`. In the `bot_lasers` step of every phase (`fire` hook) the bot fires its forward laser first when
`front` is true (a plain laser shot), then the aimed one (`shot` with `"module": "turret"`). Both are
normal lasers: 1 damage to a bot, 1 point to a force field. docs/rules.md "Modules".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..elements.lasers import bot_shot
from ..geometry import rotate
from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Mover, Turn

AIM_TURNS = {"L": -1, "R": 1, "B": 2}


@register_module
class Turret(Module):
    name = "turret"
    title = "Turret"
    help = "Aim your laser left, right or back, instead of forward or as well as forward."
    short = "aim your laser left, right or back, with or without the front"
    base_price = 150
    activation = "turret"

    def fire(self, turn: Turn, bot: Mover) -> None:
        activation = turn.activations[bot.id]
        if activation.front:
            bot_shot(turn, bot, bot.dir)
            if bot.at is None:
                return  # it shot itself to death in a mirror
        with turn.caused_by(self.name):
            bot_shot(turn, bot, rotate(bot.dir, AIM_TURNS[activation.aim]))
