"""RAMbots rules as data: each file in scenarios/ is a `rambots-scenario/1` input plus `rule` (what it checks,
with its seed 002 section) and `expect`; both are stripped before the scenario is simulated. `expect` may
hold `players` (partial player results, matched by id), `beacons` (partial, matched by colour), `winner`,
`precedence`, `event_types` (the whole ordered list), `events_include` and `events_exclude` (partial
events). Files in refused/ are plain inputs that `python -m engine simulate` must refuse with exit 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.kinds import rambots
from tests.engine.cli import run_cli

HERE = Path(__file__).parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.json"))
REFUSED = sorted((HERE / "refused").glob("*.json"))
ROOT = Path(__file__).parents[3]
# What each refused file's message must say.
REFUSED_MESSAGES = {
    "bad_colour": "players[0].colour: must be one of red, yellow, green, blue",
    "bad_dir": "programs.a[0].dir: must be one of N, E, S, W, up",
    "bad_piece": "players[0].pool[0]: 'X-red' is not a piece",
    "bool_coordinate": "players[0].bot.at: must be [x, y]",
    "deep_json": "nested too deeply",
    "deep_nesting": "programs.a[0]: must be a JSON object",
    "no_goals": "players[0].goals: must list 1 to 4 goals",
    "off_board": "beacons[0].at: [8, 0] is off the board",
    "piece_not_in_pool": "programs.a: L-green is not in the pool of a",
    "piece_used_twice": "programs.a: S-red is used 2 times but the pool of a holds 1",
    "precedence_incomplete": "'precedence' must list the four colours once each",
    "program_for_unknown_player": "programs: 'z' is not a player",
    "six_instructions": "programs.a: at most 5 instructions",
    "two_objects_one_square": "the green beacon and bot a can't share [0, 0]",
    "unknown_instruction_field": "programs.a[0]: unknown field 'speed'",
    "unknown_option": "options: unknown field 'turbo'",
    "unknown_player_field": "players[0]: unknown field 'lives'",
    "unknown_top_field": "scenario: unknown field 'course'",
    "wrong_type_tagged": "players[0].tagged: must be a whole number",
}


def load(path: Path) -> tuple[dict, dict]:
    data = json.loads(path.read_text())
    expect = data.pop("expect")
    assert data.pop("rule"), path.name
    return data, expect


def matches(actual: dict, expected: dict) -> bool:
    return all(actual.get(key) == value for key, value in expected.items())


def check(result: dict, expect: dict, name: str) -> None:
    players = {p["id"]: p for p in result["players"]}
    for wanted in expect.get("players", []):
        actual = players[wanted["id"]]
        assert matches(actual, wanted), f"{name}: player {wanted['id']} is {actual}, expected {wanted}"
    beacons = {b["colour"]: b for b in result["beacons"]}
    for wanted in expect.get("beacons", []):
        actual = beacons[wanted["colour"]]
        assert matches(actual, wanted), f"{name}: beacon {wanted['colour']} is {actual}, expected {wanted}"
    for key in ("winner", "precedence"):
        if key in expect:
            assert result[key] == expect[key], f"{name}: {key} is {result[key]}, expected {expect[key]}"
    if "event_types" in expect:
        assert [e["type"] for e in result["events"]] == expect["event_types"], (name, result["events"])
    for wanted in expect.get("events_include", []):
        assert any(matches(e, wanted) for e in result["events"]), f"{name}: no event {wanted} in {result['events']}"
    for unwanted in expect.get("events_exclude", []):
        found = [e for e in result["events"] if matches(e, unwanted)]
        assert not found, f"{name}: unexpected events {found}"


def test_enough_scenarios():
    assert len(SCENARIOS) >= 40
    assert len(REFUSED) >= 10


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_in_process(path):
    data, expect = load(path)
    result = rambots.simulate(data)
    check(result, expect, path.stem)
    assert json.loads(json.dumps(result)) == result  # plain JSON
    for player in result["players"]:
        assert player["pool"] == rambots.sort_pieces(player["pool"])
        assert sorted(player) == ["bot", "goals", "id", "pool", "tagged"]
    assert sorted(result) == ["beacons", "events", "players", "precedence", "winner"]


def _cli(args: list[str]) -> subprocess.CompletedProcess:
    """In this process (tests/engine/cli.py); `_python_m_engine` is the real command line."""
    return run_cli(*args)


def _python_m_engine(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, cwd=ROOT)


def test_every_scenario_through_the_cli(tmp_path):
    """Each scenario once through `python -m engine simulate` and `validate` (the stripped input in tmp)."""
    jobs = []
    for path in SCENARIOS:
        data, expect = load(path)
        stripped = tmp_path / path.name
        stripped.write_text(json.dumps(data))
        jobs.append((path.stem, stripped, expect))
    done = [_cli(["simulate", str(job[1])]) for job in jobs]
    for (name, _, expect), run in zip(jobs, done, strict=True):
        assert run.returncode == 0, (name, run.stderr)
        assert run.stderr == ""
        check(json.loads(run.stdout), expect, name)
    run = _cli(["validate", str(jobs[0][1])])
    assert run.returncode == 0 and "valid scenario (rambots-scenario/1)" in run.stdout


def test_cli_report_is_refused_for_rambots(tmp_path):
    data, _ = load(SCENARIOS[0])
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    run = _python_m_engine(["report", str(path)])  # the real command line: its exit code and streams
    assert run.returncode == 2 and "simulate" in run.stderr and run.stdout == ""


def test_every_refused_file_has_a_message():
    assert sorted(REFUSED_MESSAGES) == sorted(p.stem for p in REFUSED)


@pytest.mark.parametrize("path", REFUSED, ids=[p.stem for p in REFUSED])
def test_refused_exits_2_with_one_line(path):
    for command in ("simulate", "validate"):
        run = _cli([command, str(path)])
        assert run.returncode == 2, (path.stem, run.stdout[-300:], run.stderr[-300:])
        assert run.stdout == ""
        assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr[-500:]
        assert REFUSED_MESSAGES[path.stem] in run.stderr, run.stderr


def test_scenario_and_expect_are_separate():
    """The expect block is not part of the format: leaving it in is refused."""
    data = json.loads(SCENARIOS[0].read_text())
    with pytest.raises(InputError, match="unknown field"):
        rambots.simulate(data)
