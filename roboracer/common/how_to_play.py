"""The how-to-play page's course elements: for every element type the engine knows (engine.elements), its
name, what it does in a player's words (003 "Elements" and docs/rules.md), and a small example board drawn in
the browser by the real board renderer (frontend/src/howto.ts): a course fragment in the course format
(docs/formats.md), the robots on it, and where the first one ends up (`path`, squares in order; `end`, its
final heading).

Each example is a legal course fragment: tests/games/test_how_to_play.py checks it with the engine's own
course parser, and checks that every registered element type has its entry here.
"""

from __future__ import annotations

from engine.modules.economy import BASE_PRICES, after_purchase

B1, B2 = {"seat": 1}, {"seat": 2}


def _ex(width: int, height: int, elements: list[dict], bots: list[dict] | None = None,
        path: list[list[int]] | None = None, end: str | None = None) -> dict:
    return {"width": width, "height": height, "elements": elements, "bots": bots or [], "path": path or [],
            "end": end}


def _bot(x: int, y: int, heading: str, seat: int = 1, **extra) -> dict:
    return {"at": [x, y], "dir": heading, "seat": seat, **extra}


# (type, name, explanation, example)
ELEMENTS: list[tuple[str, str, str, dict]] = [
    ("floor", "Floor", "Plain factory floor. Nothing happens here; every square a course does not fill is floor.",
     _ex(3, 3, [{"type": "floor", "at": [1, 1]}], [_bot(0, 1, "E")], [[0, 1], [2, 1]])),
    ("wall", "Wall", "Walls stand on the edges between squares. A robot that runs into one stops there and "
     "loses the rest of that chip's move; shots stop at walls too.",
     _ex(3, 3, [{"type": "wall", "at": [1, 1], "side": "E"}], [_bot(0, 1, "E")], [[0, 1], [1, 1]])),
    ("pit", "Pit", "A hole in the floor. A robot that moves, is pushed or carried into a pit, or off the edge of "
     "the course, is destroyed at once and loses a life. A 2 or 3 can't jump a pit.",
     _ex(3, 3, [{"type": "pit", "at": [1, 1]}], [_bot(0, 1, "E")], [[0, 1], [1, 1]])),
    ("start", "Start", "Where the robots begin the race: seat 1 on start 1 and so on, facing the arrow. It is "
     "also where a robot comes back after losing a life, until it tags its first check point.",
     _ex(3, 3, [{"type": "start", "at": [1, 1], "number": 1, "dir": "N"}], [])),
    ("checkpoint", "Check point", "Tag the check points in their numbered order by ending a phase on your next "
     "one; tagging the last one wins the race. Each one you tag becomes your restart square. Ending a turn on "
     "any check point repairs 1 damage. On the game screen your next one is green, the leader's black.",
     _ex(3, 3, [{"type": "checkpoint", "at": [2, 1], "number": 1}], [_bot(0, 1, "E")], [[0, 1], [2, 1]])),
    ("repair", "Repair site", "A robot ending a turn here has 1 or 2 damage repaired (the number shows how many).",
     _ex(3, 3, [{"type": "repair", "at": [1, 1], "amount": 2}], [_bot(0, 1, "E", damage=3)], [[0, 1], [1, 1]])),
    ("belt", "Conveyor belt", "Every phase a belt carries the robot on it the way of its arrows: speed 1, 2, 3 or "
     "5 squares a phase. A belt never pushes; a robot in the way blocks it. Carried onto a turning belt (↻) from "
     "the side, a robot is turned with the belt.",
     _ex(3, 3, [{"type": "belt", "at": [0, 1], "dir": "E", "speed": 2, "curves_from": []},
                {"type": "belt", "at": [1, 1], "dir": "E", "speed": 2, "curves_from": []},
                {"type": "belt", "at": [2, 1], "dir": "S", "speed": 2, "curves_from": ["W"]}],
         [_bot(0, 1, "N")], [[0, 1], [1, 1], [2, 1]], end="E")),
    ("pusher", "Pusher", "In the phases it shows, a pusher shoves the robot on its square one square away from "
     "its wall, and any robots in front of it too.",
     _ex(3, 3, [{"type": "pusher", "at": [0, 1], "side": "W", "phases": [1, 3, 5]}], [_bot(0, 1, "N")],
         [[0, 1], [1, 1]])),
    ("turntable", "Turntable", "Every phase it turns the robot on it a quarter turn, left (L) or right (R).",
     _ex(3, 3, [{"type": "turntable", "at": [1, 1], "rotation": "R"}], [_bot(1, 1, "N")], [[1, 1]], end="E")),
    ("crusher", "Crusher", "Hangs from the ceiling. In the phases marked by its red dots it crushes whatever is "
     "below it for 10 damage: the robot is destroyed.",
     _ex(3, 3, [{"type": "crusher", "at": [1, 1], "phases": [2, 4]}], [_bot(0, 1, "E")], [[0, 1], [1, 1]])),
    ("laser", "Wall laser", "Fires every phase from its wall across the course. The first square with a robot "
     "stops the beam, and every robot there takes 1 damage per beam. Wall lasers hit virtual robots too.",
     _ex(3, 3, [{"type": "laser", "at": [0, 1], "side": "W", "beams": 2}], [_bot(2, 1, "N")])),
    ("blaster", "Wall blaster", "Like a wall laser, but each beam does 2 damage, and only to real robots: virtual "
     "ones are neither hit nor stop it.",
     _ex(3, 3, [{"type": "blaster", "at": [0, 1], "side": "W", "beams": 1}], [_bot(2, 1, "N")])),
    ("repeller", "Wall repeller", "Fires like a wall laser but does no damage: it pushes the first real robot in "
     "its beam one square along the beam.",
     _ex(3, 3, [{"type": "repeller", "at": [0, 1], "side": "W"}], [_bot(1, 1, "N")], [[1, 1], [2, 1]])),
    ("screen", "Screen", "Safe to drive across, but a robot that ends a phase on a screen is destroyed.",
     _ex(3, 3, [{"type": "screen", "at": [1, 1]}], [_bot(0, 1, "E")], [[0, 1], [2, 1]])),
    ("damaged_tile", "Damaged tile", "Holds once. When a robot that started a phase on it has left it by the end "
     "of the phase, it breaks and is a screen for the rest of the race.",
     _ex(3, 3, [{"type": "damaged_tile", "at": [1, 1]}], [_bot(1, 1, "E")], [[1, 1], [2, 1]])),
    ("receptacle", "Receptacle", "A hole waiting to be filled: the first robot onto it falls in and is destroyed, "
     "and fills it; after that (or when it is covered) it is ordinary floor.",
     _ex(3, 3, [{"type": "receptacle", "at": [1, 1]}, {"type": "receptacle", "at": [1, 2], "covered": True}],
         [_bot(0, 1, "E")], [[0, 1], [1, 1]])),
    ("rail", "Rail", "A robot facing along a rail is on the rail: a turn chip (L, R, U) moves it 1 square along "
     "the rail instead, and turns only if that move is blocked. Driving frontwards onto a corner rail turns the "
     "robot round the corner. Rails over a pit carry you only along the rail: leave them any other way and you "
     "fall.",
     _ex(3, 3, [{"type": "rail", "at": [0, 1], "sides": ["W", "E"]},
                {"type": "rail", "at": [1, 1], "sides": ["W", "S"]},
                {"type": "rail", "at": [1, 2], "sides": ["N", "S"], "over_pit": True}],
         [_bot(0, 1, "E")], [[0, 1], [1, 1]], end="S")),
    ("trapdoor", "Trapdoor", "A pit with a lid that is closed (safe) in the phases it shows and open (a pit) in "
     "the others. Cross or stop on it only when it is closed.",
     _ex(3, 3, [{"type": "trapdoor", "at": [1, 1], "phases": [1, 3, 5]}], [_bot(0, 1, "E")], [[0, 1], [2, 1]])),
    ("inverter", "Inverter", "The chip you play while standing on it is reversed: moves go backwards, L and R "
     "swap (U stays U). Driving over it mid-move changes nothing.",
     _ex(3, 3, [{"type": "inverter", "at": [1, 1]}], [_bot(1, 1, "E")], [[1, 1], [0, 1]])),
    ("doubler", "Doubler", "The chip you play while standing on it moves you twice as far (a 2 goes 4). Turns, "
     "pushes and belts are not doubled.",
     _ex(4, 3, [{"type": "doubler", "at": [0, 1]}], [_bot(0, 1, "E")], [[0, 1], [2, 1]])),
    ("vent", "Vent", "Burns the robot on it for 1 damage at the end of every phase. Drive onto and off a vent with "
     "one chip (a 2 or 3) and you fly: over walls, pits and more, one extra square for each vent crossed.",
     _ex(4, 3, [{"type": "vent", "at": [1, 1]}, {"type": "pit", "at": [2, 1]}], [_bot(0, 1, "E")],
         [[0, 1], [3, 1]])),
    ("magnet", "Magnet", "A robot arriving on a magnet turns at once to face its way and goes on that way. On it "
     "you can't turn, and you can move only the magnet's way.",
     _ex(3, 3, [{"type": "magnet", "at": [1, 1], "dir": "S"}], [_bot(0, 1, "E")], [[0, 1], [1, 1], [1, 2]],
         end="S")),
    ("virtualizer", "Virtualizer", "Makes the robots on it virtual (see Virtual robots below) until the end of "
     "the turn.",
     _ex(3, 3, [{"type": "virtualizer", "at": [1, 1]}], [_bot(1, 1, "N", virtual=True)])),
    ("water", "Water", "A chip played from water moves at most one square, whatever its number.",
     _ex(3, 3, [{"type": "water", "at": [0, 1]}], [_bot(0, 1, "E")], [[0, 1], [1, 1]])),
    ("oil", "Oil", "A robot whose move ends on oil slides on the same way until it leaves the oil or something "
     "stops it. Sliding robots push nobody.",
     _ex(4, 3, [{"type": "oil", "at": [1, 1]}, {"type": "oil", "at": [2, 1]}], [_bot(0, 1, "E")],
         [[0, 1], [3, 1]])),
    ("teleporter", "Teleporter", "A robot that moved onto a teleporter (for any reason) is sent to the next "
     "teleporter of the same colour, just before and just after weapons fire. With three or more of a colour "
     "the loop is secret until robots use it: the green number is a teleporter's place in its colour, the red "
     "one where it leads. Arriving on a real robot makes you virtual.",
     _ex(3, 3, [{"type": "teleporter", "at": [0, 0], "colour": "purple"},
                {"type": "teleporter", "at": [2, 2], "colour": "purple"}], [_bot(0, 1, "N")],
         [[0, 1], [0, 0], [2, 2]])),
    ("force_field", "Force field", "Blocks robots and shots until real robots' lasers have shot it down (the "
     "number is the shots needed). A recharging one (↻) is down for one phase per shot.",
     _ex(3, 3, [{"type": "force_field", "at": [2, 1], "strength": 2}], [_bot(0, 1, "E")])),
    ("mirror", "Mirror", "Diagonal mirrors turn shots 90 degrees; straight ones send shots back (you can shoot "
     "yourself). A real robot driving onto a mirror breaks it and has Bad Luck: its next hand has little "
     "movement. Virtual robots can't pass it.",
     _ex(3, 3, [{"type": "mirror", "at": [2, 1], "shape": "/"}], [_bot(0, 1, "E")])),
    ("portal", "Portal", "Driving out through a portal's side puts you on the square of the nearest portal facing "
     "it, and the move goes on from there. Red portals carry shots too, blue ones stop them. A portal with no "
     "exit is very bad news: 9 damage.",
     _ex(4, 3, [{"type": "portal", "at": [0, 1], "side": "E", "colour": "blue"},
                {"type": "portal", "at": [3, 1], "side": "W", "colour": "blue"}], [_bot(0, 1, "E")],
         [[0, 1], [3, 1]])),
    ("one_way_wall", "One-way wall", "Robots and shots cross it only the way of its arrow.",
     _ex(3, 3, [{"type": "one_way_wall", "at": [1, 1], "side": "E", "dir": "E"}], [_bot(0, 1, "E")],
         [[0, 1], [2, 1]])),
    ("sliding_wall", "Sliding wall", "A wall that slides open in the phases it shows.",
     _ex(3, 3, [{"type": "sliding_wall", "at": [1, 1], "side": "E", "open": [2, 4]}], [_bot(0, 1, "E")],
         [[0, 1], [1, 1]])),
    ("curtain", "Curtain", "Robots drive through it; shots stop at it.",
     _ex(3, 3, [{"type": "curtain", "at": [1, 1], "side": "E"}], [_bot(0, 1, "E")], [[0, 1], [2, 1]])),
    ("window", "Window", "Shots pass through it; robots stop at it.",
     _ex(3, 3, [{"type": "window", "at": [1, 1], "side": "E"}], [_bot(0, 1, "E")], [[0, 1], [1, 1]])),
    ("shocker", "Shocker", "Blocks robots and shots like a wall, and every try to cross it costs 1 damage (a fast "
     "belt into it can shock you several times a phase).",
     _ex(3, 3, [{"type": "shocker", "at": [1, 1], "side": "E"}], [_bot(0, 1, "E")], [[0, 1], [1, 1]])),
]


