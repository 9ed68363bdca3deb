"""The order of a phase (003 "Phase Steps") and the registry of what runs in each step.

This is the one place 003's order is declared (the `roboracer` plan's phase steps, `phase_plan`; the other
rulesets declare theirs in their own files, engine.plans). Every step 003 names is listed here in its place, including
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
_STEPS: dict[int | None, tuple] = {}  # phase (None: all) -> engine.plans.Step (`phase_plan`)


def runs_in(step: str) -> Callable[[Runner], Runner]:
    if step not in PHASE_STEPS and step not in END_STEPS:
        raise ValueError(f"unknown step {step!r}")

    def register(runner: Runner) -> Runner:
        RUNNERS.setdefault(step, []).append(runner)
        _STEPS.clear()
        return runner

    return register


def phase_plan(phase: int | None = None) -> tuple:
    """The phase steps of the `roboracer` plan as `engine.plans.Step`s: every step of `PHASE_STEPS` with its
    registered runners (`phase` given: only those that run in it), the phase-5 steps skipped once the race is
    won. Derived from `PHASE_STEPS`, `PHASE_5_ONLY` and `RUNNERS`."""
    found = _STEPS.get(phase)
    if found is None:
        from .plans import PHASES, WON, Step

        every = tuple(
            Step(step, tuple(RUNNERS.get(step, ())), **({"phases": frozenset({5}), "unless": WON} if step in PHASE_5_ONLY else {}))
            for step in PHASE_STEPS
        )
        found = _STEPS[phase] = every if phase is None else tuple(
            s for s in every if s.runners and phase in s.phases
        )
        assert all(s.phases <= PHASES for s in every)
    return found
