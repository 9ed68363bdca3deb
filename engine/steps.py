"""The order of a phase (003 "Phase Steps") and the registry of what runs in each step.

This is the one place the order is declared. Every step 003 names is listed here in its place, including
the ones marked "(Phase 5)", which run in the fifth phase only (`PHASE_5_ONLY`) and not once the race is
won. A step with nothing registered is skipped. Elements, modules and the core rules register a runner
with `runs_in`; what a single square, edge or bot does inside a step goes through `engine.hooks`.
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
    "repairs",
    "virtualizer_modules",
    "virtuality",
    "respawn",
)
# 003 marks these "(Phase 5)": they run in the fifth phase only, and not once the race is won.
PHASE_5_ONLY = frozenset({"bombs", "repairs", "virtuality", "respawn"})
# After the five phases: the winning check (unless the race is already won) and the next turn's priority.
END_STEPS = ("winning", "priority")

Runner = Callable[["Turn"], None]
RUNNERS: dict[str, list[Runner]] = {}


def runs_in(step: str) -> Callable[[Runner], Runner]:
    if step not in PHASE_STEPS and step not in END_STEPS:
        raise ValueError(f"unknown step {step!r}")

    def register(runner: Runner) -> Runner:
        RUNNERS.setdefault(step, []).append(runner)
        return runner

    return register
