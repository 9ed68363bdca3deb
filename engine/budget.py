"""A bound on the work of checking a course (docs/course-builder.md "Validator: cost").

The engine reads no clock, so it counts work instead: `spend(n)` is called with the number of units a step of
the parser or the validator does (an element read, a square and its ways out looked at in a reachability
search). A budget that runs out raises `TooComplex`, which the validator passes on (it is not a problem *of*
the course, so it is no entry of the report).

`StepBudget` is the engine's own: a number of units. The site passes an object with the same `spend` method
that converts its CPU-time budget (roboracer.courses.budget.CpuBudget). `None` anywhere means unbounded.
"""

from __future__ import annotations

from typing import Protocol

from .errors import InputError

TOO_COMPLEX = "this course is too complex to check"


class TooComplex(InputError):
    """The course could not be checked within the budget given; the message says so."""

    def __init__(self, message: str = TOO_COMPLEX) -> None:
        super().__init__(message)


class Budget(Protocol):
    def spend(self, units: int) -> None:
        """Count `units` of work; raise TooComplex once the budget is used up."""


class StepBudget:
    """`limit` units of work; `spent` says how many were used (also when it ran out)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.spent = 0

    def spend(self, units: int) -> None:
        self.spent += units
        if self.spent > self.limit:
            raise TooComplex()
