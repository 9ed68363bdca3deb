"""The games `tests/bench/bots.py` plays (issue 20, issue 40): seeded races between computer players, Normal on
an 8-bot course, and the puzzle solver on every bundled puzzle. Plain functions of the `engine` on sys.path, so
that `bots.py --against REV` can run them on another revision's engine and players (`BOTS_TREE`).
"""

from __future__ import annotations

import time

import engine
from engine import players

MAX_TURNS = 100  # a race unfinished after this many turns is a loss for every robot


def race(args: tuple[str, str, tuple[str, ...], int]) -> dict:
    """One seeded race on `slug` under `ruleset`, seat n played by `seats[n - 1]` ("random": random legal
    programs). Returns the winning seat's strength (or None), the turns, and every decision as (strength,
    CPU seconds, engine calls, seats in the race)."""
    slug, ruleset, seats, seed = args
    course = engine.bundled_course(slug)
    ids = [str(n) for n in range(1, len(seats) + 1)]
    strengths = dict(zip(ids, seats, strict=True))
    state = engine.new_game(course, ids, lives=3, ruleset=ruleset)
    decisions = []
    for turn in range(1, MAX_TURNS + 1):
        hands = engine.deal(state, engine.derive_seed(seed, turn, "deal"))
        programs, reboots, actions = {}, [], {}
        for bot_id, hand in hands.items():
            strength = strengths[bot_id]
            if strength == "random":
                programs[bot_id] = engine.random_program(state.bot(bot_id), hand, engine.derive_seed(seed, turn, bot_id),
                                                         state.ruleset)  # fmt: skip
                continue
            started = time.process_time()
            decision = players.choose(state, bot_id, hand, strength=strength,
                                      seed=engine.derive_seed(seed, turn, f"computer-{bot_id}"))  # fmt: skip
            decisions.append((strength, time.process_time() - started, decision.engine_calls, len(seats)))
            programs[bot_id] = decision.program
            if decision.reboot:
                reboots.append(bot_id)
            if decision.action:
                actions[bot_id] = decision.action
        state, _ = engine.resolve_turn(state, programs, engine.derive_seed(seed, turn, "resolve"), reboots=reboots,
                                       actions=actions, hands=hands)  # fmt: skip
        if state.finished:
            break
    winner = strengths.get(state.winner) if state.winner is not None else None
    return {"winner": winner, "seat": state.winner, "turns": state.turn - 1, "decisions": decisions}


def eight_bots(turns: int = 6, slug: str = "maglev-freightyard") -> list[float]:
    """Normal's decision seconds on an 8-bot 16x24 course, every bot played by Normal."""
    course = engine.bundled_course(slug)
    ids = [str(n) for n in range(1, 9)]
    state = engine.new_game(course, ids, lives=3)
    times = []
    for turn in range(1, turns + 1):
        hands = engine.deal(state, engine.derive_seed(8, turn, "deal"))
        programs = {}
        for bot_id, hand in hands.items():
            started = time.process_time()
            programs[bot_id] = players.choose(state, bot_id, hand, strength="normal", seed=turn).program
            times.append(time.process_time() - started)
        state, _ = engine.resolve_turn(state, programs, turn, hands=hands)
        if state.finished:
            break
    return times


def puzzles() -> list[dict] | None:
    """The solver on every bundled puzzle, each seat played by it: the turns it needed against the puzzle's
    limit, checked by playing its programs through the engine as the site deals them. None when this revision
    has no solver."""
    try:
        from engine.players import solver
    except ImportError:
        return None
    rows = []
    for slug in engine.bundled_slugs():
        course = engine.bundled_course(slug)
        if course.mode != "puzzle":
            continue
        block = course.puzzle
        state = engine.new_game(course, [str(n) for n in range(1, block["players"] + 1)])
        started = time.process_time()
        found = solver.solve(state, block["seed"])
        seconds = time.process_time() - started
        row = {"slug": slug, "limit": block["turn_limit"], "seats": block["players"], "goal": block["goal"]["type"],
               "seconds": seconds, "turns": None, "calls": None, "solved": False}
        if found is not None:
            for programs in found.turns:
                hands = engine.deal(state, engine.derive_seed(block["seed"], state.turn, "deal"))
                state, _ = engine.resolve_turn(state, programs, engine.derive_seed(block["seed"], state.turn, "resolve"),
                                               hands=hands)  # fmt: skip
            row.update(turns=len(found.turns), calls=found.engine_calls,
                       solved=state.outcome == "solved" and len(found.turns) <= block["turn_limit"])
        rows.append(row)
    return rows
