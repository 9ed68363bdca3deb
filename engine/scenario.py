"""Scenarios (roboracer-scenario/1): a course, bots, programs and a seed; simulate prints the result."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace as dc_replace
from typing import Any

from . import rulesets
from .bundled import bundled_course
from .chips import CHIPS, DEALT_CHIPS, PROGRAM_LENGTH
from .course import parse_course
from .eject import eject
from .errors import InputError, ScenarioError
from .modules.actions import STORED, prepare_turn
from .modules.economy import initial_prices
from .program import frozen_registers
from .puzzle import target_bots
from .resolve import arena_reboot_message, resolve_turn
from .state import (
    DEFAULT_LIVES,
    State,
    board_from_dict,
    board_to_dict,
    bot_from_dict,
    check_drones,
    check_teams,
    options_table,
    prices_to_table,
    remains_from_list,
    ruleset_bot_dict,
    start_battery,
)

SCENARIO_FORMAT = "roboracer-scenario/1"
# The scenario options that are not a ruleset's game options (those are `Ruleset.options`).
_OPTIONS = frozenset({"lives", "mode", "modules", "prices"})
MAX_HAND = 12


def parse_scenario(data: Any) -> tuple[State, dict[str, list[str]], int, frozenset[str]]:
    """The scenario's state, programs, seed and reboot requests (modules: see `parse_module_inputs`)."""
    state, programs, seed, reboots, _, _ = _parse(data)
    return state, programs, seed, reboots


def rules_cards(rules: rulesets.Ruleset) -> str:
    return "cards" if rules.numbered else "chips"


def parse_module_inputs(
    data: Mapping[str, Any], rules: rulesets.Ruleset | None = None
) -> tuple[dict[str, Any] | None, dict[str, list[str]]]:
    """The scenario's module `actions` and the bots' dealt `hand`s (docs/formats.md "Bot modules"); in a
    ruleset with numbered cards a hand holds cards as written ("R@5")."""
    rules = rules or rulesets.get(rulesets.DEFAULT)
    actions = data.get("actions")
    if actions is not None and not isinstance(actions, Mapping):
        raise ScenarioError(f"scenario: 'actions' must be an object of bot id -> action, got {actions!r}")
    hands = {}
    for index, bot_data in enumerate(data.get("bots") or ()):
        if isinstance(bot_data, Mapping) and "hand" in bot_data:
            hand = bot_data["hand"]
            if rules.numbered:
                if not isinstance(hand, list) or len(hand) > MAX_HAND or any(rules.card_problem(c) for c in hand):
                    raise ScenarioError(f"bots[{index}]: 'hand' must be a list of at most {MAX_HAND} cards, got {hand!r}")
            elif not isinstance(hand, list) or len(hand) > (limit := 9 if rules.check_program is None else MAX_HAND) or any(
                c not in DEALT_CHIPS for c in hand
            ):
                raise ScenarioError(
                    f"bots[{index}]: 'hand' must be a list of at most {limit} chips from {' '.join(DEALT_CHIPS)}, "
                    f"got {hand!r}"
                )
            hands[bot_data["id"]] = list(hand)
    return (None if actions is None else dict(actions)), hands


