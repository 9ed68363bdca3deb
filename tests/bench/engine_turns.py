"""Benchmark: resolve turns with random legal programs on the largest bundled course and on the showcase
course with every element (Element Expo), as many bots as each seats (up to 8). Prints, per course, turns
per second, p50/p99 milliseconds per turn and the serialized state size.

Then the modules comparison on Element Expo with 8 bots: the same turns with every module available, each
bot starting with a random module (seeded) installed and charged (50-99 charges, a full battery, so that
modules stay active through the run), activating it whenever it has a charge
(random legal phases, aim, order; the hand is passed, so Turbo and Crab Legs find their spare move chip)
and charging it otherwise. It prints the modules-off p50, the modules-on p50 and their ratio (target <=
1.5), and the modules-off p50 of commit e54d47c (before the hook refactor) timed in the same run in a
subprocess, or "baseline unavailable" without git. The three are timed in alternation, three rounds each,
and each figure is its best round's p50, so that a load change during the run favours none of them. The
baseline is compared with this engine timed the same way, each in a fresh subprocess (a process that has
just run the modules games has a larger heap, which costs the figure timed in it a few percent).

`--against REV` (issue 36) compares this tree's engine with another git revision's instead: REV's `engine/`
is extracted (`git archive`) into a temporary directory, and both engines are timed in fresh subprocesses in
alternation, ROUNDS rounds each, in the same run: modules off on the largest course and on Element Expo,
then each ruleset on its largest race (tests/bench/rulesets.py). Per measurement it prints REV's best p50,
this tree's best p50 and their ratio.

Run: make bench-engine  (or .venv/bin/python tests/bench/engine_turns.py [turns] [course-slug ...])
     make bench-engine BENCH_ARGS="--against main"  (or ... engine_turns.py --against REV [turns])
"""

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import engine

# Enough lives that all 8 bots stay in the race: every measured turn resolves 8 programs.
LIVES = 99
GAME_SEED = 20261122
SHOWCASE = "element-expo"
BASELINE = "e54d47c"  # the last commit before the engine's hook refactor
ROOT = Path(__file__).resolve().parents[2]


def largest() -> str:
    slugs = [s for s in engine.bundled_slugs() if "roboracer" in engine.bundled_course(s).rulesets]
    return max(slugs, key=lambda s: (lambda c: c.width * c.height)(engine.bundled_course(s)))


def main(turns: int = 2000, slugs: list[str] | None = None) -> None:
    off = {}
    for slug in slugs or [largest(), SHOWCASE]:
        off[slug] = run(slug, turns)
    if not slugs or SHOWCASE in slugs:
        compare_modules(turns, off.get(SHOWCASE))


def _bots(course) -> list[str]:
    return [str(n) for n in range(1, min(8, course.players[1]) + 1)]


def _programs(state, hands, turn):
    return {
        bot_id: engine.random_program(state.bot(bot_id), hand, engine.derive_seed(GAME_SEED, turn, bot_id))
        for bot_id, hand in hands.items()
        if getattr(state.bot(bot_id), "drone_of", None) is None
    }


def time_turns(slug: str, turns: int) -> tuple[list[float], object, int]:
    """Modules-off timings (ms) of `turns` turns; only API that commit e54d47c has too."""
    course = engine.bundled_course(slug)
    bots = _bots(course)
    state = engine.new_game(course, bots, lives=LIVES)
    timings = []
    games = 1
    for turn in range(turns):
        if state.finished:
            state, games = engine.new_game(course, bots, lives=LIVES), games + 1
        hands = engine.deal(state, engine.derive_seed(GAME_SEED, turn, "deal"))
        programs = _programs(state, hands, turn)
        started = time.perf_counter()
        state, _events = engine.resolve_turn(state, programs, engine.derive_seed(GAME_SEED, turn, "resolve"))
        timings.append((time.perf_counter() - started) * 1000)
    return timings, state, games


def run(slug: str, turns: int) -> list[float]:
    course = engine.bundled_course(slug)
    timings, state, games = time_turns(slug, turns)
    bots = _bots(course)
    timings = sorted(timings)
    size = len(json.dumps(engine.state_to_dict(state), separators=(",", ":")).encode())
    print(f"course: {slug} ({course.width}x{course.height}), bots: {len(bots)}, turns: {turns}, games: {games}")
    print(f"turns per second: {1000 * len(timings) / sum(timings):.0f}")
    print(f"p50 ms per turn: {statistics.median(timings):.3f}")
    print(f"p99 ms per turn: {timings[int(len(timings) * 0.99) - 1]:.3f}")
    print(f"serialized state: {size} bytes")
    return timings


