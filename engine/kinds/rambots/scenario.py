"""RAMbots scenarios (`rambots-scenario/1`, docs/formats.md): one round from a given position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...errors import ScenarioError
from .rules import (
    BOARD_SIZE,
    COLOURS,
    DEFAULT_OPTIONS,
    DIRS,
    FORMAT,
    KIND,
    MAX_PLAYERS,
    MAX_PROGRAM,
    PROGRAM_DIRS,
    PROGRAM_KEYS,
    colour_of,
    is_piece,
    resolve_round,
    sort_pieces,
)

TOP_KEYS = ("format", "seed", "players", "beacons", "precedence", "programs", "options")
PLAYER_KEYS = ("id", "colour", "bot", "pool", "goals", "tagged")
BOT_KEYS = ("at", "dir")
BEACON_KEYS = ("colour", "at", "dir")
MAX_POOL = 12 * MAX_PLAYERS
MAX_ID = 40


def _keys(where: str, value: Any, allowed, required=()) -> None:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where}: must be a JSON object, got {_short(value)}")
    for key in value:
        if key not in allowed:
            raise ScenarioError(f"{where}: unknown field {_short(key)} (allowed: {', '.join(allowed)})")
    for key in required:
        if key not in value:
            raise ScenarioError(f"{where}: missing field {key!r}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _square(where: str, value) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(_int(v) for v in value)):
        raise ScenarioError(f"{where}: must be [x, y], two whole numbers, got {_short(value)}")
    if not all(0 <= v < BOARD_SIZE for v in value):
        raise ScenarioError(f"{where}: {value} is off the board (x and y are 0..{BOARD_SIZE - 1})")
    return value[0], value[1]


def _dir(where: str, value, *, upright: bool = True) -> str:
    allowed = PROGRAM_DIRS if upright else DIRS
    if not isinstance(value, str) or value not in allowed:
        raise ScenarioError(f"{where}: must be one of {', '.join(allowed)}; got {_short(value)}")
    return value


def _colour(where: str, value) -> str:
    if not isinstance(value, str) or value not in COLOURS:
        raise ScenarioError(f"{where}: must be one of {', '.join(COLOURS)}; got {_short(value)}")
    return value


def _pieces(where: str, value, limit: int) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: must be a list of pieces like 'S-red', got {_short(value)}")
    if len(value) > limit:
        raise ScenarioError(f"{where}: at most {limit} pieces, got {len(value)}")
    for index, piece in enumerate(value):
        if not is_piece(piece):
            raise ScenarioError(f"{where}[{index}]: {_short(piece)} is not a piece (S, M or L, a dash, a colour)")
    return list(value)


def parse_scenario(data: Any) -> tuple[dict, dict[str, list], int]:
    """The state (phase "programming"), the programs and the seed; ScenarioError names the bad field."""
    _keys("scenario", data, TOP_KEYS, ("format", "players", "beacons", "precedence"))
    if data["format"] != FORMAT:
        raise ScenarioError(f"scenario: 'format' must be {FORMAT!r}, got {_short(data['format'])}")
    seed = data.get("seed", 0)
    if not _int(seed):
        raise ScenarioError(f"scenario: 'seed' must be a whole number, got {_short(seed)}")
    options = data.get("options", {})
    _keys("options", options, tuple(DEFAULT_OPTIONS))
    for key, value in options.items():
        if not isinstance(value, bool):
            raise ScenarioError(f"options.{key}: must be true or false, got {_short(value)}")
    players_data = data["players"]
    if not isinstance(players_data, list) or not 1 <= len(players_data) <= MAX_PLAYERS:
        raise ScenarioError(f"scenario: 'players' must be a list of 1 to {MAX_PLAYERS} players")
    occupied: dict[tuple[int, int], str] = {}

    def place(where: str, square: tuple[int, int], name: str) -> None:
        if square in occupied:
            raise ScenarioError(f"{where}: {name} and {occupied[square]} can't share {list(square)}")
        occupied[square] = name

    players = []
    for index, pdata in enumerate(players_data):
        where = f"players[{index}]"
        _keys(where, pdata, PLAYER_KEYS, ("id", "colour", "bot"))
        pid = pdata["id"]
        if not isinstance(pid, str) or not pid or len(pid) > MAX_ID:
            raise ScenarioError(f"{where}.id: must be a non-empty string of at most {MAX_ID} characters")
        if any(p["id"] == pid for p in players):
            raise ScenarioError(f"{where}.id: {pid!r} is used twice")
        colour = _colour(f"{where}.colour", pdata["colour"])
        if any(p["colour"] == colour for p in players):
            raise ScenarioError(f"{where}.colour: two players have the colour {colour}")
        _keys(f"{where}.bot", pdata["bot"], BOT_KEYS, BOT_KEYS)
        at = _square(f"{where}.bot.at", pdata["bot"]["at"])
        bot_dir = _dir(f"{where}.bot.dir", pdata["bot"]["dir"])
        place(f"{where}.bot.at", at, f"bot {pid}")
        pool = _pieces(f"{where}.pool", pdata.get("pool", []), MAX_POOL)
        goals = _pieces(f"{where}.goals", pdata.get("goals"), 4) if "goals" in pdata else None
        if not goals:
            raise ScenarioError(f"{where}.goals: must list 1 to 4 goals still to tag, top first")
        if len({colour_of(p) for p in goals}) != len(goals):
            raise ScenarioError(f"{where}.goals: two goals have the same colour")
        tagged = pdata.get("tagged", 4 - len(goals))
        if not _int(tagged) or not 0 <= tagged <= 3:
            raise ScenarioError(f"{where}.tagged: must be a whole number 0..3, got {_short(tagged)}")
        players.append({
            "id": pid, "colour": colour, "bot": {"at": list(at), "dir": bot_dir}, "pool": sort_pieces(pool),
            "goals": goals, "tagged": tagged, "out": False, "goals_built": True,
        })
    beacons_data = data["beacons"]
    if not isinstance(beacons_data, list) or len(beacons_data) > len(COLOURS):
        raise ScenarioError("scenario: 'beacons' must be a list of at most 4 beacons")
    beacons = []
    for index, bdata in enumerate(beacons_data):
        where = f"beacons[{index}]"
        _keys(where, bdata, BEACON_KEYS, BEACON_KEYS)
        colour = _colour(f"{where}.colour", bdata["colour"])
        if any(b["colour"] == colour for b in beacons):
            raise ScenarioError(f"{where}.colour: two beacons are {colour}")
        at = _square(f"{where}.at", bdata["at"])
        place(f"{where}.at", at, f"the {colour} beacon")
        beacons.append({"colour": colour, "at": list(at), "dir": _dir(f"{where}.dir", bdata["dir"])})
    precedence = data["precedence"]
    if not isinstance(precedence, list) or sorted(map(str, precedence)) != sorted(COLOURS) or not all(
        isinstance(c, str) for c in precedence
    ):
        raise ScenarioError(f"scenario: 'precedence' must list the four colours once each, got {_short(precedence)}")
    programs_data = data.get("programs", {})
    if not isinstance(programs_data, Mapping):
        raise ScenarioError("scenario: 'programs' must be an object of player id -> program")
    by_id = {p["id"]: p for p in players}
    programs = {}
    for pid, program in programs_data.items():
        if pid not in by_id:
            raise ScenarioError(f"programs: {_short(pid)} is not a player of this scenario")
        where = f"programs.{pid}"
        if not isinstance(program, list):
            raise ScenarioError(f"{where}: must be a list of instructions, got {_short(program)}")
        if len(program) > MAX_PROGRAM:
            raise ScenarioError(f"{where}: at most {MAX_PROGRAM} instructions, got {len(program)}")
        for step, instruction in enumerate(program):
            _keys(f"{where}[{step}]", instruction, tuple(sorted(PROGRAM_KEYS, reverse=True)), ("piece", "dir"))
            if not is_piece(instruction["piece"]):
                raise ScenarioError(f"{where}[{step}].piece: {_short(instruction['piece'])} is not a piece")
            _dir(f"{where}[{step}].dir", instruction["dir"])
        wanted = Counter(i["piece"] for i in program)
        have = Counter(by_id[pid]["pool"])
        for piece, count in wanted.items():
            if have[piece] < count:
                raise ScenarioError(
                    f"{where}: {piece} is not in the pool of {pid}" if not have[piece]
                    else f"{where}: {piece} is used {count} times but the pool of {pid} holds {have[piece]}"
                )
        programs[pid] = [dict(i) for i in program]
    state = {
        "kind": KIND, "phase": "programming", "round": 1, "players": players, "beacons": beacons,
        "precedence": list(precedence), "options": {**DEFAULT_OPTIONS, **options}, "winner": None,
    }
    return state, programs, seed


def simulate(data: Any) -> dict:
    """Resolve the scenario's round: players, beacons, precedence (for the next round), winner, events."""
    state, programs, _ = parse_scenario(data)
    after, events = resolve_round(state, programs)
    return {
        "players": [
            {"id": p["id"], "bot": {"at": p["bot"]["at"], "dir": p["bot"]["dir"]}, "pool": sort_pieces(p["pool"]),
             "goals": p["goals"], "tagged": p["tagged"]}
            for p in after["players"]
        ],
        "beacons": after["beacons"],
        "precedence": after["precedence"],
        "winner": after["winner"],
        "events": events,
    }

