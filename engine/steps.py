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
    "remains",  # ours: arena remains merge at the end of every phase (003 "Arena Remains"; engine.remains)
)
# 003 marks these "(Phase 5)": they run in the fifth phase only, and not once the race is won.
PHASE_5_ONLY = frozenset({"bombs", "repairs", "virtuality", "respawn"})
# After the five phases: the winning check (unless the race is already won) and the next turn's priority.
END_STEPS = ("winning", "priority")

Runner = Callable[["Turn"], None]
RUNNERS: dict[str, list[Runner]] = {}
_PLANS: dict[int, tuple[tuple[str, tuple[Runner, ...]], ...]] = {}  # phase -> steps with runners (`plan`)


def runs_in(step: str) -> Callable[[Runner], Runner]:
    if step not in PHASE_STEPS and step not in END_STEPS:
        raise ValueError(f"unknown step {step!r}")

    def register(runner: Runner) -> Runner:
        RUNNERS.setdefault(step, []).append(runner)
        _PLANS.clear()
        return runner

    return register


def plan(phase: int) -> tuple[tuple[str, tuple[Runner, ...]], ...]:
    """The steps of `phase` that have runners, in order, with their runners (the phase-5 steps only in the
    fifth phase; the caller skips them once the race is won). Derived from `PHASE_STEPS` and `RUNNERS`."""
    found = _PLANS.get(phase)
    if found is None:
        last = phase == 5
        found = _PLANS[phase] = tuple(
            (step, tuple(RUNNERS[step]))
            for step in PHASE_STEPS
            if RUNNERS.get(step) and (last or step not in PHASE_5_ONLY)
        )
    return found
