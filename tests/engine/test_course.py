import copy
import json
import subprocess
import sys

import pytest

import engine

TINY = engine.bundled_course_data("tiny-yard")


def with_elements(*elements, **fields):
    data = copy.deepcopy(TINY)
    data["elements"].extend(elements)
    data.update(fields)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (with_elements({"type": "lava", "at": [1, 1]}), "unknown element type 'lava'"),
        (with_elements({"type": "pit", "at": [8, 1]}), "'at' [8, 1] is off the 8x8 course"),
        (with_elements({"type": "start", "at": [0, 0], "number": 2, "dir": "N"}), "two starts have number 2"),
        (with_elements({"type": "wall", "at": [2, 5], "side": "N"}), "a wall already stands on side N"),
        (with_elements({"type": "wall", "at": [2, 4], "side": "S"}), "a wall already stands on side S"),
        (with_elements({"type": "wall", "at": [1, 1], "side": "X"}), "'side' must be one of N, E, S, W"),
        (with_elements({"type": "pit", "at": [1, 1], "depth": 3}), "unknown field(s) depth"),
        (with_elements({"type": "checkpoint", "at": [1, 1]}), "missing field 'number'"),
        (with_elements({"type": "pit", "at": [1, 7]}), "(start): can't stand on the pit at [1, 7]"),
        (with_elements(players=[2, 5]), "5 players need 5 starts"),
        (with_elements(width=0), "'width' must be a whole number"),
        (with_elements(format="other/1"), "'format' must be"),
    ],
)
def test_bad_course_is_rejected_with_a_message_naming_the_problem(data, message):
    with pytest.raises(engine.CourseError) as error:
        engine.parse_course(data)
    assert message in str(error.value)


def test_bundled_courses_validate():
    slugs = engine.bundled_slugs()
    assert "tiny-yard" in slugs
    for slug in slugs:
        course = engine.bundled_course(slug)
        assert course.starts and course.checkpoints


def test_walls_block_both_ways():
    course = engine.bundled_course("tiny-yard")
    assert course.wall_between((2, 5), "N")
    assert course.wall_between((2, 4), "S")
    assert not course.wall_between((2, 5), "S")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True)


def test_cli_validate_and_simulate(tmp_path):
    course_file = tmp_path / "course.json"
    course_file.write_text(json.dumps(TINY))
    ok = _cli("validate", str(course_file))
    assert ok.returncode == 0 and "valid course 'Tiny Yard'" in ok.stdout

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(with_elements({"type": "lava", "at": [1, 1]})))
    result = _cli("validate", str(bad))
    assert result.returncode == 2 and "elements[16]: unknown element type 'lava'" in result.stderr

    scenario = {
        "format": "roboracer-scenario/1",
        "course": "tiny-yard",
        "bots": [{"id": "a", "at": [1, 7], "dir": "N"}],
        "programs": {"a": ["1", "1", "R", "0", "0"]},
    }
    scenario_file = tmp_path / "scenario.json"
    scenario_file.write_text(json.dumps(scenario))
    simulated = _cli("simulate", str(scenario_file))
    assert simulated.returncode == 0, simulated.stderr
    assert json.loads(simulated.stdout)["bots"][0] | {"spawn": None} == {
        "id": "a",
        "at": [1, 5],
        "dir": "E",
        "damage": 0,
        "lives": 3,
        "next_checkpoint": 1,
        "virtual": False,
        "rebooting": False,
        "spawn": None,
    }

    scenario["programs"]["a"] = ["1", "1", "Z", "0", "0"]
    scenario_file.write_text(json.dumps(scenario))
    result = _cli("simulate", str(scenario_file))
    assert result.returncode == 2 and "programs.a[2]: 'Z' is not a chip" in result.stderr

    scenario["programs"]["a"] = ["1", "1"]
    scenario_file.write_text(json.dumps(scenario))
    result = _cli("validate", str(scenario_file))
    assert result.returncode == 2 and "exactly 5 chips" in result.stderr