def _parse(data: Any) -> tuple[State, dict[str, list[str]], int, frozenset[str], Any, dict[str, list[str]]]:
    if not isinstance(data, Mapping):
        raise ScenarioError("scenario: must be a JSON object")
    if data.get("format") != SCENARIO_FORMAT:
        raise ScenarioError(f"scenario: 'format' must be {SCENARIO_FORMAT!r}, got {data.get('format')!r}")
    ruleset = data.get("ruleset", rulesets.DEFAULT)
    try:
        rules = rulesets.get(ruleset)
    except InputError as error:
        raise ScenarioError(f"scenario: {error}") from None
    course_data = data.get("course")
    course = bundled_course(course_data) if isinstance(course_data, str) else parse_course(course_data)
    if ruleset not in course.rulesets:
        raise ScenarioError(
            f"scenario: the course {course.name!r} does not suit the {ruleset} ruleset (its 'rulesets': "
            f"{', '.join(course.rulesets)})"
        )
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioError(f"scenario: 'seed' must be a whole number, got {seed!r}")
    turn = data.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise ScenarioError(f"scenario: 'turn' must be a whole number from 1, got {turn!r}")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise ScenarioError(f"scenario: 'options' must be an object, got {options!r}")
    lives = options.get("lives", DEFAULT_LIVES)
    mode = options.get("mode", course.mode)
    if mode not in ("race", "arena", "puzzle"):
        raise ScenarioError(f"options.mode: must be 'race', 'arena' or 'puzzle', got {mode!r}")
    if mode != course.mode:
        raise ScenarioError(f"options.mode: {mode!r} disagrees with the course's mode {course.mode!r}")
    modules = options.get("modules", [])
    prices = options.get("prices", {})
    if not isinstance(modules, list):
        raise ScenarioError(f"options.modules: must be a list of module names, got {modules!r}")
    if not isinstance(prices, Mapping):
        raise ScenarioError(f"options.prices: must be an object of module -> price, got {prices!r}")
    if (modules or prices) and not rules.modules:
        raise ScenarioError(f"options.modules: the {ruleset} ruleset has no bot modules")
    try:
        prices = initial_prices(modules, prices)
        game_options = rules.check_options({key: value for key, value in options.items() if key not in _OPTIONS})
    except InputError as error:
        raise ScenarioError(f"options.{error}") from None
    bots_data = data.get("bots")
    if not isinstance(bots_data, list) or not bots_data:
        raise ScenarioError("scenario: 'bots' must be a non-empty list")
    bots = []
    for index, bot_data in enumerate(bots_data):
        if not isinstance(bot_data, Mapping):
            raise ScenarioError(f"bots[{index}]: must be a JSON object")
        try:
            bot = bot_from_dict(
                bot_data, default_lives=lives, default_battery=start_battery(course.mode), ruleset=ruleset
            )
        except InputError as error:
            raise ScenarioError(f"bots[{index}]: {error}") from None
        if not isinstance(bot_data.get("reboot", False), bool):
            raise ScenarioError(f"bots[{index}] ({bot.id}): 'reboot' must be true or false")
        if bot.at is not None and not course.on_course(bot.at):
            raise ScenarioError(f"bots[{index}] ({bot.id}): 'at' {list(bot.at)} is off the course")
        bots.append(bot)
    bots = _with_targets(course, bots)  # a puzzle's target bots (issue 16)
    real: dict[tuple[int, int], str] = {}
    for index, bot in enumerate(bots):
        if bot.at in course.pits:
            raise ScenarioError(f"bots[{index}] ({bot.id}): 'at' {list(bot.at)} is a pit")
        if bot.at is not None and not bot.virtual:
            if bot.at in real:
                raise ScenarioError(
                    f"bots[{index}] ({bot.id}): real bots {real[bot.at]!r} and {bot.id!r} can't share {list(bot.at)}"
                )
            real[bot.at] = bot.id
    ids = [bot.id for bot in bots]
    if len(set(ids)) != len(ids):
        raise ScenarioError("scenario: bot ids must be unique")
    try:
        check_drones(bots)
        check_teams(bots)  # team play (issue 16)
    except InputError as error:
        raise ScenarioError(f"scenario: {error}") from None
    priority = data.get("priority", ids)
    if isinstance(priority, list) and "priority" in data:
        priority = priority + [bot_id for bot_id in ids if bot_id not in priority and bot_id in _target_ids(course)]
    if not isinstance(priority, list) or sorted(priority) != sorted(ids):
        raise ScenarioError(f"scenario: 'priority' must list every bot id once, got {priority!r}")
    programs = data.get("programs")
    if not isinstance(programs, Mapping):
        raise ScenarioError("scenario: 'programs' must be an object of bot id -> 5 chips")
    for bot_id, program in programs.items():
        if bot_id not in ids:
            raise ScenarioError(f"programs: {bot_id!r} is not a bot of this scenario")
        if bot_id in _target_ids(course):
            raise ScenarioError(f"programs: {bot_id!r} is a puzzle's target: it plays the puzzle's own program")
        if not isinstance(program, list) or len(program) != PROGRAM_LENGTH:
            raise ScenarioError(
                f"programs.{bot_id}: a program is exactly {PROGRAM_LENGTH} {rules_cards(rules)}, got {program!r}"
            )
        for index, chip in enumerate(program):
            if rules.modules and chip == STORED:
                continue
            problem = rules.card_problem(chip)
            if problem:
                stored = ", or S" if rules.modules else ""
                raise ScenarioError(
                    f"programs.{bot_id}[{index}]: {problem}{stored}" if rules.numbered else
                    f"programs.{bot_id}[{index}]: {chip!r} is not a chip ({', '.join(CHIPS)}{stored})"
                )
    radiation = data.get("radiation", [])
    if not isinstance(radiation, list) or not all(
        isinstance(sq, list)
        and len(sq) == 2
        and all(isinstance(v, int) for v in sq)
        and course.on_course(tuple(sq))
        for sq in radiation
    ):
        raise ScenarioError(
            f"scenario: 'radiation' must be a list of [x, y] squares on the course, got {radiation!r}"
        )
    try:
        board = board_from_dict(data.get("board", {}))
    except InputError as error:
        raise ScenarioError(f"scenario: {error}") from None
    loop = dict(board.loop)
    teleporters = {t.at for t in course.of_type("teleporter")}
    if loop and (set(loop) != teleporters or any(
        course.ceiling[a].colour != course.ceiling[b].colour or a == b for a, b in loop.items()
    )):
        raise ScenarioError("scenario: 'board.loop' must send each teleporter to another of its colour")
    for index, bot in enumerate(bots):
        if bot.out is not None and bot.out[0] > turn:
            raise ScenarioError(f"bots[{index}] ({bot.id}): 'out' {list(bot.out)} is after turn {turn}")
    finishers, ends_after = data.get("finishers", []), data.get("ends_after")
    if finishers or ends_after is not None:
        if not rules.runner_up_rounds:
            raise ScenarioError("scenario: 'finishers' and 'ends_after' are classic's runner-up rounds")
        if not isinstance(finishers, list) or not finishers or any(f not in ids for f in finishers) or len(
            set(finishers)
        ) != len(finishers):
            raise ScenarioError(f"scenario: 'finishers' must list distinct bot ids of this scenario, got {finishers!r}")
        if not isinstance(ends_after, int) or isinstance(ends_after, bool) or ends_after < turn:
            raise ScenarioError(f"scenario: 'ends_after' must be a turn from {turn}, got {ends_after!r}")
    ejecting = data.get("eject", [])
    if not isinstance(ejecting, list) or any(bot_id not in ids for bot_id in ejecting):
        raise ScenarioError(f"scenario: 'eject' must be a list of bot ids of this scenario, got {ejecting!r}")
    try:
        remains = remains_from_list(data.get("remains", []), course)  # arena remains (issue 16)
    except InputError as error:
        raise ScenarioError(f"scenario: {error}") from None
    state = State(
        course=course,
        bots=tuple(bots),
        turn=turn,
        priority=tuple(priority),
        lives=lives,
        radiation=frozenset(tuple(sq) for sq in radiation),
        board=board,
        price_table=prices_to_table(prices),
        remains=remains,
        finishers=tuple(data.get("finishers", ())),
        ends_after=data.get("ends_after"),
        ruleset=ruleset,
        options=options_table(game_options, rules.options),
    )
    reboots = frozenset(bot_data["id"] for bot_data in bots_data if bot_data.get("reboot"))
    if reboots and not rules.reboots:
        raise ScenarioError(f"bots: the {ruleset} ruleset has no reboot ({sorted(reboots)[0]!r} asked for one)")
    if reboots and course.mode == "arena":  # 003 "Rebooting": "not possible in arena games"
        raise ScenarioError(f"bots: {arena_reboot_message(sorted(reboots)[0])}")
    programs = {key: list(value) for key, value in programs.items()}
    actions, hands = parse_module_inputs(data, rules)
    for bot_id, hand in hands.items():
        if rules.check_program is None:
            _check_hand(state.bot(bot_id), hand, programs.get(bot_id, ()), ruleset)
        elif bot_id in programs and (problem := rules.check_program(state.bot(bot_id), hand, programs[bot_id])):
            raise ScenarioError(f"bot {bot_id!r}: {problem}")
    if rules.requests is not None:
        if actions:
            raise ScenarioError(f"actions: the {ruleset} ruleset takes its requests on the bots")
        try:
            actions = rules.requests(bots_data) or None
        except InputError as error:
            raise ScenarioError(str(error)) from None
    elif rules.modules:
        try:
            prepare_turn(state, programs, actions, hands)  # the module inputs, checked as the turn will
        except InputError as error:
            raise ScenarioError(str(error)) from None
    elif actions:
        raise ScenarioError(f"actions: the {ruleset} ruleset has no bot modules")
    return state, programs, seed, reboots, actions, hands


