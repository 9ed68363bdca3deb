"""003 "Shocker (Module)": "When a bot with an active shocker contacts another bot the other bot takes 1 point
of damage. A shocker module can not do more than 1 point of damage to a single bot during a single phase.
Shocking takes place the moment two bots touch. If a bot is shocked to death it won't push or block."

The `contact` hook: `Turn.advance` calls it when a real bot pushes another real bot or is blocked by one
(for the mover's module and the other's), before the push; a bot shocked to death there is taken out of
the way by the core. Bots merely standing next to each other do not touch (docs/rules.md "Modules").
Which victims a shocker already hit this phase is kept in `turn.module_memo`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Mover, Turn


@register_module
class Shocker(Module):
    name = "shocker"
    title = "Shocker"
    help = "Any robot you touch (push, are pushed by, or bump into) takes 1 damage, at most once a phase."
    short = "robots you touch take 1 damage"
    base_price = 150
    activation = "turn"

    def contact(self, turn: Turn, bot: Mover, other: Mover) -> None:
        """`bot` (with the active shocker) touches `other`: 1 damage, once per phase for each victim."""
        shocked = turn.module_memo.setdefault("shocker", set())
        key = (turn.phase, bot.id, other.id)
        if key in shocked:
            return
        shocked.add(key)
        turn.emit("shocked", bot.id, target=other.id, **{"from": list(bot.at), "to": list(other.at)})
        turn.damage(other, 1, "bot", module="shocker")
