"""Benchmark: how strong the RAMbots computer players are, and how fast they decide.

Each pairing plays seeded 2-player games (each side seated first in half of them), at most 40 rounds; a game
nobody won goes to the player with more goals tagged (equal: a draw). Prints win rates, rounds per game, and
each strength's ms per decision (p50/p99) and engine calls per decision, and checks the targets (issue 40:
Hard beats Normal >= 70%); it exits 1 when one is missed.

Run: make bench-rambots  (or .venv/bin/python tests/bench/rambots_bots.py [games per pairing, default 100])
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.kinds import rambots as rb  # noqa: E402
from engine.kinds.rambots import players  # noqa: E402

PAIRINGS = (("normal", "easy"), ("easy", "random"), ("hard", "normal"), ("normal", "random"))
TARGETS = {("hard", "normal"): 0.70}
MAX_ROUNDS = 40


class Counting:
    """Counts the engine calls a decision makes (resolve_round and execute_instruction)."""

    def __init__(self) -> None:
        self.calls = 0
        self.real = (players.resolve_round, players.execute_instruction)

    def __enter__(self):
        def resolve(*a, **k):
            self.calls += 1
            return self.real[0](*a, **k)

        def execute(*a, **k):
            self.calls += 1
            return self.real[1](*a, **k)

        players.resolve_round, players.execute_instruction = resolve, execute
        return self

    def __exit__(self, *exc):
        players.resolve_round, players.execute_instruction = self.real


def game(seats: dict[str, str], seed: int, timings: dict[str, list]) -> dict:
    state = rb.new_game(list(seats), seed=seed)
    stacks = {}
    for pid, strength in seats.items():
        stacks[pid] = (rb.random_goal_stack(state, pid, seed=seed) if strength == "random"
                       else players.choose_goal_stack(state, pid, strength=strength, seed=seed))
    state, _ = rb.set_goal_stacks(state, stacks)
    rng = random.Random(seed)
    while state["phase"] == "programming" and state["round"] <= MAX_ROUNDS:
        programs = {}
        for pid, strength in seats.items():
            if strength == "random":
                programs[pid] = players.random_program(state, pid, rng)
                continue
            with Counting() as counter:
                started = time.perf_counter()
                programs[pid] = players.choose(state, pid, strength=strength, seed=seed)
                timings.setdefault(strength, []).append((time.perf_counter() - started, counter.calls))
        state, _ = rb.resolve_round(state, programs)
    return state


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    timings: dict[str, list] = {}
    missed = []
    for first, second in PAIRINGS:
        wins = {first: 0, second: 0, "draw": 0}
        rounds = []
        for seed in range(games):
            seats = {"1": first, "2": second} if seed % 2 == 0 else {"1": second, "2": first}
            final = game(seats, seed, timings)
            rounds.append(final["round"])
            tagged = {seats[p["id"]]: p["tagged"] for p in final["players"]}
            if final["winner"]:
                wins[seats[final["winner"]]] += 1
            elif tagged[first] != tagged[second]:
                wins[max(tagged, key=tagged.get)] += 1
            else:
                wins["draw"] += 1
        target = TARGETS.get((first, second))
        verdict = ""
        if target is not None:
            met = wins[first] / games >= target
            verdict = f"  target >= {target:.0%}: " + ("met" if met else "MISSED")
            if not met:
                missed.append(f"{first} vs {second}")
        print(f"{first:>6} vs {second:<6}: {first} {wins[first] / games:6.1%}  {second} {wins[second] / games:6.1%}  "
              f"draws {wins['draw'] / games:5.1%}  rounds/game {statistics.mean(rounds):5.1f}  ({games} games){verdict}")
    for strength, samples in sorted(timings.items()):
        ms = sorted(seconds * 1000 for seconds, _ in samples)
        calls = [c for _, c in samples]
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(f"{strength:>6}: {statistics.median(ms):6.1f} ms p50, {p99:6.1f} ms p99 per decision; "
              f"engine calls mean {statistics.mean(calls):5.1f}, max {max(calls)} (budget {players.BUDGETS[strength]}); "
              f"{len(samples)} decisions")
    print("all targets met" if not missed else f"targets missed: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
