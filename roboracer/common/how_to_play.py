"""The how-to-play page's course elements: for every element type the engine knows (engine.elements), its
name and what it does in a player's words (the element's own `title` and `help`, read from the engine's
catalog: roboracer/common/catalog.py), and a small example board drawn in
the browser by the real board renderer (frontend/src/howto.ts): a course fragment in the course format
(docs/formats.md), the robots on it, and where the first one ends up (`path`, squares in order; `end`, its
final heading).

Each example is a legal course fragment: tests/games/test_how_to_play.py checks it with the engine's own
course parser, and checks that every registered element type has its entry here.
"""

from __future__ import annotations

from engine.modules.economy import after_purchase
from roboracer.common import catalog

B1, B2 = {"seat": 1}, {"seat": 2}


def _ex(width: int, height: int, elements: list[dict], bots: list[dict] | None = None,
        path: list[list[int]] | None = None, end: str | None = None) -> dict:
    return {"width": width, "height": height, "elements": elements, "bots": bots or [], "path": path or [],
            "end": end}


def _bot(x: int, y: int, heading: str, seat: int = 1, **extra) -> dict:
    return {"at": [x, y], "dir": heading, "seat": seat, **extra}


# Each element's example board, in the page's order (its name and words are the element's own: engine/elements).
EXAMPLES: dict[str, dict] = {
    "floor": _ex(3, 3, [{"type": "floor", "at": [1, 1]}], [_bot(0, 1, "E")], [[0, 1], [2, 1]]),
    "wall": _ex(3, 3, [{"type": "wall", "at": [1, 1], "side": "E"}], [_bot(0, 1, "E")], [[0, 1], [1, 1]]),
    "pit": _ex(3, 3, [{"type": "pit", "at": [1, 1]}], [_bot(0, 1, "E")], [[0, 1], [1, 1]]),
    "start": _ex(3, 3, [{"type": "start", "at": [1, 1], "number": 1, "dir": "N"}], []),
    "checkpoint": _ex(3, 3, [{"type": "checkpoint", "at": [2, 1], "number": 1}], [_bot(0, 1, "E")], [[0, 1], [2, 1]]),
    "repair": _ex(3, 3, [{"type": "repair", "at": [1, 1], "amount": 2}], [_bot(0, 1, "E", damage=3)], [[0, 1], [1, 1]]),
    "belt": _ex(3, 3, [{"type": "belt", "at": [0, 1], "dir": "E", "speed": 2, "curves_from": []},
                {"type": "belt", "at": [1, 1], "dir": "E", "speed": 2, "curves_from": []},
                {"type": "belt", "at": [2, 1], "dir": "S", "speed": 2, "curves_from": ["W"]}],
         [_bot(0, 1, "N")], [[0, 1], [1, 1], [2, 1]], end="E"),
    "pusher": _ex(3, 3, [{"type": "pusher", "at": [0, 1], "side": "W", "phases": [1, 3, 5]}], [_bot(0, 1, "N")],
         [[0, 1], [1, 1]]),
    "turntable": _ex(3, 3, [{"type": "turntable", "at": [1, 1], "rotation": "R"}], [_bot(1, 1, "N")], [[1, 1]], end="E"),
    "crusher": _ex(3, 3, [{"type": "crusher", "at": [1, 1], "phases": [2, 4]}], [_bot(0, 1, "E")], [[0, 1], [1, 1]]),
    "laser": _ex(3, 3, [{"type": "laser", "at": [0, 1], "side": "W", "beams": 2}], [_bot(2, 1, "N")]),
    "blaster": _ex(3, 3, [{"type": "blaster", "at": [0, 1], "side": "W", "beams": 1}], [_bot(2, 1, "N")]),
    "repeller": _ex(3, 3, [{"type": "repeller", "at": [0, 1], "side": "W"}], [_bot(1, 1, "N")], [[1, 1], [2, 1]]),
    "screen": _ex(3, 3, [{"type": "screen", "at": [1, 1]}], [_bot(0, 1, "E")], [[0, 1], [2, 1]]),
    "damaged_tile": _ex(3, 3, [{"type": "damaged_tile", "at": [1, 1]}], [_bot(1, 1, "E")], [[1, 1], [2, 1]]),
    "receptacle": _ex(3, 3, [{"type": "receptacle", "at": [1, 1]}, {"type": "receptacle", "at": [1, 2], "covered": True}],
         [_bot(0, 1, "E")], [[0, 1], [1, 1]]),
    "rail": _ex(3, 3, [{"type": "rail", "at": [0, 1], "sides": ["W", "E"]},
                {"type": "rail", "at": [1, 1], "sides": ["W", "S"]},
                {"type": "rail", "at": [1, 2], "sides": ["N", "S"], "over_pit": True}],
         [_bot(0, 1, "E")], [[0, 1], [1, 1]], end="S"),
    "trapdoor": _ex(3, 3, [{"type": "trapdoor", "at": [1, 1], "phases": [1, 3, 5]}], [_bot(0, 1, "E")], [[0, 1], [2, 1]]),
    "inverter": _ex(3, 3, [{"type": "inverter", "at": [1, 1]}], [_bot(1, 1, "E")], [[1, 1], [0, 1]]),
    "doubler": _ex(4, 3, [{"type": "doubler", "at": [0, 1]}], [_bot(0, 1, "E")], [[0, 1], [2, 1]]),
    "vent": _ex(4, 3, [{"type": "vent", "at": [1, 1]}, {"type": "pit", "at": [2, 1]}], [_bot(0, 1, "E")],
         [[0, 1], [3, 1]]),
    "magnet": _ex(3, 3, [{"type": "magnet", "at": [1, 1], "dir": "S"}], [_bot(0, 1, "E")], [[0, 1], [1, 1], [1, 2]],
         end="S"),
    "virtualizer": _ex(3, 3, [{"type": "virtualizer", "at": [1, 1]}], [_bot(1, 1, "N", virtual=True)]),
    "water": _ex(3, 3, [{"type": "water", "at": [0, 1]}], [_bot(0, 1, "E")], [[0, 1], [1, 1]]),
    "oil": _ex(4, 3, [{"type": "oil", "at": [1, 1]}, {"type": "oil", "at": [2, 1]}], [_bot(0, 1, "E")],
         [[0, 1], [3, 1]]),
    "teleporter": _ex(3, 3, [{"type": "teleporter", "at": [0, 0], "colour": "purple"},
                {"type": "teleporter", "at": [2, 2], "colour": "purple"}], [_bot(0, 1, "N")],
         [[0, 1], [0, 0], [2, 2]]),
    "force_field": _ex(3, 3, [{"type": "force_field", "at": [2, 1], "strength": 2}], [_bot(0, 1, "E")]),
    "mirror": _ex(3, 3, [{"type": "mirror", "at": [2, 1], "shape": "/"}], [_bot(0, 1, "E")]),
    "portal": _ex(4, 3, [{"type": "portal", "at": [0, 1], "side": "E", "colour": "blue"},
                {"type": "portal", "at": [3, 1], "side": "W", "colour": "blue"}], [_bot(0, 1, "E")],
         [[0, 1], [3, 1]]),
    "one_way_wall": _ex(3, 3, [{"type": "one_way_wall", "at": [1, 1], "side": "E", "dir": "E"}], [_bot(0, 1, "E")],
         [[0, 1], [2, 1]]),
    "sliding_wall": _ex(3, 3, [{"type": "sliding_wall", "at": [1, 1], "side": "E", "open": [2, 4]}], [_bot(0, 1, "E")],
         [[0, 1], [1, 1]]),
    "curtain": _ex(3, 3, [{"type": "curtain", "at": [1, 1], "side": "E"}], [_bot(0, 1, "E")], [[0, 1], [2, 1]]),
    "window": _ex(3, 3, [{"type": "window", "at": [1, 1], "side": "E"}], [_bot(0, 1, "E")], [[0, 1], [1, 1]]),
    "shocker": _ex(3, 3, [{"type": "shocker", "at": [1, 1], "side": "E"}], [_bot(0, 1, "E")], [[0, 1], [1, 1]]),
}


