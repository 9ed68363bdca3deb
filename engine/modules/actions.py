"""Module actions (003 "Actions", "Battery", "The Economy", "Storage", "Scanner"): checking one bot's action,
and applying the turn's actions at the start of the turn.

One action per bot and turn, exactly one of
    {"install": name}          replaces the installed module and discards its charges
    {"charge": n}              n = 1..5 charges, paid from the battery at the current prices
    {"activate": {...}}        uses one charge (the Scanner's is taken at the start of the next turn)
The checks are shared: `engine.check_program(..., action, state=...)` returns them as a ProgramError, and
`resolve_turn` raises them as an InputError. docs/rules.md "Bot modules" has the decisions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..chips import DEALT_CHIPS, FULL_HAND, IDLE, PROGRAM_LENGTH
from ..errors import InputError
from . import MODULE_NAMES, MODULES
from .base import ActionError, Activation
from .economy import charge_cost

if TYPE_CHECKING:
    from ..state import Bot, State
    from ..turn import Turn

STORED = "S"  # a program register playing the bot's stored chip
SPARE_CHIPS = ("1", "2", "3", "B")  # move chips that can be the spare of Turbo and Crab Legs
MAX_CHARGE_ACTION = 5  # 003 "Actions": at most 5 charges in one turn
MAX_CHARGES = 99
RECHARGE = {"race": 50, "arena": 10, "puzzle": 0}  # 003 "Battery", per turn
REMAINS_BATTERY = 100  # 003 "Arena Remains": +100 battery for each remains collected


def _frozen(bot: Bot) -> dict[int, str]:
    from ..program import frozen_registers  # program.py imports this module

    return frozen_registers(bot)


def available_charges(bot: Bot) -> int:
    """Charges the bot can use this turn: a Scanner activated last turn still owes one (taken at the start
    of this turn, 003 "Scanner")."""
    return max(0, bot.charges - (1 if bot.scan_due else 0))


def unused_chips(bot: Bot, hand: Sequence[str], program: Sequence[str]) -> list[str]:
    """The hand's chips the program does not play, in hand order. Frozen registers and "S" take nothing
    from the hand; each chip in another register uses one copy of it."""
    frozen = _frozen(bot)
    used = Counter(chip for index, chip in enumerate(program) if index not in frozen and chip != STORED)
    unused = []
    for chip in hand:
        if used[chip]:
            used[chip] -= 1
        else:
            unused.append(chip)
    return unused


def stored_chip_problem(bot: Bot, program: Sequence[str]) -> str | None:
    """What is wrong with the program's "S" registers (playing the stored chip), if anything."""
    registers = [index for index, chip in enumerate(program) if chip == STORED]
    if not registers:
        return None
    if len(registers) > 1:
        return "a program plays the stored chip ('S') at most once"
    if bot.stored_chip is None:
        return f"register {registers[0] + 1}: 'S' plays the stored chip, and the bot has none stored"
    if registers[0] in _frozen(bot):
        return f"register {registers[0] + 1} is frozen: the stored chip can't be played there"
    return None


def play_stored(bot: Bot, program: Sequence[str]) -> tuple[str, ...]:
    """The program with its "S" register replaced by the stored chip (checked first)."""
    return tuple(bot.stored_chip if chip == STORED else chip for chip in program)


def _who_may_act(bot: Bot) -> str | None:
    if bot.drone_of is not None:
        return "a drone takes no actions: it plays its owner's chips"
    if bot.at is None:
        return "a destroyed bot takes no actions"
    if bot.rebooting:
        return "a rebooting bot takes no actions this turn"
    return None


def action_problem(
    bot: Bot,
    action: Any,
    *,
    prices: Mapping[str, int],
    hand: Sequence[str] | None,
    program: Sequence[str] | None,
) -> str | None:
    """None when `bot` may take `action` this turn, else a message naming the problem."""
    try:
        _check(bot, action, prices=prices, hand=hand, program=program)
    except ActionError as error:
        return str(error)
    return None


