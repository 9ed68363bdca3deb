"""Programs of numbered cards (`fused`, `roborace`): checking a program against the hand and the locked
registers, every card number once in a turn (docs/formats.md "Numbered cards"), and the step that plays a
register's cards, the larger number first (`play_cards`, in both plans)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import split
from ..chips import IDLE, PROGRAM_LENGTH
from ..errors import InputError

if TYPE_CHECKING:
    from ..turn import Turn

Card = tuple[int, str, str]  # (number, chip, as written); number 0 and chip "0" for an empty register


def program_problem(
    cards: Any,
    hand: Sequence[str] | None,
    locked: Mapping[int, str],
    card_problem: Callable[[object], str | None],
) -> str | None:
    """Why `cards` is not a legal program from `hand` with `locked` registers, or None. An empty register
    ("0") is allowed only when the hand and the locked registers can't fill all five."""
    if not isinstance(cards, (list, tuple)) or len(cards) != PROGRAM_LENGTH:
        return f"a program is exactly {PROGRAM_LENGTH} cards"
    for index, card in enumerate(cards):
        problem = card_problem(card)
        if problem:
            return f"register {index + 1}: {problem}"
    for index, card in locked.items():
        if cards[index] != card:
            return f"register {index + 1} is locked with {card!r} and can't be changed"
    free = [card for index, card in enumerate(cards) if index not in locked]
    played = [card for card in free if card != IDLE]
    if len(set(played)) != len(played):
        return "a card can be played only once"
    if hand is not None:
        for card in played:
            if card not in hand:
                return f"the card {card!r} is not in the hand"
        empty_allowed = max(0, PROGRAM_LENGTH - len(locked) - len(hand))
        if len(free) - len(played) > empty_allowed:
            return "a register may stay empty ('0') only when the hand has too few cards"
    return None


def checked_programs(
    state: Any,
    programs: Mapping[str, Sequence[str]],
    hands: Mapping[str, Sequence[str]] | None,
    *,
    locked: Callable[[Any], Mapping[int, str]],
    card_problem: Callable[[object], str | None],
) -> dict[str, list[Card]]:
    """Per robot on the course and not rebooting, its five cards; each card number once in the turn."""
    unknown = set(programs) - {bot.id for bot in state.bots}
    if unknown:
        raise InputError(f"programs for unknown bots: {sorted(unknown)}")
    checked: dict[str, list[Card]] = {}
    seen: dict[int, str] = {}
    for bot in state.bots:
        if bot.at is None or bot.rebooting:
            given = programs.get(bot.id)
            if bot.rebooting and given is not None and any(card != IDLE for card in given):
                raise InputError(f"bot {bot.id!r} is rebooting this turn: it plays no cards")
            continue
        program = programs.get(bot.id)
        if program is None:
            raise InputError(f"no program for bot {bot.id!r}")
        hand = hands.get(bot.id) if hands else None
        problem = program_problem(program, hand, locked(bot), card_problem)
        if problem:
            raise InputError(f"bot {bot.id!r}: {problem}")
        cards: list[Card] = []
        for text in program:
            if text == IDLE:
                cards.append((0, IDLE, IDLE))
                continue
            chip, number = split(text)
            if number in seen:
                raise InputError(
                    f"card number {number} is played by {seen[number]!r} and {bot.id!r}: each card exists once"
                )
            seen[number] = bot.id
            cards.append((number, chip, text))
        checked[bot.id] = cards
    return checked


def play_order(cards: Mapping[str, list[Card]], phase: int) -> list[tuple[Card, str]]:
    """This phase's cards, the larger number first (empty registers play nothing)."""
    plays = [(program[phase - 1], bot_id) for bot_id, program in cards.items()]
    return sorted((play for play in plays if play[0][0]), reverse=True)


def play_cards(turn: Turn) -> None:
    """The register's cards (`turn.local.cards`, from `checked_programs`), the larger number first; a robot
    destroyed earlier in the step plays nothing (docs/rules.md "fused", "roborace")."""
    from ..resolve import _play_chip

    for (number, chip, _), bot_id in play_order(turn.local.cards, turn.phase):
        bot = turn.bots[bot_id]
        if bot.at is not None:
            _play_chip(turn, bot, chip, number=number)