def _target_ids(course: Any) -> set[str]:
    return {target["id"] for target in course.puzzle["targets"]} if course.puzzle else set()


def _with_targets(course: Any, bots: list) -> list:
    """A puzzle's target bots: listed ones are marked as targets, missing ones stand where the puzzle puts
    them (docs/formats.md "Puzzles")."""
    if not course.puzzle or not course.puzzle["targets"]:
        return bots
    listed = {bot.id: bot for bot in bots}
    out = [dc_replace(bot, target=True) if bot.id in _target_ids(course) else bot for bot in bots]
    out += [bot for bot in target_bots(course) if bot.id not in listed]
    return out


def _check_hand(bot: Any, hand: list[str], program: Any, ruleset: str = rulesets.DEFAULT) -> None:
    """A bot's `hand` is the hand its program was chosen from: every chip the program plays from the hand
    (not a frozen register, "S" or "0") is in it, copies counted (docs/formats.md "Bot modules")."""
    frozen = frozen_registers(bot, ruleset)
    used = Counter(
        chip for index, chip in enumerate(program) if index not in frozen and chip not in (STORED, "0")
    )
    held = Counter(hand)
    for chip, count in sorted(used.items()):
        if count > held[chip]:
            raise ScenarioError(
                f"bot {bot.id!r}: the program plays {chip!r} {count} time(s) and its 'hand' holds "
                f"{held[chip]}: a program is played from the hand"
            )