# Plurals of the element names that are not the name plus "s" (the course gallery counts elements with them).
PLURALS: dict[str, str] = {"rail": "rail pieces", "water": "water squares", "oil": "oil squares"}
# (type, name, explanation, example) in the page's order: the name and explanation are the element's own.
ELEMENTS: list[tuple[str, str, str, dict]] = [
    (kind, catalog.element(kind)["name"], catalog.element(kind)["help"], example) for kind, example in EXAMPLES.items()
]


def element_label(kind: str, count: int) -> str:
    """A player's name for `count` elements of one type: "1 mirror", "26 rail pieces", "2 damaged tiles"."""
    if kind not in EXAMPLES:
        return f"{count} {kind.replace('_', ' ')}"
    name = catalog.element_name(kind).lower()
    name = name if count == 1 else PLURALS.get(kind, name + "s")
    return f"{count} {name}"


# Pictures of the rules sections that are not about one element.
RULE_EXAMPLES: dict[str, dict] = {
    "robots": {**_ex(3, 3, [], [_bot(0, 1, "E"), _bot(2, 1, "N", seat=2, damage=1)]), "shots": [[[0, 1], [2, 1]]]},
}


def element_entries() -> list[dict]:
    """What the page lists, in order: type, anchor id, name, text."""
    return [{"type": kind, "anchor": f"element-{kind}", "name": name, "text": text}
            for kind, name, text, _ in ELEMENTS]


