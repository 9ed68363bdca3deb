"""Every bundled puzzle ships with a solution (tests/engine/puzzle_solutions.json) that plays to "solved"
through the engine, dealt exactly as the site deals a puzzle game: the game seed is the puzzle's seed
(engine.derive_seed(seed, turn, "deal") for the hands, "resolve" for the turn)."""

import json
from collections import Counter
from pathlib import Path

import pytest

import engine

SOLUTIONS = json.loads((Path(__file__).parent / "puzzle_solutions.json").read_text())
PUZZLES = [slug for slug in engine.bundled_slugs() if engine.bundled_course(slug).mode == "puzzle"]


def test_the_bundled_content_of_issue_16():
    modes = Counter(engine.bundled_course(slug).mode for slug in engine.bundled_slugs())
    assert modes["arena"] >= 2 and modes["puzzle"] >= 5
    cooperative = [slug for slug in PUZZLES if engine.bundled_course(slug).puzzle["players"] >= 2]
    assert len(cooperative) >= 2
    assert sorted(SOLUTIONS) == sorted(PUZZLES), "every bundled puzzle ships with a solution"
    team_courses = [slug for slug in ("twin-lanes", "divided-yard") if engine.bundled_course(slug).players[0] >= 4]
    assert len(team_courses) == 2


@pytest.mark.parametrize("slug", PUZZLES)
def test_the_shipped_solution_solves_the_puzzle(slug):
    course = engine.bundled_course(slug)
    seed = course.puzzle["seed"]
    ids = [str(n) for n in range(1, course.puzzle["players"] + 1)]
    state = engine.new_game(course, ids)
    for number, turn in enumerate(SOLUTIONS[slug], start=1):
        assert state.outcome is None and state.turn == number
        hands = engine.deal(state, engine.derive_seed(seed, state.turn, "deal"))
        assert sorted(hands) == ids, "target bots are dealt no hand"
        for bot_id, program in turn["programs"].items():
            assert not Counter(program) - Counter(hands[bot_id]), f"turn {number}: {program} is not from {hands[bot_id]}"
        state, _ = engine.resolve_turn(state, turn["programs"], engine.derive_seed(seed, state.turn, "resolve"))
    assert state.outcome == "solved" and state.finished
    assert state.turn - 1 <= course.puzzle["turn_limit"]


@pytest.mark.parametrize("slug", PUZZLES)
def test_doing_nothing_does_not_solve_it(slug):
    """The puzzles are not solved by standing still (except a survive goal, which idles may well meet)."""
    course = engine.bundled_course(slug)
    if course.puzzle["goal"]["type"] == "survive":
        pytest.skip("standing still may survive")
    ids = [str(n) for n in range(1, course.puzzle["players"] + 1)]
    state = engine.new_game(course, ids)
    while not state.finished:
        state, _ = engine.resolve_turn(state, {bot_id: ["0"] * 5 for bot_id in ids}, state.turn)
    assert state.outcome == "failed"