# --- modules on ---------------------------------------------------------------------------------------


def _modules_game(course, bots, rng):
    from engine.state import MAX_BATTERY, Bot

    state = engine.new_game(course, bots, lives=LIVES, modules=engine.MODULE_NAMES)
    armed = [
        Bot(**{**bot.__dict__, "module": rng.choice(engine.MODULE_NAMES), "charges": rng.randint(50, 99),
               "battery": MAX_BATTERY})
        for bot in state.bots
    ]
    return state.with_bots(armed)


def random_activation(module: str, rng: random.Random) -> dict:
    """A random activation of the shape `module` takes (also tests/bench/golden.py's)."""
    from engine.modules import MODULES

    shape = MODULES[module].activation
    if shape == "phase":
        return {"phases": [rng.randint(1, 5)]}
    if shape == "two_phases":
        first = rng.randint(1, 4)
        return {"phases": [first, first + 1]}
    if shape == "turret":
        return {"aim": rng.choice("LRB"), "front": rng.random() < 0.5}
    if shape == "prioritizer":
        return {"order": rng.choice(("first", "last"))}
    return {}


def _actions(state, hands, programs, rng) -> dict:
    """Activate whenever there is a charge (legal choices), else charge one; nothing when neither is legal."""
    from engine.modules.actions import action_problem, available_charges

    actions = {}
    prices = state.prices
    for bot_id, program in programs.items():
        bot = state.bot(bot_id)
        if bot.module is None or bot.at is None or bot.rebooting:
            continue
        tries = []
        if available_charges(bot) >= 1:
            tries.append({"activate": random_activation(bot.module, rng)})
        tries.append({"charge": 1})
        for action in tries:
            if action_problem(bot, action, prices=prices, hand=hands[bot_id], program=program) is None:
                actions[bot_id] = action
                break
    return actions


def time_module_turns(slug: str, turns: int) -> tuple[list[float], dict[str, int]]:
    course = engine.bundled_course(slug)
    bots = _bots(course)
    rng = random.Random(GAME_SEED)
    state = _modules_game(course, bots, rng)
    timings = []
    counts: dict[str, int] = {}
    for turn in range(turns):
        if state.finished:
            state = _modules_game(course, bots, rng)
        hands = engine.deal(state, engine.derive_seed(GAME_SEED, turn, "deal"))
        programs = _programs(state, hands, turn)
        actions = _actions(state, hands, programs, rng)
        started = time.perf_counter()
        state, _events = engine.resolve_turn(
            state, programs, engine.derive_seed(GAME_SEED, turn, "resolve"), actions=actions, hands=hands
        )
        timings.append((time.perf_counter() - started) * 1000)
        for event in _events:
            if event["type"].startswith("module_") or "module" in event:
                counts[event["type"]] = counts.get(event["type"], 0) + 1
    return timings, counts


def subprocess_p50(slug: str, turns: int, engine_root: str, mode: str = "--off-p50") -> float | None:
    """The modules-off p50 of the engine under `engine_root`, timed in a fresh subprocess (None if it did
    not run that engine). `mode` "--ruleset-p50" times the ruleset named `slug` on its largest race."""
    env = {**os.environ, "PYTHONPATH": engine_root}
    done = subprocess.run(
        [sys.executable, __file__, mode, str(turns), slug], env=env, cwd=engine_root, capture_output=True,
        text=True,
    )
    lines = done.stdout.split()
    if done.returncode != 0 or len(lines) != 2 or not lines[0].startswith(engine_root):
        return None
    return float(lines[1])


