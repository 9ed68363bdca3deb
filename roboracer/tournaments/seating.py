"""Pure seating arithmetic (no database): table sizes, snake seeding, Swiss grouping, points."""

from __future__ import annotations

import math


def table_sizes(count: int, table_size: int) -> list[int]:
    """As even as possible within `table_size`: ceil(count / table_size) tables, the larger ones first.
    9 players at tables of 8: [5, 4]. A table of 1 (only with table size 2 and an odd count) is a bye."""
    if count <= 0:
        return []
    tables = math.ceil(count / table_size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def hand_seed_order(entry) -> tuple:
    """Seeding by hand: the organiser's seeds (1 first), then anyone not seeded in registration order. The one
    key round 1 seats by and the organiser's Seeds card lists by."""
    return (entry.seed is None, entry.seed or 0, entry.registered_at, entry.pk)


def table_order(place: int | None, seat: int) -> tuple:
    """A table's players as the pages list them: in seat order until the game has places, then in place order."""
    return (place is None, place or 0, seat)


def snake(ordered: list, sizes: list[int]) -> list[list]:
    """Heats seeded by rating: the best is seeded at table 1, the next at table 2..., back again (a snake),
    so that the strongest players meet as late as possible. `ordered` is best first."""
    tables: list[list] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    for player in ordered:
        while True:
            lap, pos = divmod(i, len(sizes))
            index = order[pos] if lap % 2 == 0 else order[len(sizes) - 1 - pos]
            i += 1
            if len(tables[index]) < sizes[index]:
                tables[index].append(player)
                break
    return tables


def chunks(ordered: list, sizes: list[int]) -> list[list]:
    """Swiss reseating: players in standing order fill the tables in turn, so each table holds players of
    close points."""
    tables, start = [], 0
    for size in sizes:
        tables.append(ordered[start:start + size])
        start += size
    return tables


def advancing(count: int, k: int) -> int:
    """How many go through from a heats table of `count` players: the top k, but never the whole table
    (a table always puts one out, so every round is smaller than the one before)."""
    return max(0, min(k, count - 1))


def points_for(points: list, place: int) -> float:
    """League points of a place (1-based); a place past the end of the list scores 0."""
    return float(points[place - 1]) if 1 <= place <= len(points) else 0.0
