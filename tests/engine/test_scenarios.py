"""Engine regressions as data: each file in scenarios/ names one rule, its inputs and what must happen."""

import json
from pathlib import Path

import pytest

import engine

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


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
    for key in ("winner", "places", "priority", "radiation"):
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
