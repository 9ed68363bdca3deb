"""Course elements: one small module per element, each registering its type once.

A module declares the element's dataclass and registers it with `register(...)`: the fields it reads
from the course JSON (each with a checker), the layer it lives on (which decides what may share its
square), an optional placement check, and, if the element acts during a phase, the step of
003 "Phase Steps" it acts in (`engine.steps.runs_in`). What an element does to a bot moving, playing a
chip, landing or being shot on its square is a method named after the hook (`engine.hooks`). Adding an
element touches only its own module and the import list at the bottom of this file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import CourseError
from ..geometry import DIRECTIONS, Square
from ..hooks import EDGE_HOOKS, SQUARE_HOOKS

# Layers: what may share a square.
#   tile    the floor itself: at most one of floor, pit, repair, belt, turntable, screen, damaged tile,
#           receptacle, rail, trapdoor, inverter, doubler, vent, magnet, virtualizer per square
#   marker  start and check point: at most one per square, never on a pit
#   ceiling above the floor (crusher, teleporter): at most one per square, never over a pit
#   cover   standing on the square and blocking it (force field, mirror): at most one, never over a pit
#   liquid  on top of the floor (water, oil): at most one per square, never on a pit
#   mount   on one side of a square (pusher, wall laser, blaster, repeller, portal): at most one per square
#           and side, never on a pit
#   edge    on the edge between two squares (wall, one-way wall, sliding wall, curtain, window, shocker):
#           at most one per edge
LAYERS = ("tile", "marker", "ceiling", "cover", "liquid", "mount", "edge")


@dataclass(frozen=True)
class Element:
    """An element of a course. It takes part in a turn through the hooks it defines (`engine.hooks`: a method
    of the hook's name; every hook is None here) and the steps it registers (`engine.steps.runs_in`)."""

    type: ClassVar[str] = ""
    # Its display name and short help in a player's words (`engine.catalog`), in the element's own file.
    title: ClassVar[str] = ""
    help: ClassVar[str] = ""
    # Its line in a board's legend ("Pit: a robot that falls in is destroyed"); "" for none (floor).
    short: ClassVar[str] = ""
    at: Square

    # What the rules and the course ask of an element instead of asking its class (issue 36); an element's
    # class answers for itself in its own file.
    pit: ClassVar[bool] = False  # a hole: nothing is placed over it, a bot can't cross it
    no_marker: ClassVar[bool] = False  # no start or check point stands on it
    numbered: ClassVar[bool] = False  # numbered 1..n on a course, each number once (starts, check points)
    conveys: ClassVar[bool] = False  # a belt: it carries a bot toward its `dir` at its `speed`
    archives: ClassVar[bool] = False  # 000/001: a robot on it stores its archive (reinstate) square there
    teleports: ClassVar[bool] = False  # a teleporter: it links its square with its colour's others
    lifts: ClassVar[bool] = False  # a vent: a bot lifted from it can come down anywhere in its row or column
    flag_number: ClassVar[int | None] = None  # a check point's number (`Checkpoint.flag_number`)
    repair_amount: ClassVar[int] = 0  # a repair tile's repair (`Repair.repair_amount`)
    quarter_turns: ClassVar[int] = 0  # a turntable's rotation: 1 clockwise, -1 counterclockwise

    @property
    def noun(self) -> str:
        """What a message calls it ("start", "check point", "wall laser")."""
        return self.type.replace("_", " ")

    def crushes(self, phase: int) -> bool:
        """It crushes a bot below it in `phase` (a crusher)."""
        return False

    def blasted(self, turn: Any, at: Square) -> None:
        """A bomb's blast reaches it (a mirror breaks)."""


for _hook in (*SQUARE_HOOKS, *EDGE_HOOKS):
    setattr(Element, _hook, None)


Checker = Callable[[Any, str], Any]


@dataclass(frozen=True)
class ElementType:
    cls: type[Element]
    layer: str
    fields: dict[str, Checker]
    check: Callable[[Element, str], None] | None = None  # extra placement rules; raises CourseError


ELEMENT_TYPES: dict[str, ElementType] = {}


def register(cls: type[Element], *, layer: str, fields: dict[str, Checker], check=None) -> type[Element]:
    assert layer in LAYERS and cls.type and cls.type not in ELEMENT_TYPES
    # Every field checker describes itself (`described`), so `engine.element_catalog()` can list it.
    assert all(getattr(checker, "kind", None) in FIELD_KINDS for checker in fields.values()), cls.type
    ELEMENT_TYPES[cls.type] = ElementType(cls=cls, layer=layer, fields=fields, check=check)
    return cls


# Field checkers: (value, where) -> parsed value, or CourseError naming the element and field. Each carries
# its description for the element catalog (`engine.element_catalog()`, docs/formats.md "Element catalog"):
# `kind` (one of FIELD_KINDS), and, where they apply, `choices`, `min`, `max`, `optional` and `default`.
FIELD_KINDS = ("direction", "whole", "choice", "phases", "sides", "flag", "colour")


def described(checker: Checker, kind: str, **facts: Any) -> Checker:
    """Attach the catalog description to a field checker and return it."""
    assert kind in FIELD_KINDS
    checker.kind = kind  # type: ignore[attr-defined]
    for key, value in facts.items():
        setattr(checker, key, value)
    return checker


def direction(field: str) -> Checker:
    def check(value: Any, where: str) -> str:
        if value not in DIRECTIONS:
            raise CourseError(f"{where}: '{field}' must be one of N, E, S, W, got {value!r}")
        return value

    return described(check, "direction", choices=list(DIRECTIONS))


def whole(field: str, low: int, high: int, allowed: tuple[int, ...] | None = None) -> Checker:
    def check(value: Any, where: str) -> int:
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        if ok and allowed is not None:
            ok = value in allowed
        if not ok:
            choices = ", ".join(map(str, allowed)) if allowed else f"{low} to {high}"
            raise CourseError(f"{where}: '{field}' must be one of {choices}, got {value!r}")
        return value

    if allowed is not None:
        return described(check, "whole", min=low, max=high, choices=list(allowed))
    return described(check, "whole", min=low, max=high)


def choice(field: str, options: tuple[str, ...]) -> Checker:
    def check(value: Any, where: str) -> str:
        if value not in options:
            raise CourseError(f"{where}: '{field}' must be one of {', '.join(options)}, got {value!r}")
        return value

    return described(check, "choice", choices=list(options))


def phases(field: str = "phases") -> Checker:
    def check(value: Any, where: str) -> frozenset[int]:
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 5 for v in value)
            or len(set(value)) != len(value)
        ):
            raise CourseError(
                f"{where}: '{field}' must be a non-empty list of distinct phases 1-5, got {value!r}"
            )
        return frozenset(value)

    return described(check, "phases", choices=[1, 2, 3, 4, 5])


