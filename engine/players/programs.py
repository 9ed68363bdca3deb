"""The programs a player could send: every distinct program its hand allows, in its ruleset's card notation.

Cards of one kind ("R", or "R@5" and "R@9" in numbered rulesets) do the same thing to the bot alone, so the
search enumerates sequences of kinds (far fewer than the 9P5 = 15,120 orderings of nine cards) and gives the
chosen sequence its cards at the end (`cards_for`): the highest numbers first, since a higher number acts
earlier (004 "Priority"; 001 likewise).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from ..chips import IDLE, PROGRAM_LENGTH


def kind(card: str) -> str:
    """The instruction a card carries: "R@5" -> "R"."""
    return card.split("@", 1)[0]


def number(card: str) -> int:
    head, _, tail = card.partition("@")
    return int(tail) if tail.isdigit() else 0


def kind_programs(hand: Sequence[str], frozen: dict[int, str]) -> Iterator[tuple[str, ...]]:
    """Every distinct sequence of kinds for the five registers: frozen registers keep their card's kind, the
    others take the hand's cards (each card once). When the hand can't fill the free registers, the last ones
    stay empty ("0"), as the rules allow."""
    free = [index for index in range(PROGRAM_LENGTH) if index not in frozen]
    counts = Counter(kind(card) for card in hand)
    empty = max(0, len(free) - sum(counts.values()))
    filled = free[: len(free) - empty]
    kinds = sorted(counts)
    chosen: list[str] = []

    def walk(position: int) -> Iterator[tuple[str, ...]]:
        if position == len(filled):
            by_index = dict(zip(filled, chosen, strict=True))
            yield tuple(
                kind(frozen[i]) if i in frozen else by_index.get(i, IDLE) for i in range(PROGRAM_LENGTH)
            )
            return
        for name in kinds:
            if counts[name]:
                counts[name] -= 1
                chosen.append(name)
                yield from walk(position + 1)
                chosen.pop()
                counts[name] += 1

    yield from walk(0)


def cards_for(kinds: Sequence[str], hand: Sequence[str], frozen: dict[int, str]) -> tuple[str, ...]:
    """The cards that play `kinds`: a frozen register keeps its card; the others take the hand's cards of
    that kind, the highest number first."""
    pool: dict[str, list[str]] = {}
    for card in sorted(hand, key=lambda c: -number(c)):
        pool.setdefault(kind(card), []).append(card)
    out = []
    for index, name in enumerate(kinds):
        if index in frozen:
            out.append(frozen[index])
        elif name == IDLE and not pool.get(IDLE):
            out.append(IDLE)
        else:
            out.append(pool[name].pop(0))
    return tuple(out)
