"""Errors the engine reports as values or raises on malformed input data."""

from __future__ import annotations

from dataclasses import dataclass


class InputError(ValueError):
    """Malformed course, scenario or state data. The message names the element or field."""


class CourseError(InputError):
    pass


class ScenarioError(InputError):
    pass


@dataclass(frozen=True)
class ProgramError:
    """An illegal program, returned (not raised) by check_program."""

    message: str

    def __str__(self) -> str:
        return self.message
