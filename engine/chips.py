"""The movement chips and the 84-chip deck of 003 "Deck" (counts restored from 004)."""

from __future__ import annotations

MOVES = {"1": 1, "2": 2, "3": 3}
BACK_UP = "B"
TURNS = {"L": -1, "R": 1, "U": 2}
IDLE = "0"
CHIPS = ("1", "2", "3", "B", "L", "R", "U", "0")
DEALT_CHIPS = ("1", "2", "3", "B", "L", "R", "U")

DECK_COUNTS = {"1": 18, "2": 12, "3": 6, "B": 6, "L": 18, "R": 18, "U": 6}
DECK_SIZE = sum(DECK_COUNTS.values())

PROGRAM_LENGTH = 5
FULL_HAND = 9

CHIP_NAMES = {
    "1": "Move 1",
    "2": "Move 2",
    "3": "Move 3",
    "B": "Back up",
    "L": "Turn left",
    "R": "Turn right",
    "U": "U-turn",
    "0": "Idle",
}


def fresh_deck() -> list[str]:
    """An unshuffled deck, in a fixed order so that a seeded shuffle replays exactly."""
    return [chip for chip, count in DECK_COUNTS.items() for _ in range(count)]


def distance(chip: str) -> int:
    """Squares a chip moves its bot by itself (used for priority)."""
    if chip in MOVES:
        return MOVES[chip]
    return 1 if chip == BACK_UP else 0
