"""Courses: parsing and validating the roboracer-course/1 JSON format (docs/formats.md).

The element types and their fields live in `engine.elements` (one module each); this module checks the
course as a whole, places each element on its layer, and builds the indexes the rules look things up in.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import rulesets
from .budget import Budget
from .elements import ELEMENT_TYPES, MISSING, Element
from .errors import CourseError
from .geometry import Square, neighbour, opposite
from .hooks import SQUARE_HOOKS, implements
from .puzzle import check_against as check_puzzle
from .puzzle import default_block as default_puzzle_block
from .puzzle import parse_block as parse_puzzle_block

if TYPE_CHECKING:
    from .elements.basic import Start
    from .elements.checkpoints import Checkpoint

COURSE_FORMAT = "roboracer-course/1"
MAX_SIDE = 64
MAX_NAME = 100  # the site stores the name in a column of this size
MODES = ("race", "arena", "puzzle")  # 003 "Overview": races, arenas, puzzles
RULESETS = ("roboracer",)  # the rulesets a course suits when it does not say (`rulesets`)


@dataclass(frozen=True, eq=False)
class Course:
    name: str
    width: int
    height: int
    mode: str
    players: tuple[int, int]
    elements: tuple[Element, ...]
    walls: frozenset[tuple[Square, str]]  # every walled edge, listed from both of its squares
    pits: frozenset[Square]
    tiles: Mapping[Square, Element]  # the floor layer: floor, pit, repair, belt, turntable
    markers: Mapping[Square, Element]  # start, check point
    ceiling: Mapping[Square, Element]  # crusher, teleporter
    covers: Mapping[Square, Element]  # force field, mirror
    liquids: Mapping[Square, Element]  # water, oil
    edges: Mapping[tuple[Square, str], Element]  # edge elements but plain walls, listed from both squares
    wall_weapons: tuple[Element, ...]  # wall lasers and blasters in reading order
    plain_shots: bool  # only walls stop shots: no cover, edge element or portal (shots can use `ray`)
    mounted: Mapping[str, Mapping[Square, tuple[Element, ...]]]  # type -> square -> side-mounted elements
    hooks: Mapping[str, Mapping[Square, tuple[Element, ...]]]  # hook -> square -> its elements implementing it
    by_type: Mapping[str, tuple[Element, ...]]  # in reading order (row by row from the north-west)
    starts: tuple[Start, ...]
    checkpoints: tuple[Checkpoint, ...]
    source: str  # the canonical JSON text of the course, for storage and drawing
    rulesets: tuple[str, ...] = RULESETS  # the rulesets the course suits
    puzzle: Mapping[str, Any] | None = None  # a puzzle course's `puzzle` block, as given
    _rays: dict[tuple[Square, str], tuple[Square, ...]] = dataclasses.field(default_factory=dict, repr=False)
    # Lookup tables a unit derives from the course once and keeps for every turn on it, under its own key
    # (`engine.elements.belts`: the belts by square). The course never changes, so neither do they.
    memo: dict[str, Any] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    def ray(self, at: Square, heading: str) -> tuple[Square, ...]:
        """The squares a shot from `at` (included) toward `heading` crosses before a wall or the edge stops it.

        Computed once per square and heading, since walls never move."""
        key = (at, heading)
        squares = self._rays.get(key)
        if squares is None:
            path = [at]
            while not self.wall_between(path[-1], heading):
                ahead = neighbour(path[-1], heading)
                if not self.on_course(ahead):
                    break
                path.append(ahead)
            squares = self._rays[key] = tuple(path)
        return squares

    def on_course(self, at: Square) -> bool:
        return 0 <= at[0] < self.width and 0 <= at[1] < self.height

    def wall_between(self, at: Square, direction: str) -> bool:
        """True when a wall stands on the edge leaving `at` toward `direction`."""
        return (at, direction) in self.walls

    def of_type(self, kind: str) -> tuple[Element, ...]:
        return self.by_type.get(kind, ())

    def to_dict(self) -> dict[str, Any]:
        return json.loads(self.source)


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


def squares_of(element: Element, width: int, height: int) -> list[Square]:
    """The squares an element concerns: its own, and for an edge element the square across the edge too
    (when that one is on the course)."""
    squares = [element.at]
    if ELEMENT_TYPES[element.type].layer == "edge":
        other = neighbour(element.at, element.side)
        if 0 <= other[0] < width and 0 <= other[1] < height:
            squares.append(other)
    return squares


def _rulesets(data: Mapping) -> tuple[str, ...] | None:
    if "rulesets" not in data:
        return None
    value = data["rulesets"]
    known = rulesets.available()
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(v, str) and v in known for v in value)
        or len(set(value)) != len(value)
    ):
        waiting = [v for v in value if v in rulesets.NAMES and v not in known] if isinstance(value, list) else []
        later = f" ({', '.join(map(repr, waiting))} is not available yet)" if waiting else ""
        raise CourseError(
            f"course: 'rulesets' must be a non-empty list of distinct rulesets from {', '.join(known)}, "
            f"got {value!r}{later}"
        )
    return tuple(value)


def _check_rulesets(course: Course) -> None:
    """Each ruleset the course says it suits knows every element on it, and its own checks pass (004: one
    goal, at most one decoration a square...)."""
    for name in course.rulesets:
        rules = rulesets.get(name)
        if course.mode not in rules.modes:
            raise CourseError(f"course: the {name} ruleset plays no {course.mode} (it plays {', '.join(rules.modes)})")
        low, high = rules.players
        if course.players[0] > high or course.players[1] < low:
            raise CourseError(f"course: the {name} ruleset takes {low} to {high} players, the course {list(course.players)}")
        if rules.elements is not None:
            for element in course.elements:
                if element.type not in rules.elements:
                    raise CourseError(
                        f"course: the {name} ruleset has no {element.type.replace('_', ' ')} "
                        f"(it knows {', '.join(sorted(rules.elements))})",
                        squares=[element.at],
                    )
        if rules.check_course is not None:
            rules.check_course(course)


def _header(data: Any) -> tuple[str, int, int, str, tuple[int, int], list]:
    if not isinstance(data, Mapping):
        raise CourseError("course: must be a JSON object")
    if data.get("format") != COURSE_FORMAT:
        raise CourseError(f"course: 'format' must be {COURSE_FORMAT!r}, got {data.get('format')!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CourseError("course: 'name' must be a non-empty string")
    if len(name) > MAX_NAME or not name.isprintable():
        raise CourseError(f"course: 'name' must be at most {MAX_NAME} characters, with no control characters")
    width, height = data.get("width"), data.get("height")
    for field, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SIDE:
            raise CourseError(f"course: '{field}' must be a whole number from 1 to {MAX_SIDE}, got {value!r}")
    mode = data.get("mode", "race")
    if not isinstance(mode, str) or mode not in MODES:
        raise CourseError(f"course: 'mode' must be 'race', 'arena' or 'puzzle', got {mode!r}")
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
    return name, width, height, mode, (players[0], players[1]), elements


def _element(raw: Any, index: int, width: int, height: int) -> Element:
    where = f"elements[{index}]"
    if not isinstance(raw, Mapping):
        raise CourseError(f"{where}: must be a JSON object")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in ELEMENT_TYPES:
        raise CourseError(
            f"{where}: unknown element type {kind!r} (known: {', '.join(sorted(ELEMENT_TYPES))})"
        )
    where = f"{where} ({kind})"
    spec = ELEMENT_TYPES[kind]
    unknown = set(raw) - {"type", "at"} - set(spec.fields)
    if unknown:
        raise CourseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    at = _square(raw.get("at"), where, width, height)
    fields = {}
    try:
        for field, check in spec.fields.items():
            if field not in raw and not getattr(check, "optional", False):
                raise CourseError(f"{where}: missing field '{field}'")
            fields[field] = check(raw.get(field, MISSING), where)
        element = spec.cls(at=at, **fields)
        if spec.check is not None:
            spec.check(element, where)
    except CourseError as error:
        if not error.squares:
            squares = [at]
            if spec.layer == "edge" and "side" in fields:
                other = neighbour(at, fields["side"])
                if 0 <= other[0] < width and 0 <= other[1] < height:
                    squares.append(other)
            raise CourseError(str(error), squares=squares) from None
        raise
    return element


def parse_course(data: Any, *, budget: Budget | None = None) -> Course:
    """Validate course data and build a Course; raises CourseError naming the bad element or field.

    `budget` (engine.budget): one unit per element read; TooComplex when it runs out."""
    name, width, height, mode, players, raw_elements = _header(data)
    suits = _rulesets(data)
    puzzle = parse_puzzle_block(data, mode, players)  # engine.puzzle (issue 16)
    elements = []
    for index, raw in enumerate(raw_elements):
        if budget is not None:
            budget.spend(1)
        elements.append(_element(raw, index, width, height))

    tiles: dict[Square, Element] = {}
    markers: dict[Square, Element] = {}
    ceiling: dict[Square, Element] = {}
    covers: dict[Square, Element] = {}
    liquids: dict[Square, Element] = {}
    edges: dict[tuple[Square, str], Element] = {}
    mounts: dict[tuple[Square, str], Element] = {}
    walls: set[tuple[Square, str]] = set()
    places: list[tuple[str, Element]] = []

    def here(element: Element) -> list[Square]:
        return squares_of(element, width, height)

    for index, element in enumerate(elements):
        where = f"elements[{index}] ({element.type})"
        layer = ELEMENT_TYPES[element.type].layer
        at = list(element.at)
        if layer == "tile":
            if element.at in tiles:
                raise CourseError(f"{where}: {at} already holds a {tiles[element.at].type}", squares=here(element))
            tiles[element.at] = element
        elif layer == "marker":
            if element.at in markers:
                raise CourseError(f"{where}: {at} already holds a {markers[element.at].type}", squares=here(element))
            markers[element.at] = element
        elif layer == "ceiling":
            if element.at in ceiling:
                raise CourseError(f"{where}: {at} already has a {ceiling[element.at].type} above it", squares=here(element))
            ceiling[element.at] = element
        elif layer in ("cover", "liquid"):
            layer_map = covers if layer == "cover" else liquids
            if element.at in layer_map:
                raise CourseError(f"{where}: {at} already holds a {layer_map[element.at].type}", squares=here(element))
            layer_map[element.at] = element
        elif layer == "mount":
            key = (element.at, element.side)
            if key in mounts:
                raise CourseError(f"{where}: side {element.side} of {at} already holds a {mounts[key].type}", squares=here(element))
            mounts[key] = element
        elif layer == "edge":
            edge = (element.at, element.side)
            if edge in walls or edge in edges:
                held = "wall" if edge in walls else edges[edge].type.replace("_", " ")
                raise CourseError(f"{where}: a {held} already stands on side {element.side} of {at}", squares=here(element))
            other = (neighbour(element.at, element.side), opposite(element.side))
            if element.type == "wall":
                walls.add(edge)
                walls.add(other)
            else:
                edges[edge] = edges[other] = element
        places.append((where, element))

    pits = frozenset(square for square, tile in tiles.items() if tile.pit)
    for where, element in places:
        layer = ELEMENT_TYPES[element.type].layer
        if layer in ("ceiling", "mount", "cover", "liquid") and element.at in pits:
            raise CourseError(f"{where}: can't be placed over the pit at {list(element.at)}", squares=here(element))
        tile = tiles.get(element.at)
        if layer == "marker" and tile is not None and tile.no_marker:
            raise CourseError(
                f"{where}: can't stand on the {tile.type.replace('_', ' ')} at {list(element.at)}", squares=here(element)
            )
        if element.type == "start" and element.at in covers:
            raise CourseError(
                f"{where}: can't stand under the {covers[element.at].type.replace('_', ' ')} at {list(element.at)}", squares=here(element)
            )
        if element.type == "oil" and tile is not None and tile.conveys:
            raise CourseError(f"{where}: oil can't lie on the belt at {list(element.at)}", squares=here(element))
        if element.type == "mirror" and element.at in markers:
            raise CourseError(
                f"{where}: a mirror can't stand on the {markers[element.at].type} at {list(element.at)}", squares=here(element)
            )
    colours: dict[str, list[Element]] = {}
    for element in elements:
        if element.type == "teleporter":
            colours.setdefault(element.colour, []).append(element)
    for colour, group in sorted(colours.items()):
        if len(group) < 2:
            raise CourseError(
                f"course: teleporters come in colour groups of 2 or more; {colour} has only {list(group[0].at)}",
                squares=[group[0].at],
            )

    numbered: dict[str, list[Element]] = {"start": [], "check point": []}  # starts, check points: by `noun`
    for e in elements:
        if e.numbered:
            numbered.setdefault(e.noun, []).append(e)
    starts = {e.number: e for e in numbered["start"]}
    checkpoints = {e.number: e for e in numbered["check point"]}
    for kind, group in numbered.items():
        numbers = [e.number for e in group]
        if len(set(numbers)) != len(numbers):
            twice = sorted({n for n in numbers if numbers.count(n) > 1})
            raise CourseError(
                f"course: two {kind}s have number {twice[0]}",
                squares=[e.at for e in group if e.number == twice[0]],
            )
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            raise CourseError(
                f"course: {kind} numbers must run 1..n without gaps, got {sorted(numbers)}",
                squares=[e.at for e in group],
            )
    shared = all(rulesets.get(name).shared_start for name in (suits or RULESETS))
    if len(starts) < players[1] and not (shared and starts):
        raise CourseError(
            f"course: {players[1]} players need {players[1]} starts, found {len(starts)}",
            squares=[e.at for e in starts.values()],
        )
    if not checkpoints and mode != "arena":
        raise CourseError(f"course: a {mode} course needs at least one check point")
    if checkpoints and mode == "arena":
        raise CourseError(
            "course: an arena has no check points (003 \"Arena\")", squares=[e.at for e in checkpoints.values()]
        )

    reading = sorted(elements, key=lambda e: (e.at[1], e.at[0]))
    by_type: dict[str, list[Element]] = {}
    mounted: dict[str, dict[Square, list[Element]]] = {}
    for element in reading:
        by_type.setdefault(element.type, []).append(element)
        if ELEMENT_TYPES[element.type].layer == "mount":
            mounted.setdefault(element.type, {}).setdefault(element.at, []).append(element)
    hooks: dict[str, dict[Square, list[Element]]] = {hook: {} for hook in SQUARE_HOOKS}
    for layer_map in (tiles, liquids, covers):  # engine.hooks.HOOK_LAYERS: the order a square's units answer
        for square, element in layer_map.items():
            for hook in SQUARE_HOOKS:
                if implements(type(element), hook):
                    hooks[hook].setdefault(square, []).append(element)
    canonical = {
        "format": COURSE_FORMAT,
        "name": name,
        "width": width,
        "height": height,
        "mode": mode,
        "players": list(players),
        "elements": [dict(e) for e in raw_elements],
    }
    if suits is not None:
        canonical["rulesets"] = list(suits)
    if puzzle is not None:
        canonical["puzzle"] = puzzle
    course = Course(
        name=name,
        width=width,
        height=height,
        mode=mode,
        players=players,
        elements=tuple(elements),
        walls=frozenset(walls),
        pits=pits,
        tiles=tiles,
        markers=markers,
        ceiling=ceiling,
        covers=covers,
        liquids=liquids,
        edges=edges,
        wall_weapons=tuple(e for e in reading if e.type in ("laser", "blaster")),
        plain_shots=not covers and not edges and "portal" not in mounted,
        mounted={kind: {sq: tuple(els) for sq, els in squares.items()} for kind, squares in mounted.items()},
        hooks={hook: {sq: tuple(els) for sq, els in squares.items()} for hook, squares in hooks.items()},
        by_type={kind: tuple(els) for kind, els in by_type.items()},
        starts=tuple(starts[n] for n in sorted(starts)),
        checkpoints=tuple(checkpoints[n] for n in sorted(checkpoints)),
        source=json.dumps(canonical, sort_keys=True, separators=(",", ":")),
        rulesets=suits or RULESETS,
        puzzle=puzzle,
    )
    _check_rulesets(course)
    if puzzle is not None:
        check_puzzle(puzzle, course)
    elif mode == "puzzle":
        course = dataclasses.replace(course, puzzle=default_puzzle_block(course))
    return course
