"""The shape every bot module shares (003 "Bot Modules", "Actions"): its name, how it is activated, and the
`Activation` a bot's activate action becomes. Module effects are added later as hook methods on the
subclasses; this file only knows what a legal activation looks like."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..chips import PROGRAM_LENGTH
from ..errors import InputError

ALL_PHASES = frozenset(range(1, PROGRAM_LENGTH + 1))
ACTIVATIONS = ("turn", "phase", "two_phases", "turret", "prioritizer", "scanner")
TURRET_AIMS = ("L", "R", "B")
PRIORITIZER_ORDERS = ("first", "last")


class ActionError(InputError):
    """An action that the rules refuse (003 "Actions"): the message names the problem."""


@dataclass(frozen=True)
class Activation:
    """What a bot activated this turn: read by the module effects through `turn.activations`."""

    owner: str
    module: str
    phases: frozenset[int]  # every phase for turn-based modules, else the chosen one or two
    aim: str | None = None  # Turret: "L", "R" or "B"
    front: bool | None = None  # Turret: also fires forward
    order: str | None = None  # Prioritizer: "first" or "last"

    def fields(self) -> dict[str, Any]:
        """The event fields of `module_activated`."""
        out: dict[str, Any] = {"module": self.module, "phases": sorted(self.phases)}
        if self.aim is not None:
            out["aim"], out["front"] = self.aim, self.front
        if self.order is not None:
            out["order"] = self.order
        return out


def _phase(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in ALL_PHASES:
        raise ActionError(f"a phase is a whole number from 1 to {PROGRAM_LENGTH}, got {value!r}")
    return value


class Module:
    """A bot module. `activation` is one of ACTIVATIONS; `needs_spare` asks for an unplayed move chip.

    Its effects are methods named after the bot hooks of `engine.hooks.BOT_HOOKS` (every hook is None
    here), called on one shared instance per module while the module is activated for the current phase
    (`Turn.bot_unit`), and step runners its file registers with `engine.steps.runs_in`."""

    name: ClassVar[str] = ""
    # Its display name, short help in a player's words and base price of a charge (`engine.catalog`,
    # `engine.modules.economy.BASE_PRICES`), in the module's own file.
    title: ClassVar[str] = ""
    help: ClassVar[str] = ""
    # What it does in a few words: the module menu's hint ("shots do 2 damage and push you back 1, ...").
    short: ClassVar[str] = ""
    base_price: ClassVar[int] = 0
    activation: ClassVar[str] = "turn"
    needs_spare: ClassVar[bool] = False
    # What the actions ask of a module instead of its name (issue 36): the module's own file says so.
    scans: ClassVar[bool] = False  # its charge is taken at the start of the next turn (Scanner)
    stores_chip: ClassVar[bool] = False  # activating it stores an unused chip of the hand (Storage)

    @classmethod
    def trial_activations(cls) -> list[dict[str, Any]]:
        """The activations worth trying (the computer players, engine.players), by the activation's shape."""
        if cls.activation == "phase":
            return [{"activate": {"phases": [n]}} for n in range(1, 6)]
        if cls.activation == "two_phases":
            return [{"activate": {"phases": [n, n + 1]}} for n in range(1, 5)]
        if cls.activation == "turret":
            return [{"activate": {"aim": aim, "front": front}} for aim in ("L", "R", "B") for front in (True, False)]
        if cls.activation == "prioritizer":
            return [{"activate": {"order": "first"}}]
        return [{"activate": {}}]

    @classmethod
    def parse_activation(cls, owner: str, payload: Any) -> Activation:
        """The Activation an `{"activate": payload}` action asks for, or ActionError saying what is wrong."""
        if not isinstance(payload, Mapping):
            raise ActionError(f"activate: must be an object, got {payload!r}")
        allowed = {
            "turn": set(), "scanner": set(), "phase": {"phases"}, "two_phases": {"phases"},
            "turret": {"aim", "front"}, "prioritizer": {"order"},
        }[cls.activation]  # fmt: skip
        unknown = sorted(set(payload) - allowed)
        if unknown:
            takes = ", ".join(sorted(allowed)) or "nothing"
            raise ActionError(f"activate {cls.name}: unknown key(s) {unknown} (it takes {takes})")
        missing = sorted(allowed - set(payload))
        if missing:
            raise ActionError(f"activate {cls.name}: missing {missing}")
        if cls.activation in ("phase", "two_phases"):
            phases = payload["phases"]
            size = 1 if cls.activation == "phase" else 2
            if not isinstance(phases, list) or len(phases) != size:
                raise ActionError(
                    f"activate {cls.name}: 'phases' must be a list of {size} phase(s), got {phases!r}"
                )
            chosen = [_phase(p) for p in phases]
            if size == 2 and chosen[1] != chosen[0] + 1:
                raise ActionError(
                    f"activate {cls.name}: 'phases' must be two consecutive phases [n, n+1], got {phases!r}"
                )
            return Activation(owner, cls.name, frozenset(chosen))
        if cls.activation == "turret":
            aim, front = payload["aim"], payload["front"]
            if aim not in TURRET_AIMS:
                raise ActionError(f"activate turret: 'aim' must be one of L, R, B, got {aim!r}")
            if not isinstance(front, bool):
                raise ActionError(f"activate turret: 'front' must be true or false, got {front!r}")
            return Activation(owner, cls.name, ALL_PHASES, aim=aim, front=front)
        if cls.activation == "prioritizer":
            order = payload["order"]
            if order not in PRIORITIZER_ORDERS:
                raise ActionError(f"activate prioritizer: 'order' must be 'first' or 'last', got {order!r}")
            return Activation(owner, cls.name, ALL_PHASES, order=order)
        return Activation(owner, cls.name, ALL_PHASES)


def _no_hooks() -> None:
    from ..hooks import BOT_HOOKS

    for hook in BOT_HOOKS:
        if not hasattr(Module, hook):
            setattr(Module, hook, None)


_no_hooks()