def _check(
    bot: Bot, action: Any, *, prices: Mapping[str, int], hand: Sequence[str] | None, program: Sequence[str] | None
) -> Activation | None:
    if not isinstance(action, Mapping) or len(action) != 1 or next(iter(action)) not in (
        "install", "charge", "activate",
    ):  # fmt: skip
        raise ActionError(
            'an action is exactly one of {"install": name}, {"charge": n}, {"activate": {...}}, '
            f"got {action!r}"
        )
    problem = _who_may_act(bot)
    if problem:
        raise ActionError(problem)
    if not prices:
        raise ActionError("no modules are available in this game")
    (kind, value), = action.items()
    if kind == "install":
        if value not in MODULE_NAMES:
            raise ActionError(f"install: unknown module {value!r} (known: {', '.join(MODULE_NAMES)})")
        if value not in prices:
            raise ActionError(f"install: module {value!r} is not available in this game")
        return None
    if bot.module is None:
        raise ActionError(f"{kind}: no module is installed")
    if bot.module not in prices:
        raise ActionError(f"{kind}: the installed module {bot.module!r} is not available in this game")
    if kind == "charge":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_CHARGE_ACTION:
            raise ActionError(f"charge: a whole number of charges from 1 to {MAX_CHARGE_ACTION}, got {value!r}")
        if bot.charges + value > MAX_CHARGES:
            raise ActionError(f"charge: a module holds at most {MAX_CHARGES} charges")
        cost, _ = charge_cost(prices, bot.module, value)
        if cost > bot.battery:
            raise ActionError(
                f"charge: not enough battery: {value} charge(s) of {bot.module} cost {cost}, "
                f"the battery holds {bot.battery}"
            )
        return None
    module = MODULES[bot.module]
    if available_charges(bot) < 1:
        raise ActionError(f"activate: the {bot.module} has no charge left")
    activation = module.parse_activation(bot.id, value)
    if module.needs_spare or module.stores_chip:
        if hand is None or program is None:
            raise ActionError(f"activate {module.name}: needs the bot's hand (the unplayed chips)")
        unused = unused_chips(bot, hand, program)
        if module.needs_spare and not any(chip in SPARE_CHIPS for chip in unused):
            raise ActionError(
                f"activate {module.name}: needs a spare move chip (1, 2, 3 or B in the hand, not in the program)"
            )
        if module.stores_chip and not unused:
            raise ActionError("activate storage: the hand has no unused chip to store")
    return activation


# --- a whole turn's actions --------------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """A turn's checked module inputs: programs with "S" replaced by the stored chip and drones given their
    owner's chips, the register where each bot plays its stored chip, the actions and the activations."""

    programs: dict[str, Sequence[str]]
    stored_played: dict[str, int]
    actions: dict[str, Mapping[str, Any]]
    activations: dict[str, Activation]
    hands: dict[str, tuple[str, ...]]


def _check_hands(state: State, hands: Any) -> dict[str, tuple[str, ...]]:
    if hands is None:
        return {}
    if not isinstance(hands, Mapping):
        raise InputError(f"hands: must be an object of bot id -> chips, got {hands!r}")
    ids = {bot.id for bot in state.bots}
    checked = {}
    for bot_id, hand in hands.items():
        if bot_id not in ids:
            raise InputError(f"hands: {bot_id!r} is not a bot of this game")
        if not isinstance(hand, (list, tuple)) or len(hand) > FULL_HAND or any(c not in DEALT_CHIPS for c in hand):
            raise InputError(
                f"hands.{bot_id}: at most {FULL_HAND} chips from {' '.join(DEALT_CHIPS)}, got {hand!r}"
            )
        checked[bot_id] = tuple(hand)
    return checked


def prepare_turn(
    state: State, programs: Mapping[str, Sequence[str]], actions: Any, hands: Any
) -> Prepared:
    """Check the turn's module inputs against `state` (InputError naming the bot and the problem)."""
    hands = _check_hands(state, hands)
    if actions is None:
        actions = {}
    if not isinstance(actions, Mapping):
        raise InputError(f"actions: must be an object of bot id -> action, got {actions!r}")
    bots = {bot.id: bot for bot in state.bots}
    for bot_id in actions:
        if bot_id not in bots:
            raise InputError(f"actions: {bot_id!r} is not a bot of this game")
    out: dict[str, Sequence[str]] = dict(programs)
    stored_played: dict[str, int] = {}
    for bot in state.bots:
        program = programs.get(bot.id)
        if bot.drone_of is not None:
            if program is not None:
                raise InputError(f"bot {bot.id!r} is a drone of {bot.drone_of!r}: it plays its owner's chips")
            continue
        if program is None or not isinstance(program, (list, tuple)) or STORED not in program:
            continue
        problem = stored_chip_problem(bot, program)
        if problem:
            raise InputError(f"bot {bot.id!r}: {problem}")
        if bot.rebooting or bot.at is None:
            raise InputError(f"bot {bot.id!r}: only a bot on the course playing its own chips plays 'S'")
        stored_played[bot.id] = list(program).index(STORED)
        out[bot.id] = play_stored(bot, program)
    for bot in state.bots:
        if bot.drone_of is not None and bot.at is not None:
            owner = bots[bot.drone_of]
            out[bot.id] = tuple(out.get(owner.id) or (IDLE,) * PROGRAM_LENGTH) if owner.at is not None else (
                (IDLE,) * PROGRAM_LENGTH
            )
    activations = {}
    prices = state.prices
    for bot_id, action in actions.items():
        bot = bots[bot_id]
        try:
            activation = _check(
                bot, action, prices=prices, hand=hands.get(bot_id), program=programs.get(bot_id)
            )
        except ActionError as error:
            raise InputError(f"actions.{bot_id}: {error}") from None
        if activation is not None:
            activations[bot_id] = activation
    return Prepared(out, stored_played, dict(actions), activations, hands)


