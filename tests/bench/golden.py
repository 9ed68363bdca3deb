"""Golden hash of the engine's behaviour (issue 36): seeded games on every bundled course under every ruleset
the engine has, with and without bot modules, and one sha256 over every state and every event they produce.

A refactor that must not change what the engine does prints the same hash before and after. Per combination:
RUNS seeded runs of TURNS turns (a new game when one ends) with the most players the course and the ruleset
seat (up to 8), each bot's program drawn from its own deal by the ruleset's `random_program`, all randomness
derived from GAME_SEED, the run, the course, the ruleset and the turn (no global random). Some turns ask for what the rules offer besides the
program: a reboot (roboracer outside arenas, fused), a power down (classic). With modules: every module
available, each bot armed with one (drawn from the game's own seeded RNG) and activating it whenever that is
legal, else charging it. A combination a ruleset refuses (the course's mode or rulesets, no modules) is
skipped and counted.

The hash covers `json.dumps(..., sort_keys=True)` of each turn's resulting state (`state_to_dict`) and its
events, in order. The committed hash is tests/bench/golden.sha256; the command compares with it and exits 1
when they differ.

Run: make golden  (or python tests/bench/golden.py [--write])
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.errors import InputError  # noqa: E402
from tests.bench.engine_turns import random_activation  # noqa: E402

GAME_SEED = 20261128
TURNS = 20
RUNS = 3  # seeded runs of each combination
HASH_FILE = Path(__file__).with_name("golden.sha256")


def _seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big")


def _arm(state, rng: random.Random):
    """Every bot that is not a puzzle's target gets a module of the game, charged, with a full battery."""
    from engine.state import MAX_BATTERY, Bot

    names = sorted(state.prices)
    armed = [
        bot if bot.target else Bot(**{**bot.__dict__, "module": rng.choice(names), "charges": rng.randint(2, 6),
                                      "battery": MAX_BATTERY})
        for bot in state.bots
    ]  # fmt: skip
    return state.with_bots(armed)


def _module_actions(state, hands, programs, rng: random.Random) -> dict:
    from engine.modules.actions import action_problem, available_charges

    actions = {}
    for bot_id, program in sorted(programs.items()):
        bot = state.bot(bot_id)
        if bot.module is None or bot.at is None or bot.rebooting:
            continue
        tries = [{"activate": random_activation(bot.module, rng)}] if available_charges(bot) >= 1 else []
        tries.append({"charge": 1})
        for action in tries:
            if action_problem(bot, action, prices=state.prices, hand=hands.get(bot_id), program=program) is None:
                actions[bot_id] = action
                break
    return actions


def _new_game(course, ruleset: str, modules: bool):
    rules = engine.rulesets.get(ruleset)
    most = min(course.players[1], rules.players[1], 8)
    bots = [str(n) for n in range(1, most + 1)]
    return engine.new_game(course, bots, ruleset=ruleset, modules=engine.MODULE_NAMES if modules else ())


def play(slug: str, ruleset: str, modules: bool, run: int, digest) -> int:
    """Play TURNS turns of the combination into `digest`; returns the games started."""
    course = engine.bundled_course(slug)
    rules = engine.rulesets.get(ruleset)
    rng = random.Random(_seed(GAME_SEED, run, slug, ruleset, modules))
    state = _new_game(course, ruleset, modules)
    if modules:
        state = _arm(state, rng)
    games = 1
    digest.update(json.dumps(["game", run, slug, ruleset, modules, engine.state_to_dict(state)], sort_keys=True).encode())
    for turn in range(TURNS):
        if state.finished:
            state, games = _new_game(course, ruleset, modules), games + 1
            if modules:
                state = _arm(state, rng)
        hands = engine.deal(state, _seed(GAME_SEED, run, slug, ruleset, modules, turn, "deal"))
        programs = {}
        for bot_id, hand in sorted(hands.items()):
            bot = state.bot(bot_id)
            if bot.at is None:
                continue
            required = engine.required_program(bot, ruleset)
            seed = _seed(GAME_SEED, run, slug, ruleset, modules, turn, bot_id)
            programs[bot_id] = list(required or engine.random_program(bot, hand, seed, ruleset=ruleset))
        reboots, actions = [], {}
        for bot_id in sorted(programs):
            bot = state.bot(bot_id)
            if rng.random() >= 0.1 or bot.drone_of is not None:
                continue
            if rules.reboots and state.mode != "arena" and not bot.rebooting:
                reboots.append(bot_id)
            elif rules.requests is not None and not bot.power_down_next:  # classic: power down next round
                actions[bot_id] = {"power_down": True}
        if modules:
            actions.update(_module_actions(state, hands, programs, rng))
        state, events = engine.resolve_turn(
            state, programs, _seed(GAME_SEED, run, slug, ruleset, modules, turn, "resolve"),
            reboots=reboots, actions=actions or None, hands=hands,
        )  # fmt: skip
        digest.update(json.dumps([engine.state_to_dict(state), events], sort_keys=True).encode())
    return games


def golden() -> tuple[str, dict[str, int]]:
    digest = hashlib.sha256()
    counts = {"played": 0, "skipped": 0, "games": 0}
    for slug in sorted(engine.bundled_slugs()):
        for ruleset in engine.rulesets.available():
            for modules in (False, True):
                try:
                    _new_game(engine.bundled_course(slug), ruleset, modules)
                except InputError:  # the course's mode or rulesets, or no modules in this ruleset
                    counts["skipped"] += 1
                    digest.update(json.dumps(["skipped", slug, ruleset, modules]).encode())
                    continue
                for run in range(RUNS):
                    counts["games"] += play(slug, ruleset, modules, run, digest)
                counts["played"] += 1
    return digest.hexdigest(), counts


def main(argv: list[str]) -> int:
    found, counts = golden()
    print(f"combinations played: {counts['played']}, skipped (refused by the ruleset): {counts['skipped']}, "
          f"games: {counts['games']}, runs per combination: {RUNS} of {TURNS} turns")  # fmt: skip
    print(found)
    if "--write" in argv:
        HASH_FILE.write_text(found + "\n")
        print(f"written to {HASH_FILE.relative_to(ROOT)}")
        return 0
    expected = HASH_FILE.read_text().strip() if HASH_FILE.exists() else None
    if found == expected:
        print(f"matches {HASH_FILE.relative_to(ROOT)}")
        return 0
    print(f"DIFFERS from {HASH_FILE.relative_to(ROOT)} ({expected})")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
