"""The course check's CPU budget (docs/course-builder.md "Validator: cost").

The engine counts work and reads no clock (engine.budget); the site turns its budget of CPU seconds into that
interface here: `CpuBudget.spend` is called by the engine as it works, and every CHECK_EVERY units it reads
this thread's CPU time (`time.thread_time`: a request is served by one thread, so this is the request's own
CPU, not the machine's nor the wall's). Past the budget it raises engine.TooComplex, which the selectors and
services turn into CourseTooComplex: a 422 that changes nothing.

The budget, `settings.COURSE_CHECK_CPU_SECONDS` (3 s unless set), covers everything done to one request's
course: the validator's report and the parse that builds what is saved. The worst course within today's
limits takes about 0.2 s here (`make bench-validate`).
"""

from __future__ import annotations

import time

from django.conf import settings

import engine
from roboracer.common.errors import InvalidInput

DEFAULT_SECONDS = 3.0
CHECK_EVERY = 4096  # units of engine work between two readings of the CPU clock


class CourseTooComplex(InvalidInput):
    """The course could not be checked within the CPU budget (HTTP 422, docs/api.md)."""

    status_code = 422


def seconds() -> float:
    return float(getattr(settings, "COURSE_CHECK_CPU_SECONDS", DEFAULT_SECONDS))


def too_complex_message() -> str:
    return (f"{engine.budget.TOO_COMPLEX}: it takes more than {seconds():g} s of CPU, the most one request "
            "may use; use fewer squares, teleporters, vents, portals or check points")


class CpuBudget:
    """`limit` seconds of this thread's CPU time from now, for the engine's `spend` calls."""

    def __init__(self, limit: float | None = None) -> None:
        self.limit = seconds() if limit is None else limit
        self.started = time.thread_time()
        self.units = 0

    def spend(self, units: int) -> None:
        self.units += units
        if self.units >= CHECK_EVERY:
            self.units = 0
            if time.thread_time() - self.started >= self.limit:
                raise engine.TooComplex(too_complex_message())
