"""The engine side of the course builder (issue 17): the element catalog and the validator with warnings.

`element_catalog()` lists every registered element type with its layer and fields, read from the field
checkers' own descriptions (`engine.elements.described`), so a new element needs no editor change.
`validate_course(data)` never raises on bad data: it returns the parser's error (with the squares it
concerns) or, for a course that parses, the warnings of docs/course-builder.md "Validator".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import rulesets
from .budget import Budget, TooComplex
from .course import MAX_SIDE, MODES, Course, parse_course
from .elements import ELEMENT_TYPES, LAYERS
from .elements.portals import exit_of
from .errors import CourseError
from .geometry import DIRECTIONS, Square, neighbour, opposite

PHASES = (1, 2, 3, 4, 5)
# The top-level fields of a course; anything else is dropped by `Course.to_dict()` (a warning says so).
COURSE_FIELDS = ("format", "name", "width", "height", "mode", "players", "elements", "rulesets", "puzzle")
_FIELD_FACTS = ("choices", "min", "max")


def element_catalog() -> dict[str, Any]:
    """Every element type the engine knows, with its name and help (the element's own, as in `engine.catalog`),
    its layer and fields (docs/formats.md "Element catalog")."""
    elements = []
    for kind, spec in ELEMENT_TYPES.items():
        fields = []
        for name, checker in spec.fields.items():
            field: dict[str, Any] = {"name": name, "kind": checker.kind}
            for fact in _FIELD_FACTS:
                if hasattr(checker, fact):
                    value = getattr(checker, fact)
                    field[fact] = list(value) if isinstance(value, tuple) else value
            field["optional"] = bool(getattr(checker, "optional", False))
            if field["optional"]:
                default = checker.default
                field["default"] = sorted(default) if isinstance(default, (set, frozenset)) else default
            fields.append(field)
        elements.append({"type": kind, "name": spec.cls.title, "help": spec.cls.help, "layer": spec.layer, "fields": fields})
    return {
        "elements": elements,
        "layers": list(LAYERS),
        "modes": list(MODES),
        "rulesets": list(rulesets.available()),
        "max_side": MAX_SIDE,
    }


def _entry(message: str, squares: Iterable[Square] = ()) -> dict[str, Any]:
    unique: list[list[int]] = []
    for square in squares:
        if list(square) not in unique:
            unique.append(list(square))
    return {"message": message, "squares": unique}


def validate_course(data: Any, *, budget: Budget | None = None) -> dict[str, list[dict[str, Any]]]:
    """`{"errors": [...], "warnings": [...]}`, each entry `{"message", "squares": [[x, y], ...]}`.

    Errors come from `parse_course` (at most one: the parser stops at the first problem); warnings are
    only looked for when there is no error. No errors means `parse_course(data)` succeeds.

    `budget` (engine.budget) bounds the work; when it runs out, TooComplex is raised (the one exception this
    function lets through: it says nothing about the course but that it could not be checked)."""
    try:
        course = parse_course(data, budget=budget)
    except TooComplex:
        raise
    except CourseError as error:
        return {"errors": [_entry(str(error), error.squares)], "warnings": []}
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as error:  # never raise on bad data
        return {"errors": [_entry(f"course: can't be read ({type(error).__name__}: {error})")], "warnings": []}
    return {"errors": [], "warnings": course_warnings(course, data, budget=budget)}


def course_warnings(course: Course, data: Any = None, *, budget: Budget | None = None) -> list[dict[str, Any]]:
    """The warnings for a course that parses, in a fixed order (docs/course-builder.md "Validator")."""
    warnings: list[dict[str, Any]] = []
    if isinstance(data, dict):
        for field in sorted(set(data) - set(COURSE_FIELDS), key=str):
            warnings.append(_entry(f"course: unknown field {field!r} is not part of a course and is dropped"))
    warnings += _unreachable_checkpoints(course, budget)
    warnings += _starts_in_fire(course)
    warnings += _belts_into_walls(course)
    warnings += _starts_facing_walls(course)
    warnings += _crushed_every_phase(course)
    return warnings


def _square(at: Square) -> str:
    return f"[{at[0]}, {at[1]}]"


# --- Reachability -------------------------------------------------------------------------------------


def _move_blocked(course: Course, at: Square, heading: str) -> bool:
    """True when no bot can ever cross the edge leaving `at` toward `heading` by moving: a wall, or an edge
    element that stops moves that way in every phase (window, shocker, one-way wall against it)."""
    if course.wall_between(at, heading):
        return True
    element = course.edges.get((at, heading))
    return element is not None and all(element.stops_move(heading, phase) for phase in PHASES)


def _shot_blocked(course: Course, at: Square, heading: str) -> bool:
    if course.wall_between(at, heading):
        return True
    element = course.edges.get((at, heading))
    return element is not None and all(element.stops_shot(heading, phase) for phase in PHASES)


def _graph(course: Course, budget: Budget | None = None) -> list[list[int]]:
    """The ways a bot may go, optimistically (an over-approximation: a search never leaves out a square a bot
    could really get to; docs/course-builder.md "Validator"), as lists of node numbers, built once a course.

    Nodes: square (x, y) is `y * width + x`; then one hub a row, one a column, and one a teleporter colour. A
    vent leads to its row's and its column's hub (a bot leaving it flies over walls and pits to any square of
    them), a teleporter to its colour's hub and that hub to every teleporter of the colour. So the graph has a
    size linear in the squares, where listing every pair of teleporters (or every square a vent reaches) would
    not be (docs/course-builder.md "Validator: cost")."""
    width, height = course.width, course.height
    squares = width * height
    rows, columns, colours_from = squares, squares + height, squares + height + width
    colours: dict[str, int] = {}
    for teleporter in course.of_type("teleporter"):
        colours.setdefault(teleporter.colour, colours_from + len(colours))
    graph: list[list[int]] = [[] for _ in range(colours_from + len(colours))]
    portals = course.mounted.get("portal", {})
    for y in range(height):
        if budget is not None:
            budget.spend(width)
        for x in range(width):
            at, node = (x, y), y * width + x
            ways = graph[node]
            for heading in DIRECTIONS:
                ahead = neighbour(at, heading)
                if course.on_course(ahead) and not _move_blocked(course, at, heading):
                    ways.append(ahead[1] * width + ahead[0])
            for portal in portals.get(at, ()):
                exit_square = exit_of(course, portal)
                if exit_square is not None:
                    ways.append(exit_square[1] * width + exit_square[0])
            tile = course.tiles.get(at)
            if tile is not None and tile.lifts:  # a vent
                ways.extend((rows + y, columns + x))
            above = course.ceiling.get(at)
            if above is not None and above.teleports:
                hub = colours[above.colour]
                ways.append(hub)
                graph[hub].append(node)
    for y in range(height):
        graph[rows + y] = [y * width + x for x in range(width)]
    for x in range(width):
        graph[columns + x] = [y * width + x for y in range(height)]
    return graph


_SPEND_EVERY = 4096  # units a search counts before it tells the budget


def _search(course: Course, graph: list[list[int]], origin: Square, budget: Budget | None) -> bytearray:
    """Breadth-first from `origin` over `graph`: a byte a node, 1 where a bot could get to. Each node is
    entered at most once and each of its ways looked at once: linear in the graph. Pits are never entered (a
    bot falls in and is gone)."""
    seen = bytearray(len(graph))
    width = course.width
    for x, y in course.pits:
        seen[y * width + x] = 2  # never entered, never reported
    start = origin[1] * width + origin[0]
    seen[start] = 1
    queue = [start]
    units = 0
    for node in queue:  # the list grows as the search goes: a queue without pops
        ways = graph[node]
        units += 1 + len(ways)
        if units >= _SPEND_EVERY and budget is not None:
            budget.spend(units)
            units = 0
        for other in ways:
            if not seen[other]:
                seen[other] = 1
                queue.append(other)
    if budget is not None and units:
        budget.spend(units)
    return seen


def reachable(course: Course, origin: Square, *, budget: Budget | None = None,
              graph: list[list[int]] | None = None) -> set[Square]:
    """Every square a bot standing on `origin` could ever get to (never a pit: a bot falls in and is gone)."""
    graph = _graph(course, budget) if graph is None else graph
    seen = _search(course, graph, origin, budget)
    width = course.width
    return {(node % width, node // width) for node in range(course.width * course.height) if seen[node] == 1}


def _reaches(course: Course, graph: list[list[int]], origin: Square, target: Square, budget: Budget | None) -> bool:
    return _search(course, graph, origin, budget)[target[1] * course.width + target[0]] == 1


def _unreachable_checkpoints(course: Course, budget: Budget | None = None) -> list[dict[str, Any]]:
    """Check point 1 must be reachable from every start, and check point n from check point n - 1 (a bot
    that tagged it respawns there). One graph, then one linear search a start and a check point."""
    if not course.checkpoints:
        return []
    warnings = []
    graph = _graph(course, budget)
    first = course.checkpoints[0]
    for start in course.starts:
        if not _reaches(course, graph, start.at, first.at, budget):
            warnings.append(
                _entry(
                    f"check point 1 at {_square(first.at)} can't be reached from start {start.number} at "
                    f"{_square(start.at)}",
                    [first.at, start.at],
                )
            )
    for before, checkpoint in zip(course.checkpoints, course.checkpoints[1:], strict=False):
        if not _reaches(course, graph, before.at, checkpoint.at, budget):
            warnings.append(
                _entry(
                    f"check point {checkpoint.number} at {_square(checkpoint.at)} can't be reached from check "
                    f"point {before.number} at {_square(before.at)}",
                    [checkpoint.at, before.at],
                )
            )
    return warnings


# --- Wall weapons -------------------------------------------------------------------------------------


def beam(course: Course, weapon) -> tuple[Square, ...]:
    """The squares a wall laser's or blaster's beam may cross with no bot in the way: `Course.ray` when only
    walls stop shots; otherwise it also stops on a cover (a force field stops it, a mirror turns it), on an
    edge element that stops shots in every phase, and where a portal on the side it leaves by could take it."""
    heading = opposite(weapon.side)
    if course.plain_shots:
        return course.ray(weapon.at, heading)
    path = [weapon.at]
    while True:
        at = path[-1]
        if at in course.covers and at != weapon.at:
            break
        if _shot_blocked(course, at, heading):
            break
        if any(p.side == heading for p in course.mounted.get("portal", {}).get(at, ())):
            break
        ahead = neighbour(at, heading)
        if not course.on_course(ahead):
            break
        path.append(ahead)
    return tuple(path)


def _starts_in_fire(course: Course) -> list[dict[str, Any]]:
    starts = {start.at: start for start in course.starts}
    warnings = []
    for weapon in course.wall_weapons:
        for square in beam(course, weapon):
            start = starts.get(square)
            if start is not None:
                warnings.append(
                    _entry(
                        f"start {start.number} at {_square(square)} is in the line of the {weapon.noun} at "
                        f"{_square(weapon.at)} (side {weapon.side})",
                        [square, weapon.at],
                    )
                )
    return warnings


# --- Belts, starts, crushers --------------------------------------------------------------------------


def _ahead(course: Course, at: Square, heading: str) -> str | None:
    """What stops a move from `at` toward `heading` in every phase: "edge" (off the course), "wall", or None."""
    if not course.on_course(neighbour(at, heading)):
        return "edge"
    return "wall" if _move_blocked(course, at, heading) else None


def _belts_into_walls(course: Course) -> list[dict[str, Any]]:
    warnings = []
    for belt in course.of_type("belt"):
        stop = _ahead(course, belt.at, belt.dir)
        where = f"belt at {_square(belt.at)} runs {belt.dir}"
        if stop == "edge":
            warnings.append(_entry(f"{where} off the course", [belt.at]))
        elif stop == "wall":
            warnings.append(_entry(f"{where} into a wall", [belt.at, neighbour(belt.at, belt.dir)]))
    return warnings


def _starts_facing_walls(course: Course) -> list[dict[str, Any]]:
    warnings = []
    for start in course.starts:
        stop = _ahead(course, start.at, start.dir)
        where = f"start {start.number} at {_square(start.at)}"
        if stop == "edge":
            warnings.append(_entry(f"{where} faces {start.dir}, off the course", [start.at]))
        elif stop == "wall":
            warnings.append(_entry(f"{where} faces a wall ({start.dir})", [start.at, neighbour(start.at, start.dir)]))
    return warnings


def _crushed_every_phase(course: Course) -> list[dict[str, Any]]:
    warnings = []
    for marker in (*course.starts, *course.checkpoints):
        above = course.ceiling.get(marker.at)
        if above is not None and all(above.crushes(phase) for phase in PHASES):
            warnings.append(
                _entry(
                    f"{marker.noun} {marker.number} at {_square(marker.at)} is under a crusher that crushes in every phase",
                    [marker.at],
                )
            )
    return warnings
