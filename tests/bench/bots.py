"""Benchmark: how strong the computer players are, and how fast they decide (issue 20, issue 40).

Seeded races (`bots_play.race`), each side seated first in half of them; a race unfinished after 100 turns is a
loss for every robot. Every figure is printed with the number of races behind it.

- **races**: every pairing of Easy, Normal, Hard and a random player, 2-player races on Maglev Freightyard,
  Cogwheel Crossing and Bolt Bay (roboracer). Targets: Hard beats Normal >= 75%, Normal beats Easy >= 85%,
  Easy beats random >= 95%.
- **rulesets**: Hard against Normal under classic, fused and roborace, on each ruleset's two bundled races.
  Target: Hard wins >= 65% under each.
- **four**: 4-bot races (Hard, Normal, Hard, Normal, seats rotating) on Maglev Freightyard and Cogwheel Crossing.
- **decisions**: each strength's CPU ms per decision (p50/p99) and engine calls per decision and per CPU second;
  Hard's p99 in 2-player races and in 4-bot races. Target: Hard's p99 <= 1000 ms in both.
- **eight**: Normal on an 8-bot 16x24 course (Maglev Freightyard). Target: p99 <= 2000 ms.
- **puzzles**: the solver on every bundled puzzle, every seat: turns needed against the puzzle's limit.
  Target: every puzzle solved within its limit.

`--against REV` runs the same races with REV's engine and computer players (`git archive` of REV's `engine/`
into a temporary directory, run in a subprocess), then this tree's, in one run on one machine, and prints
both side by side. It exits 1 when this tree misses a target.

Run: make bench-bots [BENCH_ARGS="--games 40 --against main"]
     .venv/bin/python tests/bench/bots.py [--games 200] [--processes 2] [--sections races,rulesets,four,eight,puzzles]
                                          [--only hard-normal,...] [--against REV]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, os.environ.get("BOTS_TREE") or str(ROOT))  # the engine under test: this tree's, or REV's

import bots_play  # noqa: E402 - after the path

SECTIONS = ("races", "rulesets", "four", "eight", "puzzles")
COURSES = ("maglev-freightyard", "cogwheel-crossing", "bolt-bay")
PAIRINGS = (("hard", "normal"), ("normal", "easy"), ("easy", "random"),
            ("hard", "easy"), ("hard", "random"), ("normal", "random"))  # fmt: skip
TARGETS = {("hard", "normal"): 0.75, ("normal", "easy"): 0.85, ("easy", "random"): 0.95}
RULESETS = {"classic": ("classic-conveyor-court", "classic-express-yard"),
            "fused": ("fused-foundry", "fused-gauntlet"),
            "roborace": ("roborace-factory-hall", "roborace-press-line")}  # fmt: skip
RULESET_TARGET = 0.65
FOUR_COURSES = ("maglev-freightyard", "cogwheel-crossing")
HARD_P99 = 1.0  # seconds
EIGHT_P99 = 2.0
SEED = 20261127
STRENGTHS = ("easy", "normal", "hard")


def _jobs(courses, ruleset: str, a: str, b: str, games: int) -> list:
    return [(courses[game % len(courses)], ruleset, (a, b) if game % 2 == 0 else (b, a), SEED + game)
            for game in range(games)]  # fmt: skip


def run(games: int, processes: int, sections: list[str], only: list[str]) -> dict:
    """Every race of the chosen sections: the plain-data figures `report` prints."""
    out: dict = {"pairings": [], "decisions": [], "four": None, "eight": None, "puzzles": None}
    plan = []
    if "races" in sections:
        plan += [("roboracer", COURSES, a, b) for a, b in PAIRINGS]
    if "rulesets" in sections:
        plan += [(name, courses, "hard", "normal") for name, courses in RULESETS.items()]
    plan = [p for p in plan if not only or f"{p[2]}-{p[3]}" in only or p[0] in only]
    with multiprocessing.Pool(processes) as pool:
        for ruleset, courses, a, b in plan:
            started = time.perf_counter()
            results = pool.map(bots_play.race, _jobs(courses, ruleset, a, b, games), chunksize=1)
            wins = {a: 0, b: 0}
            turns: dict[str, list[int]] = {a: [], b: []}
            for result in results:
                if result["winner"] in wins:
                    wins[result["winner"]] += 1
                    turns[result["winner"]].append(result["turns"])
                out["decisions"] += result["decisions"]
            out["pairings"].append({"ruleset": ruleset, "a": a, "b": b, "games": games, "wins": wins,
                                    "turns": {k: statistics.mean(v) if v else 0 for k, v in turns.items()},
                                    "seconds": time.perf_counter() - started})  # fmt: skip
        if "four" in sections:
            count = max(4, games // 10)
            seats = ("hard", "normal", "hard", "normal")
            jobs = [(FOUR_COURSES[g % 2], "roboracer", seats[g % 4:] + seats[: g % 4], SEED + g) for g in range(count)]
            results = pool.map(bots_play.race, jobs, chunksize=1)
            wins = {"hard": 0, "normal": 0}
            for result in results:
                if result["winner"] in wins:
                    wins[result["winner"]] += 1
                out["decisions"] += result["decisions"]
            out["four"] = {"games": count, "wins": wins}
    if "eight" in sections:
        out["eight"] = bots_play.eight_bots()
    if "puzzles" in sections:
        out["puzzles"] = bots_play.puzzles()
        out["no_solver"] = out["puzzles"] is None
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def summary(out: dict) -> dict:
    """The figures each target is checked on, by name."""
    figures: dict = {}
    for p in out["pairings"]:
        figures[f"{p['ruleset']} {p['a']} vs {p['b']}"] = (p["wins"][p["a"]] / p["games"], p["wins"][p["b"]] / p["games"],
                                                          p["games"])  # fmt: skip
    for strength in STRENGTHS:
        for bots, label in ((2, "2-player"), (4, "4-bot")):
            found = [(s, c) for name, s, c, n in out["decisions"] if name == strength and n == bots]
            if found:
                seconds = [s for s, _ in found]
                calls = [c for _, c in found]
                figures[f"{strength} {label}"] = {"decisions": len(found), "p50": _pct(seconds, 0.5),
                                                  "p99": _pct(seconds, 0.99), "calls": statistics.mean(calls),
                                                  "per_second": sum(calls) / max(1e-9, sum(seconds))}  # fmt: skip
    return figures


def report(label: str, out: dict) -> list[str]:
    """Print one tree's figures against the targets; returns the targets it missed."""
    missed = []
    figures = summary(out)
    print(f"== {label}")
    for p in out["pairings"]:
        a, b, games = p["a"], p["b"], p["games"]
        rate = p["wins"][a] / games
        target = TARGETS.get((a, b)) if p["ruleset"] == "roboracer" else RULESET_TARGET
        verdict = ""
        if target is not None:
            verdict = f"  target >= {target:.0%}: " + ("met" if rate >= target else "MISSED")
            if rate < target:
                missed.append(f"{p['ruleset']} {a} vs {b}")
        print(f"  {p['ruleset']:>9} {a:>6} vs {b:<6} ({games} races): {a} {rate:6.1%}  {b} {p['wins'][b] / games:6.1%}  "
              f"neither {games - p['wins'][a] - p['wins'][b]}  turns to win {p['turns'][a]:.1f} / {p['turns'][b]:.1f}"
              f"  ({p['seconds']:.0f} s){verdict}")  # fmt: skip
    if out["four"]:
        four = out["four"]
        print(f"  4-bot races (Hard, Normal, Hard, Normal; {four['games']} races): Hard won {four['wins']['hard']}, "
              f"Normal {four['wins']['normal']}")  # fmt: skip
    for name, found in figures.items():
        if isinstance(found, dict):
            verdict = ""
            if name.startswith("hard"):
                ok = found["p99"] <= HARD_P99
                verdict = f"  target p99 <= {HARD_P99 * 1000:.0f} ms: " + ("met" if ok else "MISSED")
                if not ok:
                    missed.append(f"{name} p99")
            print(f"  {name:>16}: {found['decisions']} decisions, CPU p50 {found['p50'] * 1000:.0f} ms, p99 "
                  f"{found['p99'] * 1000:.0f} ms, engine calls per decision {found['calls']:.0f}, engine calls per "
                  f"CPU second {found['per_second']:.0f}{verdict}")  # fmt: skip
    if out["eight"]:
        p99 = _pct(out["eight"], 0.99)
        ok = p99 <= EIGHT_P99
        print(f"  Normal, 8-bot 16x24 course: {len(out['eight'])} decisions, p50 {_pct(out['eight'], 0.5) * 1000:.0f} ms,"
              f" p99 {p99 * 1000:.0f} ms  target p99 <= {EIGHT_P99 * 1000:.0f} ms: {'met' if ok else 'MISSED'}")
        if not ok:
            missed.append("Normal's 8-bot p99")
    if out.get("no_solver"):
        print("  puzzles: this revision has no solver")
    for row in out["puzzles"] or []:
        ok = row["solved"]
        turns = "unsolved" if row["turns"] is None else f"{row['turns']} turns"
        print(f"  puzzle {row['slug']:<22} ({row['goal']}, {row['seats']} seat{'s' if row['seats'] > 1 else ''}): "
              f"{turns} of {row['limit']} allowed, {row['calls'] or 0} engine calls, {row['seconds']:.2f} s  "
              f"target: solved within the limit: {'met' if ok else 'MISSED'}")  # fmt: skip
        if not ok:
            missed.append(f"puzzle {row['slug']}")
    return missed


