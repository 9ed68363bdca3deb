"""Issue 33, rules: the destroyed robots come back before the winning check, in every ruleset.

003 "Phase Steps" ends with "(Phase 5) Bots Respawn- Check winning conditions."; 001 "Mode": a destroyed robot
"will be reinstated at the end of the turn, if the player has any robots left"; 000 "Destruction": "If a robot
has been destroyed 3 times, it is out of the game". So a robot destroyed in a turn with lives (robots) left
never makes another robot "the last bot alive" in that turn. Each ruleset of `engine.rulesets` names its
scenarios here (tests/engine/scenarios/), and a new ruleset must add its own.
"""

import json
from pathlib import Path

import pytest

import engine
from engine import rulesets
from engine.scenario import parse_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
CASES = {
    "roboracer": [
        "roboracer_race_destroyed_with_lives_left_is_no_last_bot.json",
        "roboracer_arena_destroyed_with_lives_left_is_no_last_bot.json",
    ],
    "classic": [
        "classic_returns_before_the_winner_check.json",
        "classic_waiting_robot_keeps_the_race_going.json",
        "classic_waiting_robot_returns_when_a_square_is_free.json",
    ],
    "fused": [
        "fused_two_robots_destruction_does_not_end_the_race.json",
        "fused_reinstated_before_the_winner_check.json",
    ],
    "roborace": ["roborace_destroyed_robot_revitalized_no_last_bot.json"],
}


def test_every_ruleset_has_its_cases():
    assert set(CASES) == set(rulesets.available())


@pytest.mark.parametrize(
    ("ruleset", "name"), [(ruleset, name) for ruleset, names in CASES.items() for name in names]
)
def test_destroyed_with_lives_left_never_loses_to_last_bot_alive(ruleset, name):
    scenario = json.loads((SCENARIOS / name).read_text())
    assert scenario.get("ruleset", "roboracer") == ruleset
    result = engine.simulate(scenario)
    bots = {bot["id"]: bot for bot in result["bots"]}
    fallen = {event["bot"] for event in result["events"] if event["type"] == "destroyed"}
    waiting = {bot_id for bot_id, bot in bots.items() if bot["at"] is None and bot["lives"] > 0}
    in_game = {bot_id for bot_id, bot in bots.items() if bot["at"] is not None or bot["lives"] > 0}
    assert fallen | waiting, "the case needs a robot destroyed (or waiting) with lives left"
    assert (fallen | waiting) <= in_game, "every robot destroyed in the case still has lives (robots) left"
    assert len(in_game) > 1
    assert result["winner"] is None
    assert not [event for event in result["events"] if event["type"] == "winner"]


def test_classic_robot_that_waited_a_round_returns_at_the_next_free_end_of_round():
    """000 "Multiple archive markers": round 1, `a` falls and its archive (held by `c`) and the only square
    beside it that is no pit (held by `b`) are taken, so it waits; round 2, `b` drives away and `a` returns
    there, facing as it died, with 4 damage. Before issue 33 it never came back."""
    course = json.loads((SCENARIOS / "classic_returns_before_the_winner_check.json").read_text())["course"]
    course["elements"] = [e for e in course["elements"] if e["type"] != "pit"]
    course["elements"] += [{"type": "pit", "at": [3, 3]}, {"type": "pit", "at": [0, 1]}]
    scenario = {
        "format": "roboracer-scenario/1",
        "ruleset": "classic",
        "course": course,
        "seed": 0,
        "bots": [
            {"id": "a", "at": [3, 4], "dir": "N", "spawn": {"at": [0, 0], "dir": "N"}},
            {"id": "b", "at": [1, 0], "dir": "S", "spawn": {"at": [2, 7], "dir": "N"}},
            {"id": "c", "at": [0, 0], "dir": "N", "spawn": {"at": [0, 7], "dir": "N"}},
        ],
        "programs": {"a": ["1", "R", "L", "R", "L"], "b": ["L", "R", "L", "R", "L"], "c": ["L", "R", "L", "R", "L"]},
    }
    state, programs, seed, _ = parse_scenario(scenario)
    state, events = engine.resolve_turn(state, programs, seed)
    a = state.bot("a")
    assert (a.at, a.lives) == (None, 2), "round 1: no free square, `a` waits"
    assert not [e for e in events if e["type"] == "respawned"]
    assert state.winner is None and state.bot("b").at == (1, 0) and state.bot("c").at == (0, 0)

    state, events = engine.resolve_turn(state, {"b": ["1", "L", "R", "L", "R"], "c": ["L", "R", "L", "R", "L"]}, 1)
    a = state.bot("a")
    assert state.bot("b").at != (1, 0)
    assert (a.at, a.dir, a.damage, a.lives) == ((1, 0), "N", 4, 2), "round 2: `a` returns beside its archive"
    assert [e["bot"] for e in events if e["type"] == "respawned"] == ["a"]
    assert state.winner is None
