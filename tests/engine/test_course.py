import copy
import json
import subprocess
import sys
from dataclasses import replace

import pytest

import engine

from .reach import reachable

TINY = engine.bundled_course_data("tiny-yard")


BELT = {"type": "belt", "at": [2, 2], "dir": "E", "speed": 2, "curves_from": []}
CRUSHER = {"type": "crusher", "at": [2, 2], "phases": [2, 4]}
LASER = {"type": "laser", "at": [2, 2], "side": "W", "beams": 2}
TELE = {"type": "teleporter", "at": [2, 2], "colour": "red"}
CURTAIN = {"type": "curtain", "at": [2, 2], "side": "N"}


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
        (with_elements(BELT | {"speed": 4}), "(belt): 'speed' must be one of 1, 2, 3, 5, got 4"),
        (with_elements(BELT | {"curves_from": ["E"]}), "'curves_from' side 'E' of a belt running E is not a side"),
        (with_elements(BELT | {"curves_from": ["N", "N"]}), "'curves_from' must be a list of distinct sides"),
        (with_elements(BELT | {"at": [3, 3]}), "(belt): [3, 3] already holds a pit"),
        (with_elements(BELT | {"at": [1, 7]}), "(start): can't stand on the belt at [1, 7]"),
        (with_elements({"type": "turntable", "at": [6, 1], "rotation": "R"}), "(checkpoint): can't stand on the turntable"),
        (with_elements({"type": "turntable", "at": [2, 2], "rotation": "X"}), "'rotation' must be one of L, R"),
        (with_elements({"type": "repair", "at": [2, 2], "amount": 3}), "'amount' must be one of 1 to 2, got 3"),
        (with_elements({"type": "crusher", "at": [2, 2], "phases": []}), "'phases' must be a non-empty list"),
        (with_elements({"type": "crusher", "at": [2, 2], "phases": [1, 6]}), "distinct phases 1-5, got [1, 6]"),
        (with_elements({"type": "crusher", "at": [2, 2], "phases": [2, 2]}), "distinct phases 1-5, got [2, 2]"),
        (with_elements(CRUSHER, CRUSHER), "(crusher): [2, 2] already has a crusher above it"),
        (with_elements(CRUSHER | {"at": [4, 3]}), "(crusher): can't be placed over the pit at [4, 3]"),
        (with_elements({"type": "pusher", "at": [0, 4], "side": "W", "phases": [1]}), "(pusher): can't be placed over the pit"),
        (with_elements(LASER | {"beams": 4}), "(laser): 'beams' must be one of 1 to 3, got 4"),
        (with_elements(LASER, {"type": "pusher", "at": [2, 2], "side": "W", "phases": [1]}), "side W of [2, 2] already holds a laser"),
        # Issue 6 elements
        (with_elements(TELE), "teleporters come in colour groups of 2 or more; red has only [2, 2]"),
        (with_elements(TELE | {"colour": "Red!"}), "'colour' must be a lowercase colour name"),
        (with_elements(TELE, CRUSHER), "(crusher): [2, 2] already has a teleporter above it"),
        (with_elements({"type": "one_way_wall", "at": [2, 2], "side": "N", "dir": "E"}), "'dir' must cross the wall's edge (N or S), got 'E'"),
        (with_elements({"type": "sliding_wall", "at": [2, 5], "side": "N", "open": [1]}), "a wall already stands on side N of [2, 5]"),
        (with_elements(CURTAIN, CURTAIN | {"at": [2, 1], "side": "S"}), "a curtain already stands on side S of [2, 1]"),
        (with_elements({"type": "rail", "at": [2, 2], "sides": ["N", "E", "S"]}), "'sides' must list 2 sides (straight or corner) or all 4"),
        (with_elements({"type": "rail", "at": [2, 2], "sides": ["N", "S"], "over_pit": "yes"}), "'over_pit' must be true or false"),
        (with_elements({"type": "mirror", "at": [2, 2], "shape": "x"}), "'shape' must be one of /, \\, -, |"),
        (with_elements({"type": "mirror", "at": [6, 1], "shape": "/"}), "a mirror can't stand on the checkpoint at [6, 1]"),
        (with_elements({"type": "force_field", "at": [3, 3]}), "(force_field): can't be placed over the pit at [3, 3]"),
        (with_elements({"type": "force_field", "at": [1, 7]}), "(start): can't stand under the force field at [1, 7]"),
        (with_elements({"type": "force_field", "at": [2, 2], "strength": 0}), "'strength' must be one of 1 to 9, got 0"),
        (with_elements({"type": "screen", "at": [6, 1]}), "(checkpoint): can't stand on the screen at [6, 1]"),
        (with_elements({"type": "trapdoor", "at": [1, 7], "phases": [1]}), "(start): can't stand on the trapdoor at [1, 7]"),
        (with_elements({"type": "receptacle", "at": [1, 2]}), "(checkpoint): can't stand on the receptacle at [1, 2]"),
        (with_elements({"type": "receptacle", "at": [2, 2], "covered": 1}), "'covered' must be true or false"),
        (with_elements(BELT, {"type": "oil", "at": [2, 2]}), "oil can't lie on the belt at [2, 2]"),
        (with_elements({"type": "water", "at": [2, 2]}, {"type": "oil", "at": [2, 2]}), "(oil): [2, 2] already holds a water"),
        (with_elements({"type": "water", "at": [0, 4]}), "(water): can't be placed over the pit at [0, 4]"),
        (with_elements({"type": "portal", "at": [2, 2], "side": "E", "colour": "green"}), "'colour' must be one of red, blue"),
        (with_elements({"type": "magnet", "at": [2, 2], "dir": "up"}), "'dir' must be one of N, E, S, W"),
        (with_elements({"type": "blaster", "at": [2, 2], "side": "W", "beams": 0}), "(blaster): 'beams' must be one of 1 to 3"),
        (with_elements({"type": "repeller", "at": [0, 4], "side": "W"}), "(repeller): can't be placed over the pit"),
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
        assert course.starts and (bool(course.checkpoints) == (course.mode != "arena"))
        shared = all(engine.rulesets.get(name).shared_start for name in course.rulesets)  # fused: one start
        assert len(course.starts) >= course.players[1] or shared