def result_dict(state: State, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The documented result: each bot as stored (with `last_program`, the program it played this turn, so
    that registers locked during the turn can be seen)."""
    bots = []
    for bot in state.bots:
        data = ruleset_bot_dict(state, bot)
        del data["spawned"]
        bots.append(data)
    return {
        "bots": bots,
        "priority": list(state.priority),
        "winner": state.winner,
        "places": state.places,
        "radiation": sorted([list(square) for square in state.radiation]),
        "board": board_to_dict(state.board),
        "prices": state.prices,
        "remains": sorted(map(list, state.remains)),  # arena remains (issue 16)
        **({"winning_team": state.winning_team} if state.team_game else {}),  # team play (issue 16)
        **({"outcome": state.outcome} if state.mode == "puzzle" else {}),  # puzzles (issue 16)
        **({"finishers": list(state.finishers), "ends_after": state.ends_after} if state.ends_after else {}),
        "events": events,
    }


def simulate(data: Any) -> dict[str, Any]:
    """Resolve the scenario's turn; bots named in `eject` are ejected before it (003 "!eject"), and when
    that ends the race the turn is not played: the result is the state after the ejection."""
    state, programs, seed, reboots, actions, hands = _parse(data)
    events: list[dict[str, Any]] = []
    if data.get("eject"):
        try:
            state, events = eject(state, data["eject"])
        except InputError as error:
            raise ScenarioError(f"eject: {error}") from None
        if state.finished:
            return result_dict(state, events)
    try:
        state, turn_events = resolve_turn(state, programs, seed, reboots=reboots, actions=actions, hands=hands)
    except InputError as error:
        raise ScenarioError(f"programs: {error}") from None
    return result_dict(state, events + turn_events)
