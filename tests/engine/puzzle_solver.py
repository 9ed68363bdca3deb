"""Finds a solution to a bundled puzzle through the engine, dealing exactly as the site deals a puzzle game
(the game seed is the puzzle's seed). Used to write tests/engine/puzzle_solutions.json:
`.venv/bin/python -m tests.engine.puzzle_solver SLUG` prints a solution found by search."""

from __future__ import annotations

import itertools
import json
import sys

import engine


def site_deal(state, seed):
    return engine.deal(state, engine.derive_seed(seed, state.turn, "deal"))


def play(state, seed, programs):
    return engine.resolve_turn(state, programs, engine.derive_seed(seed, state.turn, "resolve"))


def programs_from(hand, bot):
    required = engine.required_program(bot)
    if required:
        return [tuple(required)]
    return sorted(set(itertools.permutations(hand, 5)))


def _score(state):
    """Lower is better: a rough distance of the players to the goal."""
    goal = state.course.puzzle["goal"]
    players = [b for b in state.bots if not b.target and b.drone_of is None]
    if goal["type"] == "destroy":
        return sum(1 for b in state.bots if b.id in goal["targets"] and b.lives > 0) * 100
    if goal["type"] == "checkpoint":

        def left(bot):
            if bot.at is None:
                return 999
            target = state.course.checkpoints[min(bot.next_checkpoint, goal["number"]) - 1].at
            return (goal["number"] - bot.next_checkpoint) * 20 + abs(bot.at[0] - target[0]) + abs(bot.at[1] - target[1])

        return min(left(b) for b in players)
    return 0


def solve(course, ids, beam=40):
    seed = course.puzzle["seed"]
    start = engine.new_game(course, ids)
    frontier = [(start, [])]
    for _ in range(course.puzzle["turn_limit"]):
        nxt = []
        for state, path in frontier:
            hands = site_deal(state, seed)
            options = [programs_from(hands[i], state.bot(i)) if state.bot(i).at is not None else [None] for i in ids]
            if len(ids) > 1:  # cooperative: every bot's first 60 options, all pairs (bounded)
                options = [o[:: max(1, len(o) // 60)] for o in options]
            for combo in itertools.product(*options):
                programs = {i: list(p) for i, p in zip(ids, combo, strict=True) if p is not None}
                after, _ = play(state, seed, programs)
                turn = {"hands": {i: list(h) for i, h in hands.items()}, "programs": programs}
                if after.outcome == "solved":
                    return path + [turn]
                if after.outcome is None:
                    nxt.append((after, path + [turn]))
        nxt.sort(key=lambda item: _score(item[0]))
        seen, frontier = set(), []
        for state, path in nxt:
            key = json.dumps(engine.state_to_dict(state), sort_keys=True)
            if key not in seen:
                seen.add(key)
                frontier.append((state, path))
            if len(frontier) >= beam:
                break
    return None


if __name__ == "__main__":
    course = engine.bundled_course(sys.argv[1])
    ids = [str(n) for n in range(1, course.puzzle["players"] + 1)]
    print(json.dumps(solve(course, ids, beam=int(sys.argv[2]) if len(sys.argv) > 2 else 40)))
