"""Errors the engine reports as values or raises on malformed input data."""

from __future__ import annotations

from dataclasses import dataclass


class InputError(ValueError):
    """Malformed course, scenario or state data. The message names the element or field."""


class CourseError(InputError):
    """A course the engine refuses. `squares` lists the [x, y] squares the problem concerns, where the parser
    knows them (an element's `at`, both squares of an edge), for the course builder to point at; the message
    alone is what `str()` gives, unchanged."""

    def __init__(self, message: str = "", squares=()) -> None:
        super().__init__(message)
        self.squares: tuple[tuple[int, int], ...] = tuple(tuple(square) for square in squares)


class ScenarioError(InputError):
    pass


@dataclass(frozen=True)
class ProgramError:
    """An illegal program, returned (not raised) by check_program."""

    message: str

    def __str__(self) -> str:
        return self.message