def extract_engine(rev: str, into: str) -> bool:
    """REV's `engine/` package into the directory `into` (git archive); False without git or the revision."""
    try:
        archive = subprocess.run(["git", "archive", rev, "engine"], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", into], input=archive, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


def baseline_p50(slug: str, turns: int) -> float | None:
    """The modules-off p50 of commit e54d47c's engine, timed here in a subprocess (None without git)."""
    with tempfile.TemporaryDirectory() as tmp:
        if not extract_engine(BASELINE, tmp):
            return None
        return subprocess_p50(slug, turns, tmp)


def against(rev: str, turns: int) -> int:
    """This tree's engine and REV's, timed in alternation in fresh subprocesses (ROUNDS rounds each)."""
    commit = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    with tempfile.TemporaryDirectory() as tmp:
        if commit.returncode != 0 or not extract_engine(rev, tmp):
            print(f"--against {rev}: no such revision (git archive failed)", file=sys.stderr)
            return 2
        import rulesets as ruleset_bench  # tests/bench/rulesets.py, beside this file

        measures = [("--off-p50", slug, f"course {slug}, modules off") for slug in (largest(), SHOWCASE)]
        measures += [("--ruleset-p50", name, f"ruleset {name}, {ruleset_bench.largest(name).name}")
                     for name in engine.rulesets.available()]  # fmt: skip
        dirty = subprocess.run(["git", "status", "--porcelain", "engine"], cwd=ROOT, capture_output=True, text=True)
        print(f"engine of {rev} ({commit.stdout.strip()}) against this tree (HEAD {head.stdout.strip()}"
              f"{', with uncommitted changes' if dirty.stdout.strip() else ''}), {turns} turns, "
              f"best p50 of {ROUNDS} alternating rounds, each in a fresh subprocess")  # fmt: skip
        for mode, name, what in measures:
            theirs, ours = [], []
            for _ in range(ROUNDS):
                for root, into in ((tmp, theirs), (str(ROOT), ours)):
                    found = subprocess_p50(name, turns, root, mode)
                    if found is None:
                        print(f"{what}: the subprocess failed under {root}", file=sys.stderr)
                        return 1
                    into.append(found)
            before, after = min(theirs), min(ours)
            print(f"{what}: {rev} p50 {before:.3f} ms, this tree p50 {after:.3f} ms, "
                  f"ratio {after / before:.2f}")  # fmt: skip
    return 0


ROUNDS = 3  # the comparison's variants run in turns, ROUNDS times each; each figure is its best round's p50


def compare_modules(turns: int, off: list[float] | None) -> None:
    """Modules off, modules on and the baseline, timed in alternation ROUNDS times: the machine's load
    changes over a run, and a variant timed only early or only late would be compared with another's luck.
    Each figure is the lowest p50 of its rounds."""
    course = engine.bundled_course(SHOWCASE)
    offs = [statistics.median(off)] if off is not None else []
    ons, bases, fresh_offs = [], [], []
    counts: dict[str, int] = {}
    for _ in range(ROUNDS):
        if len(offs) < ROUNDS:
            offs.append(statistics.median(time_turns(SHOWCASE, turns)[0]))
        on, counts = time_module_turns(SHOWCASE, turns)
        ons.append(statistics.median(on))
        base = baseline_p50(SHOWCASE, turns)
        if base is not None:
            bases.append(base)
            # This engine timed the same way (a fresh subprocess), for a like-for-like comparison.
            fresh = subprocess_p50(SHOWCASE, turns, str(ROOT))
            if fresh is not None:
                fresh_offs.append(fresh)
    off_p50, on_p50 = min(offs), min(ons)
    print(f"modules: {SHOWCASE} ({course.width}x{course.height}), bots: {len(_bots(course))}, turns: {turns}, "
          f"best of {ROUNDS} alternating rounds")
    print(f"modules-off p50 ms per turn: {off_p50:.3f}")
    print(f"modules-on p50 ms per turn: {on_p50:.3f}")
    print("modules-on events: " + ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())))
    print(f"modules-on / modules-off p50 ratio: {on_p50 / off_p50:.2f} (target <= 1.5)")
    if not bases:
        print(f"baseline ({BASELINE}) modules-off p50: baseline unavailable")
    else:
        base = min(bases)
        print(f"baseline ({BASELINE}) modules-off p50 ms per turn (fresh subprocess): {base:.3f}")
        if fresh_offs:
            fresh = min(fresh_offs)
            print(f"this engine modules-off p50 ms per turn (fresh subprocess): {fresh:.3f}")
            print(f"modules-off p50 / baseline p50 ratio: {fresh / base:.2f} (target <= 1.00, noise about 0.03)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--off-p50"]:  # the baseline subprocess: engine from PYTHONPATH
        print(engine.__file__, f"{statistics.median(time_turns(sys.argv[3], int(sys.argv[2]))[0]):.6f}")
    elif sys.argv[1:2] == ["--ruleset-p50"]:  # a ruleset on its largest race: engine from PYTHONPATH
        import rulesets as ruleset_bench  # tests/bench/rulesets.py, beside this file

        print(engine.__file__, f"{statistics.median(ruleset_bench.time_ruleset(sys.argv[3], int(sys.argv[2]))[0]):.6f}")
    elif sys.argv[1:2] == ["--against"] and len(sys.argv) > 2:
        sys.exit(against(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1000))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, sys.argv[2:])
