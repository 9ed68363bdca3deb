"""Engine regressions as data: each file in scenarios/ names one rule, its inputs and what must happen."""

import json
from pathlib import Path

import pytest

import engine
from tests.engine.cli import run_cli

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
REFUSED = sorted((Path(__file__).parent / "scenarios_refused").glob("*.json"))
ROOT = Path(__file__).parents[2]


def _matches(actual: dict, expected: dict) -> bool:
    return all(actual.get(key) == value for key, value in expected.items())


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    scenario = json.loads(path.read_text())
    expect = scenario["expect"]
    result = engine.simulate(scenario)
    bots = {bot["id"]: bot for bot in result["bots"]}
    for expected in expect.get("bots", []):
        actual = bots[expected["id"]]
        assert _matches(actual, expected), f"{scenario['rule']}: bot {expected['id']} is {actual}, expected {expected}"
    for key, value in expect.get("board", {}).items():
        assert result["board"].get(key, []) == value, f"{scenario['rule']}: board {key} is {result['board'].get(key)}"
    for key in ("winner", "places", "priority", "radiation", "prices", "remains", "winning_team", "outcome"):
        if key in expect:
            assert result[key] == expect[key], f"{scenario['rule']}: {key} is {result[key]}, expected {expect[key]}"
    if "event_types" in expect:
        assert [event["type"] for event in result["events"]] == expect["event_types"], scenario["rule"]
    for wanted in expect.get("events_include", []):
        assert any(_matches(event, wanted) for event in result["events"]), f"{scenario['rule']}: no event {wanted}"
    for unwanted in expect.get("events_exclude", []):
        found = [event for event in result["events"] if _matches(event, unwanted)]
        assert not found, f"{scenario['rule']}: unexpected events {found}"


def test_at_least_one_scenario_per_file_names_its_rule():
    assert len(SCENARIOS) >= 40
    for path in SCENARIOS:
        assert json.loads(path.read_text()).get("rule"), path.name


@pytest.mark.parametrize("path", REFUSED, ids=[p.stem for p in REFUSED])
def test_refused_scenario_exits_2_naming_the_problem(path):
    """Each file in scenarios_refused/ breaks one rule: `simulate` exits 2 and its message says which."""
    scenario = json.loads(path.read_text())
    assert scenario.get("rule") and scenario.get("expect_error"), path.name
    done = run_cli("simulate", str(path))  # in this process; test_course.py runs the real command line
    assert done.returncode == 2, (scenario["rule"], done.stdout[-500:], done.stderr)
    assert scenario["expect_error"] in done.stderr, (scenario["rule"], done.stderr)
    assert done.stdout == ""
