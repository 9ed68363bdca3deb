"""Squares and headings on a course: coordinates [x, y], x from the west edge, y from the north edge."""

from __future__ import annotations

DIRECTIONS = ("N", "E", "S", "W")
_VECTORS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

Square = tuple[int, int]


def neighbour(at: Square, direction: str) -> Square:
    dx, dy = _VECTORS[direction]
    return (at[0] + dx, at[1] + dy)


def opposite(direction: str) -> str:
    return DIRECTIONS[(DIRECTIONS.index(direction) + 2) % 4]


def rotate(direction: str, quarter_turns: int) -> str:
    """Turn clockwise by quarter_turns (negative turns counter-clockwise)."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + quarter_turns) % 4]
