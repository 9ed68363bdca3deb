"""003 "Reflector": "Phase based - two consecutive phases. Reflects shots (including blaster and repeller) back
to hit the shooter. If the shooter has an active reflector, it will not reflect the shot again."

In its two phases, every shot that hits the bot (`hit` hook) is reflected (`reflected` event) and does the
bot nothing. A bot's shot comes back along its path and hits the shooter with the same effect: 1 damage for
a laser, 2 for a blaster, a push one square back (away from where it fired) for a repeller; the shooter's
own module is not asked (so its reflector does not reflect it again: 003, and 003 "Mirror": a bot shooting
itself in a mirror "will still take the damage even with an active reflector"). Those damage and push
events carry `"module": "reflector"`. A wall laser, blaster or repeller has no shooter bot: its shot is
reflected back to the wall and hits nothing. docs/rules.md "Modules".
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..elements.lasers import Strike, hit_bot
from ..geometry import opposite
from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Mover, Turn


@register_module
class Reflector(Module):
    name = "reflector"
    title = "Reflector"
    help = (
        "In two phases in a row, shots that hit you (blasters and repellers too) go back to hit the "
        "shooter."
    )
    short = "in two phases shots that hit you go back to the shooter"
    base_price = 150
    activation = "two_phases"

    def hit(self, turn: Turn, bot: Mover, strike: Strike) -> bool:
        shooter = strike.shooter
        back = shooter if shooter is not None and shooter.at is not None else None
        turn.emit("reflected", bot.id, at=list(bot.at), dir=opposite(strike.heading), source=strike.source,
                  shooter=back.id if back else None, to=list(back.at) if back else None)  # fmt: skip
        if back is not None:
            with turn.caused_by(self.name):
                hit_bot(turn, back, replace(strike, heading=opposite(strike.fired), by=bot.id), ask=False)
        return True
