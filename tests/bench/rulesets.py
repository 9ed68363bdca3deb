"""Benchmark: each available ruleset on its largest bundled race with its most players, random legal programs
from its own deal. Prints per ruleset the course, the players, turns per second and p50/p99 milliseconds per
turn (issue 19).

Run: make bench-engine  (or .venv/bin/python tests/bench/rulesets.py [turns])
"""

import statistics
import sys
import time

import engine

GAME_SEED = 20261127


def largest(ruleset: str) -> engine.Course:
    courses = [c for s in engine.bundled_slugs() if ruleset in (c := engine.bundled_course(s)).rulesets and c.mode == "race"]
    return max(courses, key=lambda c: c.width * c.height)


def time_ruleset(ruleset: str, turns: int) -> tuple[list[float], engine.Course, list[str], int]:
    """Timings (ms) of `turns` turns of the ruleset on its largest race: (timings, course, bots, games)."""
    course = largest(ruleset)
    rules = engine.rulesets.get(ruleset)
    bots = [str(n) for n in range(1, min(course.players[1], rules.players[1]) + 1)]
    lives = 99 if rules.counts_lives else 3  # everybody stays in: every measured turn resolves every program
    state = engine.new_game(course, bots, lives=lives, ruleset=ruleset)
    timings, games = [], 1
    for turn in range(turns):
        if state.finished:
            state, games = engine.new_game(course, bots, lives=lives, ruleset=ruleset), games + 1
        hands = engine.deal(state, engine.derive_seed(GAME_SEED, turn, "deal"))
        programs = {
            bot_id: list(engine.required_program(state.bot(bot_id))
                         or engine.random_program(state.bot(bot_id), hand, engine.derive_seed(GAME_SEED, turn, bot_id),
                                                  ruleset=ruleset))
            for bot_id, hand in hands.items() if state.bot(bot_id).at is not None
        }  # fmt: skip
        started = time.perf_counter()
        state, _ = engine.resolve_turn(state, programs, engine.derive_seed(GAME_SEED, turn, "resolve"), hands=hands)
        timings.append((time.perf_counter() - started) * 1000)
    return timings, course, bots, games


def run(ruleset: str, turns: int) -> None:
    timings, course, bots, games = time_ruleset(ruleset, turns)
    timings.sort()
    print(f"ruleset: {ruleset}, course: {course.name} ({course.width}x{course.height}), players: {len(bots)}, "
          f"turns: {turns}, games: {games}")  # fmt: skip
    print(f"  turns per second: {1000 * len(timings) / sum(timings):.0f}")
    print(f"  p50 ms per turn: {statistics.median(timings):.3f}")
    print(f"  p99 ms per turn: {timings[int(len(timings) * 0.99) - 1]:.3f}")


def main(turns: int = 1000) -> None:
    for ruleset in engine.rulesets.available():
        run(ruleset, turns)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
