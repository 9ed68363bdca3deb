"""Benchmark: resolve turns with random legal programs on the largest bundled course and on the showcase
course with every element (Element Expo), as many bots as each seats (up to 8). Prints, per course, turns
per second, p50/p99 milliseconds per turn and the serialized state size.

Run: make bench-engine  (or .venv/bin/python tests/bench/engine_turns.py [turns] [course-slug ...])
"""

import json
import statistics
import sys
import time

import engine

# Enough lives that all 8 bots stay in the race: every measured turn resolves 8 programs.
LIVES = 99


SHOWCASE = "element-expo"


def largest() -> str:
    return max(engine.bundled_slugs(), key=lambda s: (lambda c: c.width * c.height)(engine.bundled_course(s)))


def main(turns: int = 2000, slugs: list[str] | None = None) -> None:
    for slug in slugs or [largest(), SHOWCASE]:
        run(slug, turns)


def run(slug: str, turns: int) -> None:
    course = engine.bundled_course(slug)
    bots = [str(n) for n in range(1, min(8, course.players[1]) + 1)]
    game_seed = 20261122
    state = engine.new_game(course, bots, lives=LIVES)
    timings = []
    games = 1
    for turn in range(turns):
        if state.finished:
            state, games = engine.new_game(course, bots, lives=LIVES), games + 1
        hands = engine.deal(state, engine.derive_seed(game_seed, turn, "deal"))
        programs = {
            bot_id: engine.random_program(state.bot(bot_id), hand, engine.derive_seed(game_seed, turn, bot_id))
            for bot_id, hand in hands.items()
        }
        started = time.perf_counter()
        state, _events = engine.resolve_turn(state, programs, engine.derive_seed(game_seed, turn, "resolve"))
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    size = len(json.dumps(engine.state_to_dict(state), separators=(",", ":")).encode())
    print(f"course: {slug} ({course.width}x{course.height}), bots: {len(bots)}, turns: {turns}, games: {games}")
    print(f"turns per second: {1000 * len(timings) / sum(timings):.0f}")
    print(f"p50 ms per turn: {statistics.median(timings):.3f}")
    print(f"p99 ms per turn: {timings[int(len(timings) * 0.99) - 1]:.3f}")
    print(f"serialized state: {size} bytes")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, sys.argv[2:])
