"""Prints a solution of a bundled puzzle in the form of tests/engine/puzzle_solutions.json (each turn's hands
and programs), found by the engine's puzzle solver (`engine.players.solver`, issue 40) and dealt exactly as the
site deals a puzzle game (the game seed is the puzzle's seed):

    .venv/bin/python -m tests.engine.puzzle_solver SLUG
"""

from __future__ import annotations

import json
import sys

import engine
from engine.players import solver


def solve(course, ids):
    """[{"hands", "programs"}, ...] turn by turn, or None."""
    seed = course.puzzle["seed"]
    state = engine.new_game(course, ids)
    found = solver.solve(state, seed)
    if found is None:
        return None
    turns = []
    for programs in found.turns:
        hands = engine.deal(state, engine.derive_seed(seed, state.turn, "deal"))
        turns.append({"hands": {i: list(h) for i, h in hands.items()}, "programs": {i: list(p) for i, p in programs.items()}})
        state, _ = engine.resolve_turn(state, programs, engine.derive_seed(seed, state.turn, "resolve"), hands=hands)
    return turns


if __name__ == "__main__":
    course = engine.bundled_course(sys.argv[1])
    print(json.dumps(solve(course, [str(n) for n in range(1, course.puzzle["players"] + 1)])))