def side_by_side(rev: str, before: dict, after: dict) -> None:
    print(f"== before ({rev}) and after (this tree), one run on one machine")
    old, new = summary(before), summary(after)
    for name in new:
        if name not in old:
            continue
        a, b = old[name], new[name]
        if isinstance(b, tuple):
            print(f"  {name:>28}: {a[0]:6.1%} -> {b[0]:6.1%}  ({b[2]} races each)")
        else:
            print(f"  {name:>28}: p50 {a['p50'] * 1000:4.0f} -> {b['p50'] * 1000:4.0f} ms, p99 {a['p99'] * 1000:4.0f} -> "
                  f"{b['p99'] * 1000:4.0f} ms, calls/decision {a['calls']:4.0f} -> {b['calls']:4.0f}, calls per CPU "
                  f"second {a['per_second']:5.0f} -> {b['per_second']:5.0f}")  # fmt: skip


def in_subprocess(tree: str, args: argparse.Namespace) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [sys.executable, __file__, "--games", str(args.games), "--processes", str(args.processes),
                   "--sections", ",".join(args.sections), "--only", ",".join(args.only), "--json", out.name]
        subprocess.run(command, check=True, env={**os.environ, "BOTS_TREE": tree})
        return json.loads(Path(out.name).read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="races per pairing (default 200)")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--sections", type=lambda v: [s for s in v.split(",") if s], default=list(SECTIONS))
    parser.add_argument("--only", type=lambda v: [s for s in v.split(",") if s], default=[],
                        help="pairings (hard-normal) or rulesets (classic) to play; default all")
    parser.add_argument("--against", metavar="REV", help="also run REV's engine and players, in the same run")
    parser.add_argument("--json", help=argparse.SUPPRESS)  # the subprocess of --against writes its figures here
    args = parser.parse_args()
    if args.json:
        Path(args.json).write_text(json.dumps(run(args.games, args.processes, args.sections, args.only)))
        return 0
    print(f"computer players: {args.games} races per pairing, {args.processes} processes, sections "
          f"{', '.join(args.sections)}", flush=True)
    if not args.against:
        missed = report("this tree", run(args.games, args.processes, args.sections, args.only))
    else:
        commit = subprocess.run(["git", "rev-parse", "--short", args.against], cwd=ROOT, capture_output=True, text=True)
        with tempfile.TemporaryDirectory() as tree:
            archive = subprocess.run(f"git archive {args.against} engine | tar -x -C {tree}", shell=True, cwd=ROOT)
            if commit.returncode != 0 or archive.returncode != 0:
                print(f"--against {args.against}: no such revision", file=sys.stderr)
                return 2
            before = in_subprocess(tree, args)
        after = in_subprocess(str(ROOT), args)
        report(f"before: {args.against} ({commit.stdout.strip()})", before)
        missed = report("after: this tree", after)
        side_by_side(args.against, before, after)
    print("all targets met" if not missed else f"targets missed: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