# Plurals of the names above that are not the name plus "s" (the course gallery counts elements with them).
PLURALS: dict[str, str] = {"rail": "rail pieces", "water": "water squares", "oil": "oil squares"}
_NAMES = {kind: name for kind, name, _, _ in ELEMENTS}


def element_label(kind: str, count: int) -> str:
    """A player's name for `count` elements of one type: "1 mirror", "26 rail pieces", "2 damaged tiles"."""
    if kind not in _NAMES:
        return f"{count} {kind.replace('_', ' ')}"
    name = _NAMES[kind].lower() if count == 1 else PLURALS.get(kind, _NAMES[kind].lower() + "s")
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

# (name, how it is activated, what it does)
MODULES: list[tuple[str, str, str]] = [
    ("blaster", "turn", "For the whole turn your laser shots do 2 damage (still 1 to a force field), and every "
     "shot that hits pushes you 1 square back."),
    ("bomb", "turn", "Drops a bomb where you stand at the start of the turn. At the end of the turn it explodes: 9 "
     "damage on its square, 2 on the eight around it. Belts, pushers and teleporters move it; any damage "
     "destroys it without a bang."),
    ("clamp", "phase", "In the phase you pick you can't move or be moved, except by a belt. Turn chips still turn you."),
    ("crab_legs", "phase", "In the phase you pick, a Turn left or Turn right chip moves you 1 square sideways "
     "instead. Needs a spare move chip: a 1, 2, 3 or Back up from your hand that your program does not play."),
    ("drone", "turn", "Deploys a virtual drone on your square, facing the other way. It plays your chips (as "
     "printed: your modules don't affect it), can tag your check points, never shoots and is never repaired. "
     "A new drone replaces the old one."),
    ("prioritizer", "first or last", "This turn you act before (first) or after (last) every robot without an "
     "active prioritizer, in every step of every phase."),
    ("repair", "turn", "Repairs 1 damage at the end of the turn."),
    ("repeller", "two phases", "In two phases in a row your laser pushes the robot it hits 1 square, without "
     "damage. Your normal laser is off for the whole turn."),
    ("reflector", "two phases", "In two phases in a row, shots that hit you (blasters and repellers too) go back "
     "to hit the shooter."),
    ("reverse", "phase", "In the phase you pick your chip is reversed: left and right swap, moves go backwards."),
    ("scanner", "turn", "Shows you the chips your opponents have submitted so far, sorted, not in their order. "
     "Rescan as often as you like until the turn is played; the charge is taken at the start of the next turn."),
    ("shield", "turn", "No damage from shots this turn, but you don't fire either."),
    ("shocker", "turn", "Any robot you touch (push, are pushed by, or bump into) takes 1 damage, at most once a "
     "phase."),
    ("storage", "turn", "Stores the first chip of your hand that your program does not play. Later you can play it "
     "from any free register (it shows in your hand as \"stored\"). One chip at a time: storing again replaces it."),
    ("turbo", "phase", "In the phase you pick a move chip moves you 1 more square forward. Needs a spare move chip, "
     "like Crab Legs."),
    ("turret", "aim", "Aim your laser left, right or back, instead of forward or as well as forward."),
    ("virtualizer", "phase", "Turns you virtual at the start of the phase you pick, and real again at the end of "
     "that phase or a later one, as soon as no other real robot shares your square."),
]

