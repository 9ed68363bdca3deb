"""The engine side of the course builder: element catalog, validator (errors with squares, warnings), the
course fields `rulesets` and `puzzle`, and the bundled courses' round trip."""

import copy
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.builder import reachable
from engine.elements import ELEMENT_TYPES, Element, register, whole
from tests.profiles import examples


def course(*elements, width=4, height=4, start=([0, 3], "N"), checkpoint=(3, 0), **fields):
    data = {
        "format": "roboracer-course/1",
        "name": "Test Bench",
        "width": width,
        "height": height,
        "mode": "race",
        "players": [1, 1],
        "elements": [
            {"type": "start", "at": list(start[0]), "number": 1, "dir": start[1]},
            {"type": "checkpoint", "at": list(checkpoint), "number": 1},
            *elements,
        ],
    }
    data.update(fields)
    return data


def warnings_of(data):
    result = engine.validate_course(data)
    assert result["errors"] == []
    return result["warnings"]


def messages(data):
    return [warning["message"] for warning in warnings_of(data)]


# --- Catalog --------------------------------------------------------------------------------------------


def test_catalog_lists_every_element_type_with_every_field():
    catalog = engine.element_catalog()
    json.dumps(catalog)  # JSON-able
    listed = {entry["type"]: entry for entry in catalog["elements"]}
    assert set(listed) == set(ELEMENT_TYPES)
    for kind, spec in ELEMENT_TYPES.items():
        assert listed[kind]["layer"] == spec.layer
        assert [field["name"] for field in listed[kind]["fields"]] == list(spec.fields)
        for field in listed[kind]["fields"]:
            assert field["kind"] in ("direction", "whole", "choice", "phases", "sides", "flag", "colour")
            assert isinstance(field["optional"], bool)
            assert ("default" in field) == field["optional"]
        if spec.layer in ("mount", "edge"):
            side = next(field for field in listed[kind]["fields"] if field["name"] == "side")
            assert side["kind"] == "direction" and side["choices"] == ["N", "E", "S", "W"]
    assert catalog["layers"] == ["tile", "marker", "ceiling", "cover", "liquid", "mount", "edge"]
    assert catalog["modes"] == ["race", "arena", "puzzle"]
    assert catalog["rulesets"] == list(engine.rulesets.available()) and catalog["rulesets"][0] == "roboracer"
    assert catalog["max_side"] == 64


def test_catalog_fields_carry_their_limits_and_defaults():
    listed = {entry["type"]: entry for entry in engine.element_catalog()["elements"]}
    belt = {field["name"]: field for field in listed["belt"]["fields"]}
    assert belt["speed"] == {"name": "speed", "kind": "whole", "min": 1, "max": 5, "choices": [1, 2, 3, 5],
                             "optional": False}
    assert belt["curves_from"]["kind"] == "sides"
    field = {field["name"]: field for field in listed["force_field"]["fields"]}
    assert field["strength"] == {"name": "strength", "kind": "whole", "min": 1, "max": 9, "optional": True,
                                 "default": 1}
    assert field["recharging"] == {"name": "recharging", "kind": "flag", "optional": True, "default": False}
    assert listed["teleporter"]["fields"] == [{"name": "colour", "kind": "colour", "optional": False}]
    assert listed["mirror"]["fields"][0]["choices"] == ["/", "\\", "-", "|"]
    assert listed["crusher"]["fields"][0]["kind"] == "phases"
    assert listed["pit"]["fields"] == []


def test_a_new_element_appears_in_the_catalog_without_other_changes():
    from dataclasses import dataclass
    from typing import ClassVar

    @dataclass(frozen=True)
    class Gong(Element):
        type: ClassVar[str] = "test_gong"
        title: ClassVar[str] = "Gong"
        help: ClassVar[str] = "Rings."
        loudness: int

    register(Gong, layer="tile", fields={"loudness": whole("loudness", 1, 4)})
    try:
        listed = {entry["type"]: entry for entry in engine.element_catalog()["elements"]}
        assert listed["test_gong"] == {
            "type": "test_gong",
            "name": "Gong",
            "help": "Rings.",
            "layer": "tile",
            "fields": [{"name": "loudness", "kind": "whole", "min": 1, "max": 4, "optional": False}],
        }
        # and the parser knows it too
        assert engine.validate_course(course({"type": "test_gong", "at": [1, 1], "loudness": 2}))["errors"] == []
    finally:
        del ELEMENT_TYPES["test_gong"]


