"""Final places (docs/rules.md "Final places"): every bot's place once the race is over.

The winner is 1st. The others follow, best first, by: not ejected (an ejection forfeits), more check
points tagged, still in the race, out of it later (turn, then phase), more lives left, less damage.
Bots equal on all of these share a place; the next place skips as many (competition ranking: 1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import Bot

STILL_RACING = (1 << 30, 0)  # sorts after every (turn, phase) a bot can leave the race in


def standing(bot: Bot) -> tuple:
    """What ranks a bot that did not win: a larger tuple is a better place. A bot out of the race has 0 lives
    and a racing bot at least 1, so a state stored before bots recorded `out` still ranks them apart."""
    return (
        not bot.ejected,
        bot.next_checkpoint - 1,
        bot.out if bot.out is not None else STILL_RACING,  # still racing: above every bot out of the race
        bot.lives,
        -bot.damage,
    )


def final_places(
    bots: Iterable[Bot], winner: str | None, winning_team: str | None = None, *, finishers: tuple[str, ...] = ()
) -> dict[str, int]:
    """{bot id: place}, in the order of `bots`; the winner (if any) alone is 1st. In team play the winning
    team's other bots rank above every bot of the other team (docs/rules.md "Team play"). `finishers`
    (classic's runner-up rounds, 000 "Ending the game") take the first places in the order they finished."""
    bots = list(bots)
    ranked = finishers or ((winner,) if winner is not None else ())
    others = [bot for bot in bots if bot.id not in ranked]
    keys = {bot.id: (bot.team == winning_team, *standing(bot)) for bot in others}
    first = 1 + len(ranked)
    places = {}
    for bot in bots:
        if bot.id in ranked:
            places[bot.id] = ranked.index(bot.id) + 1
        else:
            places[bot.id] = first + sum(1 for key in keys.values() if key > keys[bot.id])
    return places
