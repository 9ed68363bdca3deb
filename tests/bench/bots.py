"""Benchmark: how strong the computer players are, and how fast they decide (issue 20).

Every pairing of Easy, Normal, Hard and a random player plays seeded 2-player races on three courses, each
side starting first in half of the games. A race unfinished after 100 turns is a loss for both. It prints,
per pairing, the win rates, the turns the winners needed, each strength's decision time p50/p99 and its engine
calls per decision, and checks the targets:

    Hard beats Normal >= 65%    Normal beats Easy >= 80%    Easy beats random >= 95%

Then a Normal decision on an 8-bot 16x24 course (Maglev Freightyard, every bot played by Normal): p50/p99
(target p99 <= 2 s).

Run: make bench-bots  (or .venv/bin/python tests/bench/bots.py [games per pairing, default 200] [processes]
[pairings, e.g. hard-normal,easy-random; default all])
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import sys
import time

import engine
from engine import players

COURSES = ("maglev-freightyard", "cogwheel-crossing", "bolt-bay")
PAIRINGS = (("hard", "normal"), ("normal", "easy"), ("easy", "random"),
            ("hard", "easy"), ("hard", "random"), ("normal", "random"))
TARGETS = {("hard", "normal"): 0.65, ("normal", "easy"): 0.80, ("easy", "random"): 0.95}
MAX_TURNS = 100
EIGHT_BOT_COURSE = "maglev-freightyard"


def play(args: tuple[str, str, str, int]) -> dict:
    """One seeded 2-player race; seat 1 is `first`. Returns the winner's strength (or None), the turns, and
    the decisions' (strength, seconds, engine calls)."""
    slug, first, second, seed = args
    course = engine.bundled_course(slug)
    strengths = {"1": first, "2": second}
    state = engine.new_game(course, ["1", "2"], lives=3)
    decisions = []
    for turn in range(1, MAX_TURNS + 1):
        hands = engine.deal(state, engine.derive_seed(seed, turn, "deal"))
        programs, reboots, actions = {}, [], {}
        for bot_id, hand in hands.items():
            strength = strengths[bot_id]
            if strength == "random":
                programs[bot_id] = engine.random_program(state.bot(bot_id), hand, engine.derive_seed(seed, turn, bot_id))
                continue
            started = time.process_time()
            decision = players.choose(state, bot_id, hand, strength=strength,
                                      seed=engine.derive_seed(seed, turn, f"computer-{bot_id}"))
            decisions.append((strength, time.process_time() - started, decision.engine_calls))
            programs[bot_id] = decision.program
            if decision.reboot:
                reboots.append(bot_id)
            if decision.action:
                actions[bot_id] = decision.action
        state, _ = engine.resolve_turn(state, programs, engine.derive_seed(seed, turn, "resolve"), reboots=reboots,
                                       actions=actions, hands=hands)
        if state.finished:
            break
    winner = strengths.get(state.winner) if state.winner is not None else None
    return {"winner": winner, "turns": state.turn - 1, "decisions": decisions, "finished": state.finished}


def eight_bots(turns: int = 6) -> list[float]:
    """Normal's decision seconds on an 8-bot 16x24 course, every bot played by Normal."""
    course = engine.bundled_course(EIGHT_BOT_COURSE)
    ids = [str(n) for n in range(1, 9)]
    state = engine.new_game(course, ids, lives=3)
    times = []
    for turn in range(1, turns + 1):
        hands = engine.deal(state, engine.derive_seed(8, turn, "deal"))
        programs = {}
        for bot_id, hand in hands.items():
            started = time.perf_counter()
            programs[bot_id] = players.choose(state, bot_id, hand, strength="normal", seed=turn).program
            times.append(time.perf_counter() - started)
        state, _ = engine.resolve_turn(state, programs, turn, hands=hands)
        if state.finished:
            break
    return times


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main(games: int = 200, processes: int | None = None, only: str = "") -> int:
    processes = processes or os.cpu_count() or 1
    pairings = [pair for pair in PAIRINGS if not only or "-".join(pair) in only.split(",")]
    print(f"computer players: {games} games per pairing on {', '.join(COURSES)}, {MAX_TURNS}-turn limit, "
          f"{processes} processes")
    failed = []
    decisions: dict[str, list[tuple[float, int]]] = {}
    with multiprocessing.Pool(processes) as pool:
        for a, b in pairings:
            jobs = []
            for game in range(games):
                slug = COURSES[game % len(COURSES)]
                first, second = (a, b) if game % 2 == 0 else (b, a)
                jobs.append((slug, first, second, 20261127 + game))
            started = time.perf_counter()
            results = pool.map(play, jobs, chunksize=2)
            wins = {a: 0, b: 0}
            turns = {a: [], b: []}
            unfinished = 0
            for result in results:
                if result["winner"] in wins:
                    wins[result["winner"]] += 1
                    turns[result["winner"]].append(result["turns"])
                elif not result["finished"] or result["winner"] is None:
                    unfinished += 1
                for strength, seconds, calls in result["decisions"]:
                    decisions.setdefault(strength, []).append((seconds, calls))
            rate = wins[a] / games
            target = TARGETS.get((a, b))
            verdict = "" if target is None else (f"  target >= {target:.0%}: " + ("met" if rate >= target else "MISSED"))
            if target is not None and rate < target:
                failed.append(f"{a} vs {b}")
            print(f"{a:>6} vs {b:<6}  {a} wins {rate:6.1%}  {b} wins {wins[b] / games:6.1%}  neither {unfinished}  "
                  f"turns to win: {a} {statistics.mean(turns[a]) if turns[a] else 0:.1f}, "
                  f"{b} {statistics.mean(turns[b]) if turns[b] else 0:.1f}  ({time.perf_counter() - started:.0f} s)"
                  f"{verdict}")
    print("decisions (CPU seconds per decision, 2-player races):")
    for strength in players.STRENGTHS:
        found = decisions.get(strength, [])
        seconds = [s for s, _ in found]
        calls = [c for _, c in found]
        print(f"  {strength:>6}: {len(found)} decisions  p50 {_pct(seconds, 0.5) * 1000:.0f} ms  "
              f"p99 {_pct(seconds, 0.99) * 1000:.0f} ms  engine calls per decision: mean "
              f"{statistics.mean(calls) if calls else 0:.0f}, max {max(calls) if calls else 0}")
    times = eight_bots()
    p99 = _pct(times, 0.99)
    print(f"Normal on an 8-bot 16x24 course ({EIGHT_BOT_COURSE}): {len(times)} decisions  p50 "
          f"{_pct(times, 0.5) * 1000:.0f} ms  p99 {p99 * 1000:.0f} ms  target p99 <= 2000 ms: "
          + ("met" if p99 <= 2.0 else "MISSED"))
    if p99 > 2.0:
        failed.append("Normal's 8-bot p99")
    print("all targets met" if not failed else f"targets missed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*(int(arg) for arg in sys.argv[1:3]), *sys.argv[3:4]))
