"""Benchmark: resolve turns with random legal programs on the largest bundled course, as many bots as it
seats (up to 8). Prints turns per second, p50/p99 milliseconds per turn and the serialized state size.

Run: make bench-engine  (or .venv/bin/python tests/bench/engine_turns.py [turns])
"""

import json
import statistics
import sys
import time

import engine

# Enough lives that all 8 bots stay in the race: every measured turn resolves 8 programs.
LIVES = 99


def main(turns: int = 2000) -> None:
    slug = max(engine.bundled_slugs(), key=lambda s: (lambda c: c.width * c.height)(engine.bundled_course(s)))
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
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
