"""Hands and programs: dealing (003 "Deck", "Damage"), frozen registers, legality, a random legal program."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Sequence

from .chips import CHIPS, FULL_HAND, PROGRAM_LENGTH, fresh_deck
from .errors import ProgramError
from .state import Bot, State


def derive_seed(game_seed: int, turn: int, purpose: str) -> int:
    """A 63-bit seed for one purpose of one turn, from the game's seed; stable across Python versions."""
    digest = hashlib.sha256(f"{game_seed}:{turn}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def hand_size(bot: Bot) -> int:
    return max(0, FULL_HAND - bot.damage)


def frozen_registers(bot: Bot) -> dict[int, str]:
    """Registers frozen by damage over 4: the last (damage - 4) keep last turn's chips."""
    count = min(PROGRAM_LENGTH, max(0, bot.damage - 4))
    if not count or len(bot.last_program) != PROGRAM_LENGTH:
        return {}
    return {index: bot.last_program[index] for index in range(PROGRAM_LENGTH - count, PROGRAM_LENGTH)}


def deal(state: State, seed: int) -> dict[str, tuple[str, ...]]:
    """Deal each bot still in the game its hand from a fresh shuffled deck, in priority order.

    A new deck is shuffled whenever the current one runs out; frozen chips are not withheld.
    """
    rng = random.Random(seed)
    deck: list[str] = []
    hands: dict[str, tuple[str, ...]] = {}
    for bot_id in state.priority:
        bot = state.bot(bot_id)
        if not bot.in_game:
            continue
        hand = []
        for _ in range(hand_size(bot)):
            if not deck:
                deck = fresh_deck()
                rng.shuffle(deck)
            hand.append(deck.pop())
        hands[bot_id] = tuple(hand)
    return hands


def check_program(bot: Bot, hand: Sequence[str], chips: Sequence[str]) -> ProgramError | None:
    """None when `chips` is a legal program for `bot` holding `hand`, else the reason."""
    if not isinstance(chips, (list, tuple)) or len(chips) != PROGRAM_LENGTH:
        return ProgramError(f"a program is exactly {PROGRAM_LENGTH} chips")
    for index, chip in enumerate(chips):
        if chip not in CHIPS or chip == "0":
            return ProgramError(f"register {index + 1}: {chip!r} is not a chip")
    frozen = frozen_registers(bot)
    for index, chip in frozen.items():
        if chips[index] != chip:
            return ProgramError(f"register {index + 1} is frozen with {chip!r} and can't be changed")
    free = Counter(chip for index, chip in enumerate(chips) if index not in frozen)
    available = Counter(hand)
    for chip, count in free.items():
        if available[chip] < count:
            return ProgramError(f"the hand holds {available[chip]} {chip!r} chip(s), the program uses {count}")
    return None


def random_program(bot: Bot, hand: Sequence[str], seed: int) -> tuple[str, ...]:
    """A random legal program from the hand, respecting frozen registers."""
    rng = random.Random(seed)
    frozen = frozen_registers(bot)
    pool = list(hand)
    rng.shuffle(pool)
    return tuple(frozen[index] if index in frozen else pool.pop() for index in range(PROGRAM_LENGTH))