def test_a_checker_without_a_description_is_refused_at_registration():
    from dataclasses import dataclass
    from typing import ClassVar

    @dataclass(frozen=True)
    class Mute(Element):
        type: ClassVar[str] = "test_mute"
        level: int

    with pytest.raises(AssertionError):
        register(Mute, layer="tile", fields={"level": lambda value, where: value})
    assert "test_mute" not in ELEMENT_TYPES


# --- Errors ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "message", "squares"),
    [
        ({"type": "belt", "at": [1, 1], "dir": "E", "speed": 4, "curves_from": []},
         "elements[2] (belt): 'speed' must be one of 1, 2, 3, 5, got 4", [[1, 1]]),
        ({"type": "pit", "at": [0, 3]}, "elements[0] (start): can't stand on the pit at [0, 3]", [[0, 3]]),
        ({"type": "wall", "at": [1, 1], "side": "E"}, None, []),
        ({"type": "window", "at": [1, 1], "side": "X"}, "'side' must be one of N, E, S, W", [[1, 1]]),
        ({"type": "one_way_wall", "at": [1, 1], "side": "N", "dir": "E"},
         "elements[2] (one_way_wall): 'dir' must cross the wall's edge (N or S), got 'E'", [[1, 1], [1, 0]]),
        ({"type": "crusher", "at": [2, 2], "phases": [9]}, "'phases' must be a non-empty list", [[2, 2]]),
        ({"type": "teleporter", "at": [2, 2], "colour": "red"},
         "course: teleporters come in colour groups of 2 or more; red has only [2, 2]", [[2, 2]]),
        ({"type": "start", "at": [2, 2], "number": 1, "dir": "N"}, "course: two starts have number 1",
         [[0, 3], [2, 2]]),
        ({"type": "lava", "at": [1, 1]}, "elements[2]: unknown element type 'lava'", []),
        ({"type": ["belt"], "at": [1, 1]}, "elements[2]: unknown element type ['belt']", []),
    ],
)
def test_errors_carry_the_squares_they_concern(extra, message, squares):
    data = course(extra)
    if message is None:  # a second wall on the same edge, from the other side
        data["elements"].append({"type": "wall", "at": [2, 1], "side": "W"})
        message = "elements[3] (wall): a wall already stands on side W of [2, 1]"
        squares = [[2, 1], [1, 1]]
    result = engine.validate_course(data)
    assert result["warnings"] == []
    [error] = result["errors"]
    assert message in error["message"]
    assert error["squares"] == squares
    with pytest.raises(engine.CourseError) as raised:
        engine.parse_course(data)
    assert str(raised.value) == error["message"]  # the message is the parser's, unchanged


@pytest.mark.parametrize("data", [None, 3, "x", [], {"format": "roboracer-course/1"}, {"elements": {}},
                                  course(elements=None), course(players="two"), course(mode=["race"])])
def test_malformed_data_is_an_error_entry_never_an_exception(data):
    result = engine.validate_course(data)
    [error] = result["errors"]
    assert error["message"].startswith("course")
    assert error["squares"] == [] and result["warnings"] == []


def test_no_errors_means_the_course_parses():
    data = course()
    assert engine.validate_course(data) == {"errors": [], "warnings": []}
    assert engine.parse_course(data).name == "Test Bench"


# --- Warnings -------------------------------------------------------------------------------------------


def test_checkpoint_walled_off_from_the_start():
    walls = [{"type": "wall", "at": [3, 0], "side": side} for side in ("W", "S")]
    [warning] = warnings_of(course(*walls))
    assert warning == {"message": "check point 1 at [3, 0] can't be reached from start 1 at [0, 3]",
                       "squares": [[3, 0], [0, 3]]}
    # one of the two walls gone: reachable again
    assert warnings_of(course(walls[0])) == []


