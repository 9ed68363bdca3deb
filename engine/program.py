"""Hands and programs: dealing (003 "Deck", "Damage"), frozen registers, legality, a random legal program."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from . import rulesets
from .chips import CHIPS, FULL_HAND, IDLE, MOVES, PROGRAM_LENGTH, TURNS, fresh_deck
from .errors import ProgramError
from .modules.actions import STORED, action_problem, stored_chip_problem
from .rulesets import DEFAULT
from .state import Bot, State


def derive_seed(game_seed: int, turn: int, purpose: str) -> int:
    """A 63-bit seed for one purpose of one turn, from the game's seed; stable across Python versions."""
    digest = hashlib.sha256(f"{game_seed}:{turn}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def hand_size(bot: Bot, ruleset: str = DEFAULT) -> int:
    """Cards dealt to the bot under its game's ruleset."""
    return rulesets.get(ruleset).hand_size(bot)


def frozen_registers(bot: Bot, ruleset: str = DEFAULT) -> dict[int, str]:
    """Registers the bot's damage locks under its game's ruleset, with the chips they keep."""
    return rulesets.get(ruleset).locked(bot)


def roboracer_hand_size(bot: Bot) -> int:
    return max(0, FULL_HAND - bot.damage)


def roboracer_frozen(bot: Bot) -> dict[int, str]:
    """Registers frozen by damage over 4: the last (damage - 4) keep last turn's chips."""
    count = min(PROGRAM_LENGTH, max(0, bot.damage - 4))
    if not count or len(bot.last_program) != PROGRAM_LENGTH:
        return {}
    return {index: bot.last_program[index] for index in range(PROGRAM_LENGTH - count, PROGRAM_LENGTH)}


# 003 "Spawning": a newly spawned bot's hand holds at least three turn chips including an L or R, and at
# least three move chips including a 2 or 3. Each need is (chips that fill it, how many); a chip fills the
# first unmet need it fits. Back-up counts as a move chip.
_SAFE_NEEDS = (
    (frozenset("LR"), 1),
    (frozenset(TURNS), 2),
    (frozenset("23"), 1),
    (frozenset(MOVES) | {"B"}, 2),
)


class _Deck:
    """Draws from a shuffled 84-chip deck, shuffling a fresh one whenever it runs out (003 "Deck")."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.chips: list[str] = []

    def draw(self) -> str:
        if not self.chips:
            self.chips = fresh_deck()
            self.rng.shuffle(self.chips)
        return self.chips.pop()


# 003 "Mirror": Bad Luck draws two chips per chip and keeps the one with less movement: 3 > 2 > 1 = B > turns.
_MOVEMENT = {"3": 3, "2": 2, "1": 1, "B": 1, "L": 0, "R": 0, "U": 0}


def _unlucky_draw(deck: _Deck) -> str:
    first, second = deck.draw(), deck.draw()
    return second if _MOVEMENT[second] < _MOVEMENT[first] else first


def _safe_hand(deck: _Deck, size: int) -> tuple[str, ...]:
    """Draw until the hand meets every need of a safe mix; chips that would crowd out a need are set aside
    (drawn and not returned, like any dealt chip)."""
    unmet = [count for _, count in _SAFE_NEEDS]
    hand: list[str] = []
    while len(hand) < size:
        chip = deck.draw()
        need = next((i for i, (fits, _) in enumerate(_SAFE_NEEDS) if unmet[i] and chip in fits), None)
        if need is not None:
            unmet[need] -= 1
            hand.append(chip)
        elif size - len(hand) > sum(unmet):
            hand.append(chip)
    return tuple(hand)


def deal(state: State, seed: int) -> dict[str, tuple[str, ...]]:
    """Each bot's hand for this turn, dealt by the game's ruleset."""
    return rulesets.get(state.ruleset).deal(state, seed)


def roboracer_deal(state: State, seed: int) -> dict[str, tuple[str, ...]]:
    """Deal each bot still in the game its hand, in priority order, from one deck (reshuffled whenever it
    runs out); frozen chips are not withheld. A rebooting bot gets no hand (it plays five "0" chips); a
    bot that respawned last turn gets a safe mix; a bot with Bad Luck (it broke a mirror last turn) draws
    two chips for each and keeps the one with less movement."""
    deck = _Deck(random.Random(seed))
    hands: dict[str, tuple[str, ...]] = {}
    for bot_id in state.priority:
        bot = state.bot(bot_id)
        if not bot.in_game or bot.drone_of is not None or bot.target:
            continue  # out of the game, a drone (it plays its owner's chips, 003 "Drone"), a puzzle's target
        if bot.rebooting:
            hands[bot_id] = ()
        elif bot.spawned and roboracer_hand_size(bot) >= sum(count for _, count in _SAFE_NEEDS):
            hands[bot_id] = _safe_hand(deck, roboracer_hand_size(bot))
        elif bot.bad_luck:
            hands[bot_id] = tuple(_unlucky_draw(deck) for _ in range(roboracer_hand_size(bot)))
        else:
            hands[bot_id] = tuple(deck.draw() for _ in range(roboracer_hand_size(bot)))
    return hands


def is_safe_mix(hand: Sequence[str]) -> bool:
    turns = [chip for chip in hand if chip in TURNS]
    moves = [chip for chip in hand if chip in MOVES or chip == "B"]
    return (
        len(turns) >= 3
        and any(c in "LR" for c in turns)
        and len(moves) >= 3
        and any(c in "23" for c in moves)
    )


def required_program(bot: Bot, ruleset: str = DEFAULT) -> tuple[str, ...] | None:
    """The program a bot must play whatever its player says: five "0" chips while it sits the turn out
    (rebooting; in classic, powered down)."""
    return (IDLE,) * PROGRAM_LENGTH if rulesets.get(ruleset).sits_out(bot) else None


def check_program(
    bot: Bot,
    hand: Sequence[str],
    chips: Sequence[str],
    action: Mapping[str, Any] | None = None,
    *,
    state: State | None = None,
) -> ProgramError | None:
    """None when `chips` is a legal program for `bot` holding `hand`, else the reason.

    A register "S" plays the bot's stored chip (Storage). With `action` (a module action, docs/formats.md
    "Bot modules") the action is checked too, against `state` (its prices and modules). The rules are those
    of the state's ruleset (roboracer without a state)."""
    rules = rulesets.get(state.ruleset if state is not None else DEFAULT)
    if rules.check_program is not None:
        return rules.check_program(bot, hand, chips, action, state=state)
    if bot.drone_of is not None:
        return ProgramError("a drone has no program of its own: it plays its owner's chips")
    if not isinstance(chips, (list, tuple)) or len(chips) != PROGRAM_LENGTH:
        return ProgramError(f"a program is exactly {PROGRAM_LENGTH} chips")
    if action is not None and state is None:
        return ProgramError("checking a module action needs the game state")
    required = required_program(bot)
    if required is not None:
        if tuple(chips) != required:
            return ProgramError("a rebooting bot plays five '0' chips")
        return ProgramError("a rebooting bot takes no actions this turn") if action is not None else None
    frozen = roboracer_frozen(bot)
    for index, chip in enumerate(chips):
        if chip == STORED:
            continue
        if chip not in CHIPS or (chip == IDLE and index not in frozen):
            return ProgramError(f"register {index + 1}: {chip!r} is not a chip")
    for index, chip in frozen.items():
        if chips[index] != chip:
            return ProgramError(f"register {index + 1} is frozen with {chip!r} and can't be changed")
    problem = stored_chip_problem(bot, chips)
    if problem:
        return ProgramError(problem)
    free = Counter(chip for index, chip in enumerate(chips) if index not in frozen and chip != STORED)
    available = Counter(hand)
    for chip, count in free.items():
        if available[chip] < count:
            return ProgramError(
                f"the hand holds {available[chip]} {chip!r} chip(s), the program uses {count}"
            )
    if action is not None:
        problem = action_problem(bot, action, prices=state.prices, hand=hand, program=chips)
        if problem:
            return ProgramError(problem)
    return None


def random_program(bot: Bot, hand: Sequence[str], seed: int, ruleset: str = DEFAULT) -> tuple[str, ...]:
    """A random legal program from the hand, respecting frozen registers (of `ruleset`'s rules)."""
    rules = rulesets.get(ruleset)
    if rules.random_program is not None:
        return rules.random_program(bot, hand, seed)
    required = required_program(bot)
    if required is not None:
        return required
    rng = random.Random(seed)
    frozen = roboracer_frozen(bot)
    pool = list(hand)
    rng.shuffle(pool)
    return tuple(frozen[index] if index in frozen else pool.pop() for index in range(PROGRAM_LENGTH))
