"""Rulesets (issue 19): what differs between the rule documents, as data and small strategies.

A `Ruleset` says how cards are written and dealt, how many a bot gets, which registers damage locks, what
destroys a bot and whether that costs a robot, which course elements it knows, which options a game may
set, and how a turn runs (`plan`, engine.plans: the order of a phase, priority, respawn and winning). The rest of the
engine asks the game's ruleset (`get(state.ruleset)`) and never compares ruleset names.

`roboracer` (003) is the primary ruleset; `roborace` (004) is the teaching version. The names of the
other rule documents (`classic` 000, `fused` 001) are known so that a course or a scenario naming them
gets a clear refusal until they are available.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError

DEFAULT = "roboracer"
# Every ruleset name of the formats (docs/formats.md "Rulesets"), in the order the documents are numbered.
NAMES = ("roboracer", "classic", "fused", "roborace")
# The modules that register a ruleset when imported.
_MODULES = {
    "roboracer": "engine.rulesets.roboracer",
    "classic": "engine.rulesets.classic",
    "fused": "engine.rulesets.fused",
    "roborace": "engine.rulesets.roborace",
}


@dataclass(frozen=True)
class Ruleset:
    name: str
    document: str  # the seed document it comes from ("003")
    title: str  # what players see ("RoboRacer")
    help: str  # what it is in a few words ("the full game (chips, damage, modules)"), `engine.catalog`
    max_damage: int  # damage that destroys a bot; damage runs 0 .. max_damage - 1 between turns
    counts_lives: bool  # a destruction costs one of the bot's robots (`lives`)
    numbered: bool  # cards carry numbers: "<chip>@<number>" (docs/formats.md "Numbered cards")
    modes: tuple[str, ...]  # the course modes it plays
    players: tuple[int, int]  # the fewest and most players it takes (a course may narrow it)
    reboots: bool  # a player may ask to reboot
    modules: bool  # bot modules may be offered
    teams: bool  # team play (003 "Team Play")
    hand_size: Callable[[Any], int]  # bot -> cards dealt
    locked: Callable[[Any], dict[int, str]]  # bot -> registers locked (frozen, fused) with their cards
    deal: Callable[[Any, int], dict[str, tuple[str, ...]]]  # (state, seed) -> hands
    card_problem: Callable[[str], str | None]  # a card as written -> why it is not one, or None
    # How a turn runs (`engine.plans.Plan`): its steps in order, played by the one runner `engine.plans.play`.
    plan: Any
    # Element types it knows (None: every element of the catalog), and a check of a course that suits it.
    elements: frozenset[str] | None = None
    check_course: Callable[[Any], None] | None = None  # raises CourseError
    options: Mapping[str, Any] = field(default_factory=dict)  # game options and their defaults
    damage: bool = True  # anything damages a robot at all (004: nothing does)
    # The robot sits this turn out (plays five "0"): rebooting (003, 001), powered down (000).
    sits_out: Callable[[Any], bool] = lambda bot: bot.rebooting
    # A new hand mid-turn for a price (000's Recompile): (state, bot id, seed) -> (state, hand); InputError if not.
    redeal: Callable[..., Any] | None = None
    awards: bool = False  # end-of-race awards (000), `engine.reports.awards`
    # The document's own report of a turn, a view of its events: (state before, events) -> JSON data.
    report: Callable[..., Any] | None = None
    # Every robot starts virtual on start 1, and a course needs only one start (001 "Mode").
    shared_start: bool = False
    # The ruleset's own bot fields (classic's): read and checked, (data, where) -> Bot keyword arguments, and
    # written, bot -> {field: value} (added to every stored bot and result bot).
    bot_fields: Callable[..., dict[str, Any]] | None = None
    bot_dict: Callable[[Any], dict[str, Any]] | None = None
    runner_up_rounds: int = 0  # rounds played on after the first robot finishes (000: 5); 0: the race ends
    # A scenario's per-bot requests of the ruleset (classic's `power_down`) as the turn's actions.
    requests: Callable[..., dict[str, Any]] | None = None
    # Offered on the site (a ruleset whose screen or rules are not finished is played in the engine only).
    site: bool = True
    # A program's legality and a random legal program, where they differ from 003's (engine.program).
    check_program: Callable[..., Any] | None = None  # (bot, hand, cards, action, *, state) -> ProgramError | None
    random_program: Callable[..., tuple[str, ...]] | None = None  # (bot, hand, seed) -> cards
    # What every player saw of a robot's action once the turn ran (classic's: no flywheel instruction, no
    # circuit breaker threshold), action -> the public action or None (nothing to show); None: all of it.
    public_action: Callable[[Any], Any] | None = None

    @property
    def label(self) -> str:
        """The lobby's words for it: "RoboRacer: the full game (chips, damage, modules)"."""
        return f"{self.title}: {self.help}"

    @property
    def resolve(self) -> Callable[..., Any]:
        """(state, programs, seed, *, reboots, actions, hands) -> (state, events): the plan, played."""
        return self.plan

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The ruleset's options with `options` applied; an unknown option or a wrong type is an InputError."""
        merged = dict(self.options)
        for key, value in options.items():
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise InputError(f"ruleset {self.name!r} has no option {key!r} (its options: {known})")
            if type(value) is not type(self.options[key]):
                raise InputError(f"option {key!r} must be {type(self.options[key]).__name__}, got {value!r}")
            merged[key] = value
        return merged


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    assert ruleset.name in NAMES and ruleset.name not in _REGISTRY, ruleset.name
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def available() -> tuple[str, ...]:
    """The rulesets a game can be played with, in document order."""
    for module in _MODULES.values():
        importlib.import_module(module)
    return tuple(name for name in NAMES if name in _REGISTRY)


def on_site() -> tuple[str, ...]:
    """The rulesets a game on the site can be created with."""
    return tuple(name for name in available() if _REGISTRY[name].site)


def get(name: str) -> Ruleset:
    """The ruleset of that name; an unknown or not yet available one is an InputError saying which."""
    found = _REGISTRY.get(name) if isinstance(name, str) else None
    if found is not None:
        return found
    if name in _MODULES:
        importlib.import_module(_MODULES[name])
        return _REGISTRY[name]
    if name in NAMES:
        raise InputError(f"ruleset {name!r} is not available yet (available: {', '.join(available())})")
    raise InputError(f"unknown ruleset {name!r} (known: {', '.join(NAMES)})")