def test_bundled_race_courses_cover_every_core_element():
    """At least four original courses, 2 to 8 players, 10x10 up to 16x24, together using every element of the
    core rules: belts of each speed, straight and turning; repairs of 1 and 2; 1-3 beam lasers; both turntables."""
    courses = [engine.bundled_course(slug) for slug in engine.bundled_slugs() if slug != "tiny-yard"]
    courses = [course for course in courses if course.mode != "puzzle"]  # puzzles are small on purpose
    courses = [course for course in courses if "roboracer" in course.rulesets]  # the others: test_rulesets.py
    assert len(courses) >= 4
    for course in courses:
        assert 10 <= course.width <= 16 and 10 <= course.height <= 24, course.name
        assert course.players[0] >= 1 and course.players[1] <= 8
    assert min(c.players[0] for c in courses) == 2 and max(c.players[1] for c in courses) == 8
    assert max(c.width * c.height for c in courses) == 16 * 24
    used = {e.type for c in courses for e in c.elements}
    assert used >= {"wall", "pit", "start", "checkpoint", "repair", "belt", "pusher", "turntable", "crusher", "laser"}
    elements = [e for c in courses for e in c.elements]
    assert {e.speed for e in elements if e.type == "belt"} == {1, 2, 3, 5}
    assert {bool(e.curves_from) for e in elements if e.type == "belt"} == {True, False}
    assert {e.amount for e in elements if e.type == "repair"} == {1, 2}
    assert {e.beams for e in elements if e.type == "laser"} == {1, 2, 3}
    assert {e.rotation for e in elements if e.type == "turntable"} == {"L", "R"}


def test_bundled_courses_every_checkpoint_reachable_from_every_start():
    for slug in engine.bundled_slugs():
        course = engine.bundled_course(slug)
        for start in course.starts:
            seen = reachable(course, start.at)
            missing = [cp.number for cp in course.checkpoints if cp.at not in seen]
            assert not missing, f"{slug}: check points {missing} can't be reached from start {start.number}"


