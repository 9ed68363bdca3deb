"""The order of a phase (003 "Phase Steps") and the registry of what runs in each step.

Every step 003 names is listed here in its place, including the ones whose elements come later; a step
with nothing registered is skipped. Elements and the core rules register a runner with `runs_in`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .turn import Turn

PHASE_STEPS = (
    "modules",
    "chips",
    "belts",
    "pushers",
    "turntables",
    "teleporters_before",
    "virtualizers",
    "bot_lasers",
    "wall_lasers",
    "wall_repellers",
    "teleporters_after",
    "bombs",
    "vents",
    "crushers",
    "screens",
    "force_fields",
    "checkpoints",
)
# Phase 5 only, after the last phase step: then the winning check and the next turn's priority.
END_STEPS = ("repairs", "virtuality", "respawn", "winning", "priority")

Runner = Callable[["Turn"], None]
RUNNERS: dict[str, list[Runner]] = {}


def runs_in(step: str) -> Callable[[Runner], Runner]:
    if step not in PHASE_STEPS and step not in END_STEPS:
        raise ValueError(f"unknown step {step!r}")

    def register(runner: Runner) -> Runner:
        RUNNERS.setdefault(step, []).append(runner)
        return runner

    return register