def test_checkpoint_beyond_a_row_of_pits_and_windows():
    pits = [{"type": "pit", "at": [x, 1]} for x in range(4)]
    assert messages(course(*pits)) == ["check point 1 at [3, 0] can't be reached from start 1 at [0, 3]"]
    # a trapdoor in the row closes sometimes: not certain, no warning
    row = pits[:3] + [{"type": "trapdoor", "at": [3, 1], "phases": [2]}]
    assert messages(course(*row)) == []
    # windows and shockers block bots like walls; a curtain does not
    for kind, warned in (("window", True), ("shocker", True), ("curtain", False)):
        edges = [{"type": kind, "at": [x, 1], "side": "N"} for x in range(4)]
        assert bool(messages(course(*edges))) is warned, kind


def test_one_way_walls_and_sliding_walls_in_the_search():
    against = [{"type": "one_way_wall", "at": [x, 1], "side": "N", "dir": "S"} for x in range(4)]
    assert len(messages(course(*against))) == 1
    along = [{"type": "one_way_wall", "at": [x, 1], "side": "N", "dir": "N"} for x in range(4)]
    assert messages(course(*along)) == []
    sliding = [{"type": "sliding_wall", "at": [x, 1], "side": "N", "open": [3]} for x in range(4)]
    assert messages(course(*sliding)) == []


def test_teleporters_vents_and_portals_count_as_ways_through():
    walls = [{"type": "wall", "at": [x, 1], "side": "N"} for x in range(4)]
    assert len(messages(course(*walls))) == 1
    teleporters = [{"type": "teleporter", "at": [1, 2], "colour": "red"},
                   {"type": "teleporter", "at": [1, 0], "colour": "red"}]
    assert messages(course(*walls, *teleporters)) == []
    assert messages(course(*walls, {"type": "vent", "at": [2, 2]})) == []  # flies over the wall
    portals = [{"type": "portal", "at": [2, 1], "side": "N", "colour": "blue"},
               {"type": "portal", "at": [2, 0], "side": "S", "colour": "blue"}]
    result = engine.parse_course(course(*walls, *portals))
    assert (2, 0) in reachable(result, (0, 3))
    assert messages(course(*walls, *portals)) == []


def test_later_checkpoint_unreachable_from_the_one_before():
    data = course({"type": "checkpoint", "at": [0, 0], "number": 2},
                  {"type": "wall", "at": [0, 0], "side": "E"}, {"type": "wall", "at": [0, 0], "side": "S"})
    assert messages(data) == ["check point 2 at [0, 0] can't be reached from check point 1 at [3, 0]"]
    assert warnings_of(data)[0]["squares"] == [[0, 0], [3, 0]]


@pytest.mark.parametrize("weapon", ["laser", "blaster"])
def test_start_in_a_wall_weapons_line(weapon):
    # mounted on the north side of [0, 0], it fires south down column 0 onto the start at [0, 3]
    mounted = {"type": weapon, "at": [0, 0], "side": "N", "beams": 1}
    [warning] = warnings_of(course(mounted))
    assert warning == {"message": f"start 1 at [0, 3] is in the line of the wall {weapon} at [0, 0] (side N)",
                       "squares": [[0, 3], [0, 0]]}
    # a wall between them, or the weapon firing the other way: no warning
    assert warnings_of(course(mounted, {"type": "wall", "at": [0, 1], "side": "S"})) == []
    assert warnings_of(course({**mounted, "side": "W"})) == []
    # a curtain stops shots (not plain shots: the traced beam), a window does not
    assert warnings_of(course(mounted, {"type": "curtain", "at": [0, 1], "side": "S"})) == []
    assert len(warnings_of(course(mounted, {"type": "window", "at": [0, 1], "side": "S"}))) == 1
    assert warnings_of(course(mounted, {"type": "mirror", "at": [0, 1], "shape": "/"})) == []


def test_a_repeller_is_not_a_weapon_here():
    assert warnings_of(course({"type": "repeller", "at": [0, 0], "side": "N"})) == []


