"""Strategies: a function from my snapshot (`me` has my hand and frozen registers) to five chips.

`random`: a random legal program, with the standard library only. `lookahead` (roboracer_bot.lookahead) plays
every program the hand allows with the rules engine and keeps the best; it needs the engine installed."""

from __future__ import annotations

import importlib
import random as _random

PROGRAM_LENGTH = 5
IDLE = "0"


def my_bot(game: dict) -> dict | None:
    bot_id = (game.get("me") or {}).get("bot")
    return next((bot for bot in game.get("bots") or [] if bot.get("id") == bot_id), None)


def random_program(game: dict, rng: _random.Random | None = None) -> list[str]:
    """Five chips from my hand in a random order, the frozen registers keeping their chips; a rebooting robot
    plays five "0" (docs/rules.md)."""
    rng = rng or _random.Random()
    me = game["me"]
    if (my_bot(game) or {}).get("rebooting"):
        return [IDLE] * PROGRAM_LENGTH
    frozen = {entry["register"]: entry["chip"] for entry in me.get("frozen") or []}
    pool = list(me.get("hand") or [])
    rng.shuffle(pool)
    return [frozen[index] if index in frozen else (pool.pop() if pool else IDLE) for index in range(PROGRAM_LENGTH)]


STRATEGIES = {"random": "roboracer_bot.strategies:random_program", "lookahead": "roboracer_bot.lookahead:best_program"}


def strategy(name: str):
    """The strategy function named `name` (the lookahead's module is imported only when asked for: it needs the
    engine)."""
    module, _, function = STRATEGIES[name].partition(":")
    return getattr(importlib.import_module(module), function)
