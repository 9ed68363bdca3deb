"""Writes static/demo/eight-bots.json: a real 8-bot turn from the engine on the bundled Cogwheel
Crossing (16x16, belts, pushers, turntables, lasers, crushers), for the animation demo page and
`make bench-frontend` (the longest main-thread task while it animates).

Eight bots play seeded random legal programs; of the first turns in which all eight are on the course,
the one with the most events is kept (the heaviest to animate). Deterministic; rerun after engine changes:

    .venv/bin/python tests/bench/eight_bot_turn.py
"""

from __future__ import annotations

import json
from pathlib import Path

import engine

OUT = Path(__file__).resolve().parents[2] / "static" / "demo" / "eight-bots.json"
SLUG = "cogwheel-crossing"
SEED = 20261122
COLORS = ["#d62828", "#1d4ed8", "#15803d", "#ca8a04", "#7c3aed", "#db2777", "#0891b2", "#ea580c"]
NAMES = ["ada", "bo", "cy", "di", "ed", "flo", "gus", "hal"]
PUBLIC = ("id", "at", "dir", "damage", "lives", "next_checkpoint", "virtual", "rebooting")


def public(state: engine.State) -> dict:
    data = engine.state_to_dict(state)
    return {"bots": [{key: bot.get(key) for key in PUBLIC} for bot in data["bots"]],
            "priority": data["priority"], "radiation": data.get("radiation", [])}


def build(turns: int = 8) -> dict:
    course = engine.bundled_course(SLUG)
    ids = [str(n) for n in range(1, 9)]
    state = engine.new_game(course, ids)
    best = None
    for turn in range(turns):
        if state.finished:
            break
        hands = engine.deal(state, engine.derive_seed(SEED, turn, "deal"))
        programs = {bot: engine.random_program(state.bot(bot), hand, engine.derive_seed(SEED, turn, bot))
                    for bot, hand in hands.items()}
        after, events = engine.resolve_turn(state, programs, engine.derive_seed(SEED, turn, "resolve"))
        all_on = all(bot.at is not None for bot in state.bots)
        if all_on and (best is None or len(events) > len(best[3])):
            best = (state, programs, after, events)
        state = after
    before, programs, after, events = best
    seats = [{"number": n + 1, "user": NAMES[n], "bot": bot, "color": COLORS[n], "ready": False}
             for n, bot in enumerate(ids)]
    shown_after = public(after)
    game = {"id": 0, "status": "programming", "turn": 2, "version": 0, "course": engine.bundled_course_data(SLUG),
            "creator": NAMES[0], "max_seats": 8, "lives": 3, "seats": seats, "bots": shown_after["bots"],
            "priority": shown_after["priority"], "radiation": shown_after["radiation"], "winner": None,
            "me": None, "last_turn": None, "can_join": False, "can_start": False}
    record = {"turn": 1, "events": events, "programs": {k: list(v) for k, v in programs.items()}, "reboots": [],
              "before": public(before), "after": shown_after}
    return {"about": f"A real 8-bot turn from the engine on {SLUG} (tests/bench/eight_bot_turn.py), "
                     "for the animation benchmark.", "game": game, "turns": [record]}


if __name__ == "__main__":
    doc = build()
    OUT.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    events = doc["turns"][0]["events"]
    kinds = sorted({e["type"] for e in events})
    print(f"{OUT}: {len(events)} events ({', '.join(kinds)})")