def test_belt_into_a_wall_or_off_the_course():
    belt = {"type": "belt", "at": [1, 1], "dir": "E", "speed": 1, "curves_from": []}
    assert warnings_of(course(belt)) == []
    [warning] = warnings_of(course(belt, {"type": "wall", "at": [2, 1], "side": "W"}))
    assert warning == {"message": "belt at [1, 1] runs E into a wall", "squares": [[1, 1], [2, 1]]}
    assert messages(course(belt, {"type": "shocker", "at": [1, 1], "side": "E"})) == [
        "belt at [1, 1] runs E into a wall"
    ]
    assert messages(course(belt, {"type": "one_way_wall", "at": [1, 1], "side": "E", "dir": "E"})) == []
    [off] = warnings_of(course({**belt, "at": [3, 2]}))
    assert off == {"message": "belt at [3, 2] runs E off the course", "squares": [[3, 2]]}


def test_start_facing_a_wall_or_the_edge():
    assert messages(course(start=([0, 3], "W"))) == ["start 1 at [0, 3] faces W, off the course"]
    assert messages(course(start=([0, 3], "E"))) == []
    [warning] = warnings_of(course({"type": "wall", "at": [0, 3], "side": "E"}, start=([0, 3], "E")))
    assert warning == {"message": "start 1 at [0, 3] faces a wall (E)", "squares": [[0, 3], [1, 3]]}


def test_marker_under_a_crusher_every_phase():
    crusher = {"type": "crusher", "at": [3, 0], "phases": [1, 2, 3, 4, 5]}
    [warning] = warnings_of(course(crusher))
    assert warning == {"message": "check point 1 at [3, 0] is under a crusher that crushes in every phase",
                       "squares": [[3, 0]]}
    assert warnings_of(course({**crusher, "phases": [1, 2, 3, 4]})) == []
    assert messages(course({**crusher, "at": [0, 3]})) == [
        "start 1 at [0, 3] is under a crusher that crushes in every phase"
    ]


def test_unknown_top_level_field_is_dropped_with_a_warning():
    [warning] = warnings_of(course(author="ada"))
    assert warning == {"message": "course: unknown field 'author' is not part of a course and is dropped",
                       "squares": []}
    assert "author" not in engine.parse_course(course(author="ada")).to_dict()


def test_warnings_only_when_there_are_no_errors():
    data = course({"type": "crusher", "at": [3, 0], "phases": [1, 2, 3, 4, 5]}, {"type": "lava", "at": [1, 1]})
    result = engine.validate_course(data)
    assert len(result["errors"]) == 1 and result["warnings"] == []


@pytest.mark.parametrize("slug", engine.bundled_slugs())
def test_bundled_courses_have_no_warnings(slug):
    assert engine.validate_course(engine.bundled_course_data(slug)) == {"errors": [], "warnings": []}


# --- Command line ---------------------------------------------------------------------------------------


def run_validate(tmp_path, data):
    path = tmp_path / "course.json"
    path.write_text(json.dumps(data))
    return subprocess.run([sys.executable, "-m", "engine", "validate", str(path)], capture_output=True,
                          text=True, check=False), str(path)


def test_cli_prints_warnings_on_stderr_and_exits_0(tmp_path):
    done, path = run_validate(tmp_path, course({"type": "crusher", "at": [3, 0], "phases": [1, 2, 3, 4, 5]},
                                               start=([0, 3], "W")))
    assert done.returncode == 0
    assert done.stdout == f"{path}: valid course 'Test Bench' (4x4)\n"
    assert done.stderr.splitlines() == [
        f"{path}: warning: start 1 at [0, 3] faces W, off the course (squares: [0, 3])",
        f"{path}: warning: check point 1 at [3, 0] is under a crusher that crushes in every phase "
        f"(squares: [3, 0])",
    ]


def test_cli_errors_exit_2_with_the_message_unchanged(tmp_path):
    done, path = run_validate(tmp_path, course({"type": "lava", "at": [1, 1]}))
    assert done.returncode == 2
    assert done.stderr.startswith(f"{path}: elements[2]: unknown element type 'lava' (known: ")
    clean, _ = run_validate(tmp_path, course())
    assert clean.returncode == 0 and clean.stderr == ""


