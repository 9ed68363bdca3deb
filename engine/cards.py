"""Numbered cards (docs/formats.md "Numbered cards"): in rulesets whose cards carry numbers (`fused`,
`roborace`) a card is written "<chip>@<number>", for example "R@5" or "2@70". The number is the card's
priority: the larger number acts first (001 "Cards"; 004 leaves the direction open, docs/rules.md).
"""

from __future__ import annotations

from .chips import DEALT_CHIPS

# 004 "Deal Program cards": the 84 cards and the numbers each kind carries (also 003's deck, seeds README).
ROBORACE_NUMBERS = {
    "R": range(1, 19),
    "L": range(19, 37),
    "U": range(37, 43),
    "B": range(43, 49),
    "1": range(49, 67),
    "2": range(67, 79),
    "3": range(79, 85),
}
MAX_NUMBER = 9999


def split(card: object) -> tuple[str, int] | None:
    """(chip, number) of a numbered card as written, or None when it is not one."""
    if not isinstance(card, str) or card.count("@") != 1:
        return None
    chip, _, digits = card.partition("@")
    if chip not in DEALT_CHIPS or not digits.isascii() or not digits.isdigit() or digits.startswith("0"):
        return None
    number = int(digits)
    return (chip, number) if 1 <= number <= MAX_NUMBER else None


def card(chip: str, number: int) -> str:
    return f"{chip}@{number}"


def chip_of(card_text: str) -> str:
    """The chip of a card as written (numbered or not)."""
    return card_text.partition("@")[0]


def roborace_deck() -> list[str]:
    """The 84 cards of 004, in number order (a seeded shuffle replays exactly)."""
    return sorted((card(chip, n) for chip, numbers in ROBORACE_NUMBERS.items() for n in numbers),
                  key=lambda text: int(text.partition("@")[2]))  # fmt: skip


def roborace_problem(text: object) -> str | None:
    """Why `text` is not one of 004's cards, or None."""
    parts = split(text)
    if parts is None:
        return f"{text!r} is not a card: a card is written '<chip>@<number>' with a chip of {' '.join(DEALT_CHIPS)}"
    chip, number = parts
    numbers = ROBORACE_NUMBERS[chip]
    if number not in numbers:
        return f"{text!r} is not a card of 004: {chip!r} cards carry {numbers.start}-{numbers.stop - 1}"
    return None
