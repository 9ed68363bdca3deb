"""003 "Virtualizer": "Phase based. Turns you virtual at the start of the phase where it is activated. Turns
you real at the end of the same phase, or any later phase of the turn, if at a location with no other real
bots."

The `modules` step of the chosen phase makes the bot virtual (event `virtual`, `cause: "module"`,
`module: "virtualizer"`); the `virtualizer_modules` step of that phase and of every later phase of the turn
turns it real (event `real` with `module`) once no other real bot shares its square. Still virtual after
phase 5, the usual end-of-turn rule takes over (003 "Virtuality"). docs/rules.md "Modules".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import runs_in
from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Turn


@register_module
class Virtualizer(Module):
    name = "virtualizer"
    title = "Virtualizer"
    help = (
        "Turns you virtual at the start of the phase you pick, and real again at the end of that phase or"
        " a later one, as soon as no other real robot shares your square."
    )
    short = "turn virtual from the start of one phase"
    base_price = 200
    activation = "phase"


def _waiting(turn: Turn) -> set[str]:
    """The bots this turn's virtualizer modules will turn real."""
    return turn.module_memo.setdefault(Virtualizer.name, set())


@runs_in("modules")
def virtualize(turn: Turn) -> None:
    if not turn.activations:
        return
    for bot_id in turn.order:
        activation = turn.activations.get(bot_id)
        bot = turn.bots[bot_id]
        if activation is None or activation.module != Virtualizer.name or turn.phase not in activation.phases:
            continue
        if bot.at is None:
            continue
        _waiting(turn).add(bot_id)
        if not bot.virtual:
            turn.make_virtual(bot, "module", module=Virtualizer.name)


@runs_in("virtualizer_modules")
def turn_real(turn: Turn) -> None:
    if not turn.activations:
        return
    waiting = _waiting(turn)
    for bot_id in turn.order:
        if bot_id not in waiting:
            continue
        bot = turn.bots[bot_id]
        if bot.at is None:
            waiting.discard(bot_id)
            continue
        if not bot.virtual:
            waiting.discard(bot_id)
            continue
        if any(other is not bot and other.at == bot.at and not other.virtual for other in turn.bots.values()):
            continue
        bot.virtual = False
        waiting.discard(bot_id)
        turn.emit("real", bot_id, at=list(bot.at), module=Virtualizer.name)