# --- Course fields: rulesets and puzzle -------------------------------------------------------------------


def test_rulesets_default_and_round_trip():
    assert engine.parse_course(course()).rulesets == ("roboracer",)
    assert "rulesets" not in engine.parse_course(course()).to_dict()
    parsed = engine.parse_course(course(rulesets=["roboracer"]))
    assert parsed.rulesets == ("roboracer",)
    assert parsed.to_dict()["rulesets"] == ["roboracer"]


@pytest.mark.parametrize("value", [[], ["chess"], ["roboracer", "roboracer"], "roboracer", None])
def test_bad_rulesets_are_errors(value):
    [error] = engine.validate_course(course(rulesets=value))["errors"]
    assert error["message"].startswith("course: 'rulesets' must be a non-empty list of distinct rulesets")


GOAL = {"type": "checkpoint", "number": 1}
TARGET = {"id": "dummy", "at": [2, 2], "dir": "W", "program": ["1", "R", "1", "R", "0"]}


def test_puzzle_block_round_trip():
    block = {"goal": GOAL, "turn_limit": 3, "players": 1, "seed": 42, "targets": [TARGET],
             "description": "Tag the flag in three turns."}  # fmt: skip
    data = course(mode="puzzle", puzzle=block)
    parsed = engine.parse_course(data)
    assert parsed.puzzle == block
    assert parsed.to_dict() == json.loads(json.dumps(data))
    assert engine.parse_course(parsed.to_dict()).source == parsed.source
    assert engine.parse_course(course(mode="puzzle", puzzle={"goal": GOAL, "turn_limit": 5})).puzzle == {
        "goal": GOAL, "turn_limit": 5, "players": 1, "seed": 0, "targets": [],
    }  # fmt: skip
    # A puzzle course with no block: reach the last check point within 99 turns.
    assert engine.parse_course(course(mode="puzzle")).puzzle["goal"] == GOAL


@pytest.mark.parametrize(
    ("mode", "block", "message"),
    [
        ("race", {"goal": GOAL, "turn_limit": 3}, "course: only a puzzle course has a 'puzzle' block (mode is 'race')"),
        ("puzzle", "goal", "course: 'puzzle' must be a JSON object"),
        ("puzzle", {"turn_limit": 3}, "course: 'puzzle.goal' is missing"),
        ("puzzle", {"goal": GOAL}, "course: 'puzzle.turn_limit' is missing"),
        ("puzzle", {"goal": "Reach 1", "turn_limit": 3}, "course: 'puzzle.goal' must be {\"type\": \"checkpoint\""),
        ("puzzle", {"goal": {"type": "checkpoint"}, "turn_limit": 3}, "has exactly the fields 'type' and 'number'"),
        ("puzzle", {"goal": {"type": "checkpoint", "number": 2}, "turn_limit": 3}, "the course has 1 check point(s)"),
        ("puzzle", {"goal": {"type": "survive", "turns": 4}, "turn_limit": 3}, "can't be more than 'puzzle.turn_limit'"),
        ("puzzle", {"goal": {"type": "destroy", "targets": ["x"]}, "turn_limit": 3}, "names 'x', which is not in"),
        ("puzzle", {"goal": GOAL, "turn_limit": 0}, "course: 'puzzle.turn_limit' must be a whole number from 1 to 99, got 0"),
        ("puzzle", {"goal": GOAL, "turn_limit": 100}, "'puzzle.turn_limit' must be a whole number from 1 to 99"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "players": 2}, "'puzzle.players' must be a whole number from 1 to 1, got 2"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "seed": -1}, "'puzzle.seed' must be a whole number from 0 to"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "author": "me"}, "course: 'puzzle' has unknown field(s) 'author'"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "description": "x" * 501}, "'puzzle.description' must be a non-empty text"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "targets": [{**TARGET, "id": "7"}]}, "not only digits"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "targets": [TARGET, TARGET]}, "the id 'dummy' is used twice"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "targets": [{**TARGET, "at": [0, 3]}]}, "is a start"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "targets": [{**TARGET, "at": [9, 9]}]}, "is off the course"),
        ("puzzle", {"goal": GOAL, "turn_limit": 3, "targets": [{**TARGET, "program": ["1"]}]}, "'program' must be 5 chips"),
    ],
)
def test_bad_puzzle_blocks_are_errors(mode, block, message):
    [error] = engine.validate_course(course(mode=mode, puzzle=block))["errors"]
    assert message in error["message"]


