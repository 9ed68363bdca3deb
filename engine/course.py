"""Courses: parsing and validating the roboracer-course/1 JSON format (docs/formats.md).

Each element type is registered once in ELEMENT_TYPES with the fields it needs. A type is listed only
once the rules give it behaviour, so a course never carries an element that silently does nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import CourseError
from .geometry import DIRECTIONS, Square, neighbour, opposite

COURSE_FORMAT = "roboracer-course/1"
MAX_SIDE = 64


@dataclass(frozen=True)
class Start:
    number: int
    at: Square
    dir: str


@dataclass(frozen=True)
class Checkpoint:
    number: int
    at: Square


def _square(value: Any, where: str, width: int, height: int) -> Square:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise CourseError(f"{where}: 'at' must be [x, y] with two whole numbers, got {value!r}")
    x, y = value
    if not (0 <= x < width and 0 <= y < height):
        raise CourseError(f"{where}: 'at' {value!r} is off the {width}x{height} course")
    return (x, y)


def _direction(value: Any, where: str, field: str) -> str:
    if value not in DIRECTIONS:
        raise CourseError(f"{where}: '{field}' must be one of N, E, S, W, got {value!r}")
    return value


def _positive_int(value: Any, where: str, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise CourseError(f"{where}: '{field}' must be a whole number of at least 1, got {value!r}")
    return value


# Field checkers per element type: name -> checker(value, where) returning the parsed value.
Checker = Callable[[Any, str], Any]
ELEMENT_TYPES: dict[str, dict[str, Checker]] = {
    "wall": {"side": lambda v, w: _direction(v, w, "side")},
    "pit": {},
    "start": {"number": lambda v, w: _positive_int(v, w, "number"), "dir": lambda v, w: _direction(v, w, "dir")},
    "checkpoint": {"number": lambda v, w: _positive_int(v, w, "number")},
}


@dataclass(frozen=True)
class Course:
    name: str
    width: int
    height: int
    mode: str
    players: tuple[int, int]
    walls: frozenset[tuple[Square, str]]
    pits: frozenset[Square]
    starts: tuple[Start, ...]
    checkpoints: tuple[Checkpoint, ...]
    source: str  # the canonical JSON text of the course, for storage and drawing

    def on_course(self, at: Square) -> bool:
        return 0 <= at[0] < self.width and 0 <= at[1] < self.height

    def wall_between(self, at: Square, direction: str) -> bool:
        """True when a wall stands on the edge leaving `at` toward `direction`."""
        return (at, direction) in self.walls or (neighbour(at, direction), opposite(direction)) in self.walls

    def to_dict(self) -> dict[str, Any]:
        return json.loads(self.source)


def parse_course(data: Any) -> Course:
    """Validate course data and build a Course; raises CourseError naming the bad element or field."""
    if not isinstance(data, Mapping):
        raise CourseError("course: must be a JSON object")
    if data.get("format") != COURSE_FORMAT:
        raise CourseError(f"course: 'format' must be {COURSE_FORMAT!r}, got {data.get('format')!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CourseError("course: 'name' must be a non-empty string")
    width, height = data.get("width"), data.get("height")
    for field, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SIDE:
            raise CourseError(f"course: '{field}' must be a whole number from 1 to {MAX_SIDE}, got {value!r}")
    mode = data.get("mode", "race")
    if mode != "race":
        raise CourseError(f"course: 'mode' must be 'race', got {mode!r}")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in players)
        or not 1 <= players[0] <= players[1] <= 8
    ):
        raise CourseError(f"course: 'players' must be [min, max] with 1 <= min <= max <= 8, got {players!r}")
    elements = data.get("elements")
    if not isinstance(elements, list):
        raise CourseError("course: 'elements' must be a list")

    walls: set[tuple[Square, str]] = set()
    pits: set[Square] = set()
    starts: dict[int, Start] = {}
    checkpoints: dict[int, Checkpoint] = {}
    for index, element in enumerate(elements):
        where = f"elements[{index}]"
        if not isinstance(element, Mapping):
            raise CourseError(f"{where}: must be a JSON object")
        kind = element.get("type")
        if kind not in ELEMENT_TYPES:
            known = ", ".join(sorted(ELEMENT_TYPES))
            raise CourseError(f"{where}: unknown element type {kind!r} (known: {known})")
        where = f"{where} ({kind})"
        checkers = ELEMENT_TYPES[kind]
        unknown = set(element) - {"type", "at"} - set(checkers)
        if unknown:
            raise CourseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        at = _square(element.get("at"), where, width, height)
        fields = {}
        for field, check in checkers.items():
            if field not in element:
                raise CourseError(f"{where}: missing field '{field}'")
            fields[field] = check(element[field], where)
        if kind == "wall":
            edge = (at, fields["side"])
            twin = (neighbour(at, fields["side"]), opposite(fields["side"]))
            if edge in walls or twin in walls:
                raise CourseError(f"{where}: a wall already stands on side {fields['side']} of {list(at)}")
            walls.add(edge)
        elif kind == "pit":
            pits.add(at)
        elif kind == "start":
            if fields["number"] in starts:
                raise CourseError(f"{where}: two starts have number {fields['number']}")
            starts[fields["number"]] = Start(fields["number"], at, fields["dir"])
        elif kind == "checkpoint":
            if fields["number"] in checkpoints:
                raise CourseError(f"{where}: two check points have number {fields['number']}")
            checkpoints[fields["number"]] = Checkpoint(fields["number"], at)

    if sorted(starts) != list(range(1, len(starts) + 1)):
        raise CourseError(f"course: start numbers must run 1..n without gaps, got {sorted(starts)}")
    if len(starts) < players[1]:
        raise CourseError(f"course: {players[1]} players need {players[1]} starts, found {len(starts)}")
    if sorted(checkpoints) != list(range(1, len(checkpoints) + 1)):
        raise CourseError(f"course: check point numbers must run 1..n without gaps, got {sorted(checkpoints)}")
    for start in starts.values():
        if start.at in pits:
            raise CourseError(f"course: start {start.number} is on a pit at {list(start.at)}")
    for checkpoint in checkpoints.values():
        if checkpoint.at in pits:
            raise CourseError(f"course: check point {checkpoint.number} is on a pit at {list(checkpoint.at)}")
    if not checkpoints:
        raise CourseError("course: a race course needs at least one check point")

    canonical = {
        "format": COURSE_FORMAT,
        "name": name,
        "width": width,
        "height": height,
        "mode": mode,
        "players": list(players),
        "elements": [dict(e) for e in elements],
    }
    return Course(
        name=name,
        width=width,
        height=height,
        mode=mode,
        players=(players[0], players[1]),
        walls=frozenset(walls),
        pits=frozenset(pits),
        starts=tuple(starts[n] for n in sorted(starts)),
        checkpoints=tuple(checkpoints[n] for n in sorted(checkpoints)),
        source=json.dumps(canonical, sort_keys=True, separators=(",", ":")),
    )