def sides(field: str) -> Checker:
    def check(value: Any, where: str) -> frozenset[str]:
        if (
            not isinstance(value, list)
            or not all(v in DIRECTIONS for v in value)
            or len(set(value)) != len(value)
        ):
            raise CourseError(
                f"{where}: '{field}' must be a list of distinct sides N, E, S, W, got {value!r}"
            )
        return frozenset(value)

    return described(check, "sides", choices=list(DIRECTIONS))


def flag(field: str) -> Checker:
    def check(value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise CourseError(f"{where}: '{field}' must be true or false, got {value!r}")
        return value

    return described(check, "flag")


def optional(checker: Checker, default: Any) -> Checker:
    """A field that may be left out; `Missing` stands for an absent value."""

    def check(value: Any, where: str) -> Any:
        return default if value is MISSING else checker(value, where)

    facts = {key: value for key, value in vars(checker).items() if key not in ("optional", "default")}
    return described(check, facts.pop("kind"), **facts, optional=True, default=default)


MISSING = object()


# The element modules register themselves on import.
from . import basic, belts, checkpoints, crushers, lasers, pushers, turntables  # noqa: E402, F401, I001
from . import floors, edges, covers, teleporters, portals  # noqa: E402, F401, I001

__all__ = ["ELEMENT_TYPES", "FIELD_KINDS", "Element", "ElementType", "described", "register"]