# --- Round trip -----------------------------------------------------------------------------------------


def normalized(data):
    return json.loads(json.dumps(data, sort_keys=True))


@pytest.mark.parametrize("slug", engine.bundled_slugs())
def test_every_bundled_course_parses_and_exports_unchanged(slug):
    data = engine.bundled_course_data(slug)
    exported = engine.parse_course(copy.deepcopy(data)).to_dict()
    assert normalized(exported) == normalized(data)
    assert engine.parse_course(exported).source == engine.parse_course(data).source


# --- Any JSON value in any field: a CourseError, never a crash --------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.sampled_from(["N", "E", "red", "", "x", "race"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(["goal", "at", "a"]),
                                                                       children, max_size=2),
    max_leaves=6,
)
EXPO = engine.bundled_course_data("element-expo")


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, len(EXPO["elements"]) - 1), st.sampled_from(["at", "type", "side", "dir", "phases",
       "colour", "sides", "speed", "number", "strength", "open", "shape", "rulesets", "puzzle", "mode",
       "players", "width"]), JSON_VALUES)
def test_any_value_in_any_field_is_a_course_error_or_fine(index, field, value):
    data = copy.deepcopy(EXPO)
    if field in ("rulesets", "puzzle", "mode", "players", "width"):
        data[field] = value
    else:
        data["elements"][index][field] = value
    try:
        engine.parse_course(data)
    except engine.CourseError as error:
        assert str(error)
        assert all(len(square) == 2 for square in error.squares)
    result = engine.validate_course(data)
    assert len(result["errors"]) <= 1


def test_names_and_puzzle_goals_are_short_printable_text():
    """A name or goal with a NUL or another control character, or a name longer than the site's column, is an
    error (PostgreSQL refuses NUL in text; a long name would not fit): never a crash further on."""
    import copy

    base = copy.deepcopy(engine.bundled_course_data("tiny-yard"))
    for name in ("nul\x00byte", "tab\there", "x" * 101):
        errors = engine.validate_course({**base, "name": name})["errors"]
        assert [e["message"] for e in errors] == [
            "course: 'name' must be at most 100 characters, with no control characters"
        ], name
    assert engine.validate_course({**base, "name": "日本語のコース 🚀" + "x" * 90})["errors"] == []
    puzzle = {**base, "mode": "puzzle", "players": [1, 4]}
    block = {"goal": {"type": "checkpoint", "number": 1}, "turn_limit": 9}
    assert engine.validate_course({**puzzle, "puzzle": {**block, "description": "Reach 1.\nThen 2."}})["errors"] == []
    bad = engine.validate_course({**puzzle, "puzzle": {**block, "description": "a\x00b"}})["errors"]
    assert bad and "puzzle.description" in bad[0]["message"]


def test_a_legacy_puzzle_block_is_upgraded_to_one_that_parses():
    """The first course builder wrote `{"goal": text, "turns": n}`; the data migration (courses 0003) rewrites
    it with engine.puzzle.upgrade_legacy."""
    from engine.puzzle import upgrade_legacy

    data = course(mode="puzzle")
    data["puzzle"] = {"goal": "Tag the flag.", "turns": 4, "players": 1}
    assert upgrade_legacy(data)
    assert data["puzzle"] == {"goal": {"type": "checkpoint", "number": 1}, "turn_limit": 4, "seed": 0, "targets": [],
                              "players": 1, "description": "Tag the flag."}  # fmt: skip
    assert engine.parse_course(data).puzzle["turn_limit"] == 4
    assert not upgrade_legacy(data)  # already upgraded
    assert not upgrade_legacy(course())  # not a puzzle