def test_showcase_course_uses_every_element_and_new_courses_use_issue_6_elements():
    from engine.elements import ELEMENT_TYPES

    showcase = engine.bundled_course("element-expo")
    assert {e.type for e in showcase.elements} == set(ELEMENT_TYPES)
    core = {"floor", "wall", "pit", "start", "checkpoint", "repair", "belt", "pusher", "turntable", "crusher", "laser"}
    races = [engine.bundled_course(s) for s in engine.bundled_slugs() if s not in ("tiny-yard", "element-expo")]
    new = [c for c in races if {e.type for e in c.elements} - core]
    assert len(new) >= 3, "three race courses use issue 6 elements"
    assert {e.type for c in new for e in c.elements} >= set(ELEMENT_TYPES) - {"floor"}


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
        "last_program": ["1", "1", "R", "0", "0"],  # the program it played (issue 19: every result has it)
        "battery": 550,  # 500 to start, +50 at the end of a race turn (003 "Battery")
        "module": None,
        "stored_chip": None,
        "scan_due": False,
    }

    scenario["programs"]["a"] = ["1", "1", "Z", "0", "0"]
    scenario_file.write_text(json.dumps(scenario))
    result = _cli("simulate", str(scenario_file))
    assert result.returncode == 2 and "programs.a[2]: 'Z' is not a chip" in result.stderr

    scenario["programs"]["a"] = ["1", "1"]
    scenario_file.write_text(json.dumps(scenario))
    result = _cli("validate", str(scenario_file))
    assert result.returncode == 2 and "exactly 5 chips" in result.stderr


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ([{"id": "a", "at": [3, 3], "dir": "N"}], "bots[0] (a): 'at' [3, 3] is a pit"),
        ([{"id": "a", "at": [2, 2], "dir": "N"}, {"id": "b", "at": [2, 2], "dir": "S"}], "real bots 'a' and 'b' can't share"),
        ([{"id": "a", "at": [2, 2], "dir": "Q"}], "'dir' must be one of N, E, S, W"),
        ([{"id": "a", "at": [2, 2], "dir": "N", "reboot": "yes"}], "'reboot' must be true or false"),
        ([{"id": "a", "at": [2, 2], "dir": "N", "damage": 11}], "'damage' must be a whole number from 0 to 9"),
    ],
)
def test_bad_scenario_bots_are_rejected(bots, message):
    scenario = {"format": "roboracer-scenario/1", "course": "tiny-yard", "bots": bots, "programs": {}}
    with pytest.raises(engine.ScenarioError) as error:
        engine.simulate(scenario)
    assert message in str(error.value)


def test_two_virtual_bots_may_share_a_square():
    bots = [{"id": "a", "at": [2, 2], "dir": "N", "virtual": True}, {"id": "b", "at": [2, 2], "dir": "S"}]
    scenario = {"format": "roboracer-scenario/1", "course": "tiny-yard", "bots": bots, "programs": {"a": ["0"] * 5, "b": ["0"] * 5}}
    assert engine.simulate(scenario)["bots"][0]["at"] == [2, 2]


def test_bad_reboot_requests_are_input_errors():
    state = engine.new_game(engine.bundled_course("tiny-yard"), ["a", "b"])
    programs = {"a": ["0"] * 5, "b": ["0"] * 5}
    with pytest.raises(engine.InputError, match="reboot for unknown bot 'z'"):
        engine.resolve_turn(state, programs, 1, reboots=["z"])
    rebooting = state.with_bots([replace(state.bots[0], rebooting=True), state.bots[1]])
    with pytest.raises(engine.InputError, match="'a' is already rebooting"):
        engine.resolve_turn(rebooting, programs, 1, reboots=["a"])
    with pytest.raises(engine.InputError, match="'a' is rebooting this turn and plays five '0'"):
        engine.resolve_turn(rebooting, {"a": ["1", "0", "0", "0", "0"], "b": ["0"] * 5}, 1)