def examples() -> dict[str, dict]:
    """Each element's example board, by type (the page embeds it as JSON for howto.js to draw)."""
    boards = {kind: {"name": name, **example} for kind, name, _, example in ELEMENTS}
    boards.update({kind: {"name": kind, **example} for kind, example in RULE_EXAMPLES.items()})
    return {kind: {"format": "roboracer-course/1", "shots": [], **board} for kind, board in boards.items()}


# ---- Bot modules (003 "Bot Modules", "Actions", "Battery", "The Economy"), in a player's words ----

# How each activation shape (a module's `activation`, engine/modules/base.py) is asked for on the program panel.
_ACTIVATION = {
    "turn": "Activate: all five phases", "scanner": "Activate: all five phases", "phase": "Activate: pick a phase",
    "two_phases": "Activate: pick two phases", "prioritizer": "Activate: first or last",
    "turret": "Activate: pick a direction (and front)",
}


def module_entries() -> list[dict]:
    """The modules section: each module's name, anchor, how it is activated, what it does."""
    return [{"type": entry["type"], "anchor": f"module-{entry['type']}", "name": entry["name"],
             "activation": _ACTIVATION[entry["activation"]], "text": entry["help"], "base_price": entry["base_price"]}
            for entry in catalog.modules()]


def economy_example() -> dict:
    """Our own worked example of 003 "The Economy", computed by the engine's price rule: a game with four
    modules, a robot with 700 battery buying three Shield charges."""
    start = {"blaster": 200, "drone": 300, "repair": 150, "shield": 180}
    prices = dict(start)
    battery, module, steps, total = 700, "shield", [], 0
    for n in range(1, 4):
        paid = prices[module]
        total += paid
        prices = after_purchase(prices, module)
        steps.append({"n": n, "paid": paid, "total": total, "battery": battery - total,
                      "after": {catalog.module_name(name): price for name, price in sorted(prices.items())}})
    return {"start": {catalog.module_name(name): price for name, price in start.items()}, "battery": battery,
            "steps": steps, "others": 3, "rise": 2 * 3}