_ACTIVATION = {
    "turn": "Activate: all five phases", "phase": "Activate: pick a phase", "two phases": "Activate: pick two phases",
    "first or last": "Activate: first or last", "aim": "Activate: pick a direction (and front)",
}


def module_entries() -> list[dict]:
    """The modules section: each module's name, anchor, how it is activated, what it does."""
    return [{"type": name, "anchor": f"module-{name}", "name": name.replace("_", " ").title(),
             "activation": _ACTIVATION[kind], "text": text, "base_price": BASE_PRICES[name]}
            for name, kind, text in MODULES]


def economy_example() -> dict:
    """Our own worked example of 003 "The Economy", computed by the engine's price rule: a game with four
    modules, a robot with 700 battery buying three Shield charges."""
    prices = {"blaster": 200, "drone": 300, "repair": 150, "shield": 180}
    battery, module, steps, total = 700, "shield", [], 0
    for n in range(1, 4):
        paid = prices[module]
        total += paid
        prices = after_purchase(prices, module)
        steps.append({"n": n, "paid": paid, "total": total, "battery": battery - total,
                      "after": {name.title(): price for name, price in sorted(prices.items())}})
    return {"start": {"Blaster": 200, "Drone": 300, "Repair": 150, "Shield": 180}, "battery": battery,
            "steps": steps, "others": 3, "rise": 2 * 3}
