"""Random legal RAMbots games: pieces are conserved, objects stay on distinct squares on the board,
resolve_round is pure and deterministic, and public_view never shows a hidden goal order."""

import copy
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.kinds import rambots as rb
from engine.kinds.rambots.players import random_program
from tests.profiles import examples


def census(state) -> Counter:
    total = Counter()
    for player in state["players"]:
        total.update(player["pool"])
        total.update(player["goals"])
    return total


def check_board(state) -> None:
    squares = [tuple(p["bot"]["at"]) for p in state["players"]] + [tuple(b["at"]) for b in state["beacons"]]
    assert len(set(squares)) == len(squares), squares
    assert all(0 <= x < 8 and 0 <= y < 8 for x, y in squares)
    dirs = [p["bot"]["dir"] for p in state["players"]] + [b["dir"] for b in state["beacons"]]
    assert all(d in rb.PROGRAM_DIRS for d in dirs)


def check_view(state) -> None:
    revealed = all(p["goals_built"] for p in state["players"])
    for viewer in [None, *[p["id"] for p in state["players"]]]:
        view = rb.public_view(state, viewer)
        json.dumps(view)
        for seen, real in zip(view["players"], state["players"], strict=True):
            maker = rb.goal_maker(state, real["id"])
            allowed = viewer == maker or (viewer == real["id"] and revealed)
            assert seen["goals"] == (real["goals"] if allowed else None)
            assert seen["goals_left"] == len(real["goals"])
            assert seen["goal_top"] == (real["goals"][0] if revealed and real["goals"] else None)


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 10**6), count=st.integers(2, 4), rounds=st.integers(1, 12),
       eject_at=st.integers(0, 15))
def test_random_games_keep_their_invariants(seed, count, rounds, eject_at):
    ids = [str(n) for n in range(1, count + 1)]
    rng = random.Random(seed)
    state = rb.new_game(ids, seed=seed)
    start = census(state)
    check_view(state)
    stacks = {pid: rb.random_goal_stack(state, pid, seed=seed + n) for n, pid in enumerate(ids)}
    state, _ = rb.set_goal_stacks(state, stacks)
    assert census(state) == start
    for round_number in range(rounds):
        if state["phase"] != "programming":
            break
        if round_number == eject_at and count > 2:
            state, _ = rb.remove_players(state, [ids[-1]])
        check_view(state)
        programs = {p["id"]: random_program(state, p["id"], rng) for p in state["players"] if not p["out"]}
        for pid, program in programs.items():
            assert rb.program_problem(state, pid, program) is None
        before = copy.deepcopy(state)
        after, events = rb.resolve_round(state, programs)
        assert state == before  # never mutates its input
        assert rb.resolve_round(state, copy.deepcopy(programs)) == (after, events)  # deterministic
        json.dumps(after)
        json.dumps(events)
        assert census(after) == start
        check_board(after)
        assert all(e["type"] in EVENT_TYPES for e in events)
        assert all(p["tagged"] + len(p["goals"]) == 4 for p in after["players"])
        if after["winner"] is not None:
            assert after["phase"] == "over" and events[-1] == {"type": "won", "player": after["winner"]}
            assert {p["id"]: p for p in after["players"]}[after["winner"]]["goals"] == []
        state = after
    check_view(state)


EVENT_TYPES = {"goal_stacks_revealed", "instruction", "reoriented", "moved", "blocked", "rammed", "stolen", "tipped",
               "tagged", "beam", "set_upright", "precedence_rotated", "won", "removed"}
