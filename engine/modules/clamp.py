"""003 "Clamp": "Phase based. You cannot move or be moved, except by a belt. You WILL rotate normally if you
play a turn card and clamp on that phase."

Every try to move the bot in that phase but a belt's (its own chip, a push by a bot, a pusher or a
repeller, a slide on oil) is stopped at once (`clamped`; the bot's own move is `blocked` by "clamp"; a bot
pushing it is blocked as by a wall behind it). Turn chips turn; but a turn chip a rail makes a move-1 does
not "jump the track": "your rotate will be changed to a move-1 by the rail and the clamp will prevent your
movement", so the held move-1 is the whole chip.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import ChipPlay, Mover, Turn


@register_module
class Clamp(Module):
    name = "clamp"
    title = "Clamp"
    help = "In the phase you pick you can't move or be moved, except by a belt. Turn chips still turn you."
    short = "in one phase you can't move or be moved, except by a belt"
    base_price = 100
    activation = "phase"

    def transform_chip(self, turn: Turn, bot: Mover, play: ChipPlay) -> None:
        play.turn_if_stuck = False

    def leave(self, turn: Turn, bot: Mover, heading: str, mode: str) -> tuple[str, str | None]:
        if mode == "belt":
            return heading, None
        turn.emit("clamped", bot.id, at=list(bot.at), dir=heading)
        return heading, "clamp"
