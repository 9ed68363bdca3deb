"""Writes static/demo/eight-bots.json: a synthetic but consistent 8-bot turn on a 12x12 course, for the
animation demo page and `make bench-frontend` (the longest main-thread task while it animates).

Synthetic on purpose: it does not depend on the engine (being rewritten) and exercises every heavy
animation path each phase: chip bubbles, moves with blocking, belt rides, turntables, robot and wall
laser shots with damage, check points, repairs and the priority line. Deterministic (seeded).

    .venv/bin/python tests/bench/eight_bot_turn.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "static" / "demo" / "eight-bots.json"
SIZE = 12
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
LEFT = {"N": "W", "W": "S", "S": "E", "E": "N"}
RIGHT = {v: k for k, v in LEFT.items()}
COLORS = ["#d62828", "#1d4ed8", "#15803d", "#ca8a04", "#7c3aed", "#db2777", "#0891b2", "#ea580c"]
NAMES = ["ada", "bo", "cy", "di", "ed", "flo", "gus", "hal"]


def course() -> dict:
    elements = [{"type": "start", "at": [1 + i, 11], "number": i + 1, "dir": "N"} for i in range(8)]
    elements += [
        {"type": "checkpoint", "at": [9, 2], "number": 1},
        {"type": "checkpoint", "at": [2, 3], "number": 2},
        {"type": "checkpoint", "at": [6, 6], "number": 3},
        {"type": "pit", "at": [5, 3]},
        {"type": "pit", "at": [10, 8]},
        {"type": "repair", "at": [0, 0], "amount": 1},
        {"type": "repair", "at": [11, 11], "amount": 2},
        {"type": "turntable", "at": [4, 7], "rotation": "R"},
        {"type": "turntable", "at": [8, 4], "rotation": "L"},
        {"type": "crusher", "at": [3, 1], "phases": [2, 4]},
        {"type": "pusher", "at": [0, 5], "side": "W", "phases": [1, 3, 5]},
        {"type": "laser", "at": [11, 5], "side": "E", "beams": 2},
        {"type": "laser", "at": [6, 0], "side": "N", "beams": 1},
        {"type": "wall", "at": [6, 4], "side": "S"},
        {"type": "wall", "at": [2, 9], "side": "E"},
    ]
    elements += [{"type": "belt", "at": [x, 9], "dir": "E", "speed": 2} for x in range(3, 9)]
    elements += [{"type": "belt", "at": [9, y], "dir": "N", "speed": 3} for y in range(5, 10)]
    elements[-5]["curves_from"] = ["W"]
    return {"format": "roboracer-course/1", "name": "Eight Bot Yard", "width": SIZE, "height": SIZE,
            "mode": "race", "players": [1, 8], "elements": elements}


def build(seed: int = 8) -> dict:
    rng = random.Random(seed)
    data = course()
    belts = {tuple(e["at"]): e for e in data["elements"] if e["type"] == "belt"}
    turntables = {tuple(e["at"]): e["rotation"] for e in data["elements"] if e["type"] == "turntable"}
    checkpoints = {tuple(e["at"]): e["number"] for e in data["elements"] if e["type"] == "checkpoint"}
    ids = [str(i + 1) for i in range(8)]
    spots = rng.sample([(x, y) for x in range(SIZE) for y in range(2, SIZE) if (x, y) not in checkpoints], 8)
    bots = {i: {"id": i, "at": list(spots[n]), "dir": rng.choice("NESW"), "damage": rng.randint(0, 3), "lives": 3,
                "next_checkpoint": 1, "virtual": False} for n, i in enumerate(ids)}
    before = json.loads(json.dumps(list(bots.values())))
    priority = ids[:]
    rng.shuffle(priority)
    programs = {i: [rng.choice(["1", "1", "2", "3", "B", "L", "R", "U"]) for _ in range(5)] for i in ids}
    events: list[dict] = []

    def add(phase, step, type_, bot, **fields):
        events.append({"phase": phase, "step": step, "type": type_, "bot": bot, **fields})

    def occupied(square, me=None):
        return any(tuple(b["at"]) == square for i, b in bots.items() if i != me)

    def inside(x, y):
        return 0 <= x < SIZE and 0 <= y < SIZE

    for phase in range(1, 6):
        for i in priority:
            bot, chip = bots[i], programs[i][phase - 1]
            add(phase, "chips", "chip", i, chip=chip)
            if chip in "LRU":
                new = {"L": LEFT, "R": RIGHT}.get(chip, {d: LEFT[LEFT[d]] for d in LEFT})[bot["dir"]]
                add(phase, "chips", "rotated", i, **{"from": bot["dir"], "to": new}, cause="chip")
                bot["dir"] = new
                continue
            heading = bot["dir"] if chip != "B" else LEFT[LEFT[bot["dir"]]]
            for _ in range(1 if chip == "B" else int(chip)):
                dx, dy = STEP[heading]
                x, y = bot["at"][0] + dx, bot["at"][1] + dy
                if not inside(x, y) or occupied((x, y), i):
                    add(phase, "chips", "blocked", i, at=bot["at"], dir=heading, by="bot" if inside(x, y) else "wall")
                    break
                add(phase, "chips", "moved", i, **{"from": bot["at"], "to": [x, y]})
                bot["at"] = [x, y]
        for sub in (4, 5):
            for i in priority:
                belt = belts.get(tuple(bots[i]["at"]))
                if belt is None or (sub == 4 and belt["speed"] < 2):
                    continue
                dx, dy = STEP[belt["dir"]]
                x, y = bots[i]["at"][0] + dx, bots[i]["at"][1] + dy
                if inside(x, y) and not occupied((x, y), i):
                    add(phase, "belts", "carried", i, **{"from": bots[i]["at"], "to": [x, y]}, sub=sub)
                    bots[i]["at"] = [x, y]
        for i in priority:
            rotation = turntables.get(tuple(bots[i]["at"]))
            if rotation:
                new = (LEFT if rotation == "L" else RIGHT)[bots[i]["dir"]]
                add(phase, "turntables", "rotated", i, **{"from": bots[i]["dir"], "to": new}, cause="turntable")
                bots[i]["dir"] = new
        for i in priority:  # every robot fires forward: to the first robot or the edge
            dx, dy = STEP[bots[i]["dir"]]
            x, y = bots[i]["at"][0] + dx, bots[i]["at"][1] + dy
            if not inside(x, y):
                continue
            start, target = [x, y], None
            while True:
                hit = next((j for j, b in bots.items() if j != i and b["at"] == [x, y]), None)
                if hit or not inside(x + dx, y + dy):
                    target = hit
                    break
                x, y = x + dx, y + dy
            add(phase, "bot_lasers", "shot", i, source="bot", **{"from": start, "to": [x, y]},
                dir=bots[i]["dir"], beams=1, target=target)
            if target:
                bots[target]["damage"] = min(9, bots[target]["damage"] + 1)
                add(phase, "bot_lasers", "damaged", target, amount=1, damage=bots[target]["damage"], cause="bot laser")
        for i in priority:
            number = checkpoints.get(tuple(bots[i]["at"]))
            if number == bots[i]["next_checkpoint"]:
                bots[i]["next_checkpoint"] += 1
                add(phase, "checkpoints", "checkpoint", i, number=number, at=bots[i]["at"])
    for i in priority:
        if bots[i]["damage"] and tuple(bots[i]["at"]) in checkpoints:
            bots[i]["damage"] -= 1
            add(5, "repairs", "repaired", i, amount=1, damage=bots[i]["damage"], cause="checkpoint")
    add(5, "priority", "priority", None, order=priority[::-1])
    seats = [{"number": n + 1, "user": NAMES[n], "bot": i, "color": COLORS[n], "ready": False} for n, i in enumerate(ids)]
    after = list(bots.values())
    game = {"id": 0, "status": "programming", "turn": 2, "version": 0, "course": data, "creator": NAMES[0],
            "max_seats": 8, "lives": 3, "seats": seats, "bots": after, "priority": priority[::-1], "winner": None,
            "me": None, "last_turn": None, "can_join": False, "can_start": False}
    turn = {"turn": 1, "events": events, "programs": programs,
            "before": {"bots": before, "priority": priority}, "after": {"bots": after, "priority": priority[::-1]}}
    return {"about": "Synthetic 8-bot turn (tests/bench/eight_bot_turn.py) for the animation benchmark.",
            "game": game, "turns": [turn]}


if __name__ == "__main__":
    doc = build()
    OUT.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(doc['turns'][0]['events'])} events")
