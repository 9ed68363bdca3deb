"""003 "Repeller": "Phase based - two consecutive phases. Instead of firing your normal laser for the turn, you
fire your repeller during the 2 selected phases. Bots hit by the repeller are pushed 1 space. The repeller will
not fire at force fields, but will be reflected by mirrors."

FAQ: the normal laser is disabled for the full turn; a bot hit takes no damage; a bot on a magnet not
pointing away from the shooter is not pushed back. The `fire` hook is asked in every phase of the turn: in
the two chosen phases the bot fires its repeller forward (mirrors turn it; virtual bots don't stop it); the
first real bot hit is pushed one square along the shot (a real push: it pushes the real bots ahead, walls
and magnets block it, pits kill), with no damage. A beam that would end at an intact force field is not
fired at all (no event, the field is untouched). In the other three phases the bot fires nothing.
docs/rules.md "Modules".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..elements.lasers import bot_shot
from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Mover, Turn


@register_module
class Repeller(Module):
    name = "repeller"
    title = "Repeller"
    help = (
        "In two phases in a row your laser pushes the robot it hits 1 square, without damage. Your normal"
        " laser is off for the whole turn."
    )
    short = "in two phases your laser pushes the robot it hits 1 square instead"
    base_price = 150
    activation = "two_phases"

    def fire(self, turn: Turn, bot: Mover) -> None:
        if turn.phase in turn.activations[bot.id].phases:
            with turn.caused_by(self.name):
                bot_shot(turn, bot, bot.dir, push=True)
