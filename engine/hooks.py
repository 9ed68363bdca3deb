"""The named hooks through which course elements (and bot modules) change what happens in a turn.

The core (`engine.turn`, `engine.resolve`) never asks what kind of element lies on a square. At each point
where a square, an edge or a bot may change the outcome, it calls the hook of that name on whatever
implements it there. An element implements a hook by defining a method of that name on its class; the
course indexes, per hook, the squares whose elements implement it (`Course.hooks`), so that a square
with nothing to say costs one dictionary lookup. On a square the elements are asked in layer order:
tile, then liquid, then cover.

Steps that act once per phase for everything on the course (belts, pushers, lasers...) are not hooks but
step runners: `engine.steps.runs_in`. `hook_table()` lists which unit implements which hook; it is the
table in docs/architecture.md (a test keeps the two equal).
"""

from __future__ import annotations

# Square hooks: asked of the elements on one square. Each entry: name -> when the core asks.
SQUARE_HOOKS = {
    "transform_chip": "a bot plays a chip from the square: the hook changes the chip (`ChipPlay`)",
    "chip_step": "before each square of a chip's own movement from the square",
    "leave": "a bot tries to leave the square: the hook turns the move or blocks it",
    "enter": "a bot tries to enter the square: the hook blocks it or not",
    "depart": "a bot's move off the square goes ahead: the hook may destroy it",
    "hole": "a bot arrives on the ground of the square: the hook names the hole it falls into",
    "fallen": "a bot fell into the square's hole",
    "arrive": "a bot arrived on the ground of the square",
    "land": "an airborne bot comes down on the square: the hook may destroy it",
    "settle": "a bot's movement stops on the square (after a chip, a push or a belt)",
    "blocks_shot": "a shot reaches the square: the hook stops it",
    "turns_shot": "a shot crosses the square: the hook turns it",
    "shot_hit": "a real bot's shot was stopped on the square",
}
# Edge hooks: asked of the element standing on the edge a move or a shot crosses.
EDGE_HOOKS = {
    "stops_move": "a move crosses the edge: the hook blocks it",
    "stops_shot": "a shot crosses the edge: the hook blocks it",
    "bumped": "a bot ran into the edge (was blocked by it)",
}
# Bot hooks: asked of a bot's module while it is activated for the current phase (`Turn.bot_unit`), before
# the square's own hook of the same name. A module implements one by defining a method of that name.
BOT_HOOKS = {
    "transform_chip": "the bot plays a chip: the hook changes the chip first (`ChipPlay`)",
    "leave": "the bot tries to leave its square: the hook turns the move or blocks it",
    "contact": "a real bot touches another real bot (pushes it, or is blocked by it): asked of both",
    "priority": "start of the turn, after the actions: the hook returns -1 (act before the bots whose hook "
    "says nothing) or 1 (after them); equal ranks keep the original priority (`Turn.prioritize`)",
    "fire": "the bot's weapon fires (`bot_lasers` step; asked in every phase of the turn the module is "
    "activated in): the hook fires in place of the forward laser",
    "hit": "a shot (a bot's, or a wall laser's, blaster's or repeller's) hits the bot: the hook may take it "
    "(`Strike`; True: the shot does nothing more)",
}
# The layers whose elements answer square hooks, in the order they are asked.
HOOK_LAYERS = ("tile", "liquid", "cover")


def implements(cls: type, hook: str) -> bool:
    return getattr(cls, hook, None) is not None


def hook_table() -> list[tuple[str, list[str]]]:
    """(hook, [units implementing it]) for every hook, in the order above; units by registered type name."""
    from .elements import ELEMENT_TYPES

    rows = []
    for hook in (*SQUARE_HOOKS, *EDGE_HOOKS):
        layers = HOOK_LAYERS if hook in SQUARE_HOOKS else ("edge",)
        units = sorted(
            name for name, spec in ELEMENT_TYPES.items() if spec.layer in layers and implements(spec.cls, hook)
        )
        rows.append((hook, units))
    return rows


def module_hook_table() -> list[tuple[str, list[str]]]:
    """(bot hook, [modules implementing it]) for every bot hook."""
    from .modules import MODULES

    return [
        (hook, sorted(name for name, cls in MODULES.items() if implements(cls, hook))) for hook in BOT_HOOKS
    ]


def step_table() -> list[tuple[str, list[str]]]:
    """(step, [units running in it]) for every step of `engine.steps`, in order; a unit is named by its
    module (`elements.belts`, `resolve` for the core rules)."""
    from . import resolve  # noqa: F401  (registers the core rules and every element's steps)
    from .steps import END_STEPS, PHASE_STEPS, RUNNERS

    return [
        (step, [f"{runner.__module__.removeprefix('engine.')}.{runner.__name__}" for runner in RUNNERS.get(step, ())])
        for step in (*PHASE_STEPS, *END_STEPS)
    ]


def hook_table_markdown() -> str:
    """The tables of docs/architecture.md "Hooks and steps"."""
    from .steps import PHASE_5_ONLY

    lines = ["| hook | when | implemented by |", "| --- | --- | --- |"]
    for hook, units in hook_table():
        when = SQUARE_HOOKS.get(hook) or EDGE_HOOKS[hook]
        lines.append(f"| `{hook}` | {when} | {', '.join(units) or '-'} |")
    lines += ["", "| bot hook | when | modules implementing it |", "| --- | --- | --- |"]
    for hook, units in module_hook_table():
        lines.append(f"| `{hook}` | {BOT_HOOKS[hook]} | {', '.join(units) or '-'} |")
    lines += ["", "| step | runs | runners |", "| --- | --- | --- |"]
    for step, runners in step_table():
        when = "phase 5" if step in PHASE_5_ONLY else "after the phases" if step in ("winning", "priority") else "every phase"
        lines.append(f"| `{step}` | {when} | {', '.join(f'`{r}`' for r in runners) or '-'} |")
    return "\n".join(lines)