def apply_actions(turn: Turn, prepared: Prepared) -> None:
    """Start of the turn, after `_start`: a Scanner activated last turn takes its charge; stored chips
    played this turn leave storage; then each bot's action in priority order (003 "Actions")."""
    turn.step = "actions"
    for bot_id in turn.order:
        bot = turn.bots[bot_id]
        if bot.scan_due:
            bot.scan_due = False
            bot.charges = max(0, bot.charges - 1)
            turn.emit("module_charge_used", bot_id, module=bot.module, charges=bot.charges, reason="scanner")
    for bot_id in turn.order:
        if bot_id in prepared.stored_played:
            turn.bots[bot_id].stored_chip = None
            turn.emit("stored_chip_played", bot_id, register=prepared.stored_played[bot_id] + 1)
    for bot_id in turn.order:
        action = prepared.actions.get(bot_id)
        if action is None:
            continue
        bot = turn.bots[bot_id]
        (kind, value), = action.items()
        if kind == "install":
            bot.module, bot.charges = value, 0
            turn.emit("module_installed", bot_id, module=value)
        elif kind == "charge":
            _charge(turn, bot, value)
        else:
            activation = prepared.activations[bot_id]
            turn.activations[bot_id] = activation
            if MODULES[activation.module].scans:
                bot.scan_due = True  # the charge is taken at the start of the next turn
            else:
                bot.charges -= 1
            turn.emit("module_activated", bot_id, **activation.fields())
            if MODULES[activation.module].stores_chip:
                before = turn.state.bot(bot_id)
                chip = unused_chips(before, prepared.hands[bot_id], _raw_program(turn, prepared, bot_id))[0]
                replaced = bot.stored_chip is not None
                bot.stored_chip = chip
                turn.emit("chip_stored", bot_id, replaced=replaced)  # never the chip: events are public


def _raw_program(turn: Turn, prepared: Prepared, bot_id: str) -> Sequence[str]:
    """The program as submitted (the stored chip's register as "S" again, so it takes nothing from the hand)."""
    program = list(turn.programs[bot_id])
    if bot_id in prepared.stored_played:
        program[prepared.stored_played[bot_id]] = STORED
    return program


def _charge(turn: Turn, bot: Any, count: int) -> None:
    """Buy `count` charges one after another at the current prices. Checked against the prices at the start
    of the turn; when bots earlier in priority made the price rise, the bot buys as many as its battery
    covers (docs/rules.md "Bot modules")."""
    bought, paid = 0, 0
    for _ in range(count):
        price, after = charge_cost(turn.prices, bot.module, 1)
        if price > bot.battery:
            break
        bot.battery -= price
        bot.charges += 1
        bought, paid, turn.prices = bought + 1, paid + price, after
    if bought:
        turn.emit(
            "module_charged", bot.id, module=bot.module, charges=bought, price_paid=paid, prices=dict(turn.prices)
        )
    else:
        turn.emit("module_charge_refused", bot.id, module=bot.module, reason="battery")


def recharge(turn: Turn) -> None:
    """End of the turn, after its purchases: every bot still in the game (drones have no battery of their
    own) gains the mode's recharge (003 "Battery"). No event: it is the same every turn."""
    from ..state import MAX_BATTERY

    amount = RECHARGE[turn.course.mode]
    for bot in turn.bots.values():
        if bot.drone_of is None and (bot.at is not None or bot.lives > 0):
            bot.battery = min(MAX_BATTERY, bot.battery + amount)


def collect_remains_battery(bot: Any, count: int) -> None:
    """Arena remains (003 "Arena Remains"): +100 battery for each remains collected (`engine.remains.collect`
    gives the repair)."""
    from ..state import MAX_BATTERY

    bot.battery = min(MAX_BATTERY, bot.battery + REMAINS_BATTERY * count)


def scan(state: State, programs: Mapping[str, Sequence[str]], owner: str) -> dict[str, list[str]]:
    """What a Scanner shows its owner (003 "Scanner"): each OTHER bot's submitted chips, sorted so their
    order stays hidden (a stored chip shows as the chip it is)."""
    bots = {bot.id: bot for bot in state.bots}
    if owner not in bots:
        raise InputError(f"scan: {owner!r} is not a bot of this game")
    bot = bots[owner]
    if bot.module is None or not MODULES[bot.module].scans or available_charges(bot) < 1:
        raise InputError(f"scan: bot {owner!r} has no Scanner installed with a charge")
    order = {chip: index for index, chip in enumerate((*DEALT_CHIPS, IDLE, STORED))}
    shown = {}
    for bot_id, program in programs.items():
        if bot_id == owner:
            continue
        if bot_id not in bots:
            raise InputError(f"scan: programs for unknown bot {bot_id!r}")
        other = bots[bot_id]
        chips = [other.stored_chip if chip == STORED and other.stored_chip else chip for chip in program]
        if any(chip not in order for chip in chips):
            raise InputError(f"scan: programs.{bot_id} holds something that is not a chip: {list(program)!r}")
        shown[bot_id] = sorted(chips, key=order.__getitem__)
    return shown
