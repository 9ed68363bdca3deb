"""Step plans (issue 36): how a ruleset's turn runs, declared as data, and the one runner that plays any plan.

A `Plan` names, in order, the steps before the phases (`begin`), the steps of each of the five phases
(`phase`), what ends the phases early (`stops`), the steps after them (`end`: repairs, respawn, the winning
check, in the order the ruleset's document gives) and the end of the turn (`finish`: the next priority and the
robots as they go into the next turn). A `Step` is a name (the `step` its events carry) and its runners, with
the phases it runs in and the conditions that skip it. Steps come from a shared library (this module's
`winning`, `conveyors`; 003's registered runners, `engine.steps`) or from the ruleset's own file where it
differs. `play(plan, ...)` runs any of them; `plan_table_markdown()` is the table of docs/architecture.md
"Step plans" (`python -m engine plans --markdown`; a test keeps the two equal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .chips import PROGRAM_LENGTH
from .errors import InputError

if TYPE_CHECKING:
    from .state import State
    from .turn import Event, Turn

Runner = Callable[["Turn"], None]
PHASES = frozenset(range(1, PROGRAM_LENGTH + 1))


@dataclass(frozen=True)
class Condition:
    """A named test of the turn: a step runs `when` it holds, or is skipped `unless` it holds."""

    name: str
    test: Callable[[Turn], bool]

    def __call__(self, turn: Turn) -> bool:
        return self.test(turn)


WON = Condition("won", lambda turn: turn.winner is not None)


@dataclass(frozen=True)
class Step:
    name: str  # what its events carry as their `step`
    runners: tuple[Runner, ...]
    phases: frozenset[int] = PHASES  # the phases it runs in (a phase step)
    unless: Condition | None = None  # skipped while this holds
    when: Condition | None = None  # run only while this holds

    def skipped(self, turn: Turn) -> bool:
        return (self.unless is not None and self.unless(turn)) or (self.when is not None and not self.when(turn))


def step(name: str, *runners: Runner, **options: Any) -> Step:
    return Step(name, tuple(runners), **options)


@dataclass(frozen=True)
class Plan:
    """A ruleset's turn. `prepare(state, programs, seed, *, reboots, actions, hands)` checks the input and
    returns the turn (`Turn`, with the ruleset's own data for the turn in `turn.local`); `finish(turn)` returns
    the next state's fields that are the ruleset's (`bots`, `priority`, ...). `phase` is the phase steps, or a
    callable (phase, or None for all) returning them (003's, from the runners registered in `engine.steps`)."""

    ruleset: str
    prepare: Callable[..., Turn]
    begin: tuple[Step, ...]
    phase: tuple[Step, ...] | Callable[[int | None], tuple[Step, ...]]
    stops: tuple[Condition, ...]
    end: tuple[Step, ...]
    finish: Callable[[Turn], dict[str, Any]]
    _compiled: dict[int, tuple[Step, ...]] = field(default_factory=dict, compare=False, repr=False)

    def phase_steps(self) -> tuple[Step, ...]:
        return self.phase(None) if callable(self.phase) else self.phase

    def steps_of(self, phase: int) -> tuple[Step, ...]:
        """The steps of `phase` that have runners, in order."""
        if callable(self.phase):
            return self.phase(phase)
        found = self._compiled.get(phase)
        if found is None:
            found = self._compiled[phase] = tuple(s for s in self.phase if s.runners and phase in s.phases)
        return found

    def __call__(
        self,
        state: State,
        programs: Mapping[str, Sequence[str]],
        seed: int,
        *,
        reboots: Iterable[str] = (),
        actions: Mapping[str, Mapping] | None = None,
        hands: Mapping[str, Sequence[str]] | None = None,
    ) -> tuple[State, list[Event]]:
        return play(self, state, programs, seed, reboots=reboots, actions=actions, hands=hands)


def _run(turn: Turn, steps: Iterable[Step]) -> None:
    for each in steps:
        unless, when = each.unless, each.when
        if (unless is not None and unless.test(turn)) or (when is not None and not when.test(turn)):
            continue  # `Step.skipped`, inlined: this loop runs some sixty steps a turn
        turn.step = each.name
        for runner in each.runners:
            runner(turn)


def play(
    plan: Plan,
    state: State,
    programs: Mapping[str, Sequence[str]],
    seed: int,
    *,
    reboots: Iterable[str] = (),
    actions: Mapping[str, Mapping] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
) -> tuple[State, list[Event]]:
    """Run one turn of `plan`: the checks, the steps before the phases, the five phases (until a stop holds
    after one), the steps after them and the end of the turn. Returns the next state and the events."""
    from .state import State

    if state.finished:
        raise InputError("the game is already over")
    turn = plan.prepare(state, programs, seed, reboots=reboots, actions=actions, hands=hands)
    _run(turn, plan.begin)
    for phase in range(1, PROGRAM_LENGTH + 1):
        turn.phase = phase
        _run(turn, plan.steps_of(phase))
        if plan.stops and any(stop.test(turn) for stop in plan.stops):
            break
    _run(turn, plan.end)
    turn.step = "priority"
    fields = plan.finish(turn)
    new_state = State(
        course=state.course,
        turn=state.turn + 1,
        winner=turn.winner,
        lives=state.lives,
        ruleset=state.ruleset,
        options=state.options,
        **fields,
    )
    return new_state, turn.events


# --- the shared library ------------------------------------------------------------------------------------


def winning(**options: Any) -> Step:
    """The last bot alive wins (`engine.resolve.last_bot_alive`), after the respawn."""
    from .resolve import last_bot_alive

    return step("winning", last_bot_alive, **options)


def conveyors(speeds: tuple[int, ...], **how: Any) -> Runner:
    """The play-by-mail rulesets' belts (`engine.rulesets.conveyors.convey`) with these speeds and rules."""
    from .rulesets.conveyors import convey

    def belts(turn: Turn) -> None:
        convey(turn, speeds, **how)

    belts.__qualname__ = f"conveyors({', '.join(map(str, speeds))})"
    return belts


# --- the table ---------------------------------------------------------------------------------------------


def _runner_name(runner: Runner) -> str:
    module = runner.__module__.removeprefix("engine.")
    return f"{module}.{runner.__qualname__}"


def _when(each: Step, phase_step: bool) -> str:
    parts = []
    if phase_step and each.phases != PHASES:
        parts.append("phase " + ", ".join(map(str, sorted(each.phases))))
    if each.when is not None:
        parts.append(f"when {each.when.name}")
    if each.unless is not None:
        parts.append(f"unless {each.unless.name}")
    return "; ".join(parts) or "always"


def plan_rows(plan: Plan) -> list[tuple[str, str, str, str]]:
    """(part, step, when, runners) for every step of the plan, in the order they run."""
    rows = []
    for part, steps in (("before the phases", plan.begin), ("each phase", plan.phase_steps()),
                        ("after the phases", plan.end)):  # fmt: skip
        for each in steps:
            if not each.runners:
                continue
            runners = ", ".join(f"`{_runner_name(r)}`" for r in each.runners)
            rows.append((part, each.name, _when(each, part == "each phase"), runners))
        if part == "each phase" and plan.stops:
            rows.append(("each phase", "(stop)", "the phases end when " + " or ".join(s.name for s in plan.stops), "-"))
    rows.append(("end of the turn", "priority", "always", f"`{_runner_name(plan.finish)}`"))
    return rows


def plans() -> dict[str, Plan]:
    from . import resolve, rulesets  # noqa: F401  (registers the core rules and every element's steps)

    return {name: rulesets.get(name).plan for name in rulesets.available()}


def plan_table_markdown() -> str:
    """The tables of docs/architecture.md "Step plans": one per ruleset, its steps in the order they run."""
    from . import rulesets

    out = []
    for name, plan in plans().items():
        rules = rulesets.get(name)
        out += [f"**{name}** ({rules.document}, {rules.title})", "", "| part | step | runs | runners |",
                "| --- | --- | --- | --- |"]  # fmt: skip
        for part, name_, when, runners in plan_rows(plan):
            shown = name_ if name_.startswith("(") else f"`{name_}`"
            out.append(f"| {part} | {shown} | {when} | {runners} |")
        out.append("")
    return "\n".join(out).rstrip()
