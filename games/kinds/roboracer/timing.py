"""How long the game screen animates a turn at 1x, from the turn's events and one timing table
(`timing.json`, next to this file): the browser waits each event's time from the same table
(frontend/src/animate.ts reads it from the page), and the server starts the next turn's move clocks after the
total (docs/site.md "When the move clock starts").

A turn plays group by group (the events of one phase, step and belt sub-phase). In the sequential steps
(chips, cards, spaces) the robots act one after another; in any other step every robot's own events play at
once, so a group lasts as long as its longest robot's chain (an event of no robot is a chain of its own)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

TABLE_FILE = Path(__file__).with_name("timing.json")


@cache
def table() -> dict[str, Any]:
    """The timing table as the page embeds it for the browser."""
    return json.loads(TABLE_FILE.read_text())


def _group_key(event: dict) -> tuple:
    sub = event.get("sub")
    return (event.get("phase"), event.get("step"), sub if type(sub) in (int, float) else "")


def animation_ms(events: list[dict]) -> int:
    """The turn's animation at 1x, in milliseconds."""
    timing = table()
    per_event: dict[str, int] = timing["events_ms"]
    sequential = set(timing["sequential_steps"])
    total, group, key = 0, [], None
    for event in [*events, None]:
        this_key = None if event is None else _group_key(event)
        if group and (event is None or this_key != key):
            if key[1] in sequential:
                total += sum(per_event.get(e.get("type"), 0) for e in group)
            else:
                chains: dict[Any, int] = {}
                for n, e in enumerate(group):
                    bot = e.get("bot")
                    chain = bot if isinstance(bot, str) else ("event", n)
                    chains[chain] = chains.get(chain, 0) + per_event.get(e.get("type"), 0)
                total += max(chains.values())
            group = []
        if event is not None:
            group.append(event)
            key = this_key
    return total
