"""Ejection (003 "Chat Commands", "!eject"): bots leave the race between turns, for good."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from .errors import InputError
from .state import State


def eject(state: State, bot_ids: Iterable[str]) -> tuple[State, list[dict]]:
    """Take the bots off the course with no lives left; the last bot still racing wins.

    An ejected bot is out before the turn `state.turn` (`out` = [turn, 0]) and `ejected`: it forfeits, and
    ranks below every bot that was not ejected in the final places (engine.places).

    Returns the new state and one `ejected` event per bot (then `winner`, if the ejection decided the
    race). A bot already out of the game, or an unknown id, is an InputError; the state is unchanged.
    A drone can't be ejected by itself; ejecting its owner removes it from the state (003 "Drone").
    """
    ids = list(dict.fromkeys(bot_ids))
    known = {bot.id: bot for bot in state.bots}
    for bot_id in ids:
        if bot_id not in known:
            raise InputError(f"there is no bot {bot_id!r}")
        if known[bot_id].drone_of is not None:
            raise InputError(f"bot {bot_id!r} is a drone: eject its owner {known[bot_id].drone_of!r}")
        if not known[bot_id].in_game:
            raise InputError(f"bot {bot_id!r} is already out of the game")
    if state.finished:
        raise InputError("the race is over")
    drones = {bot.drone_of: bot.id for bot in state.bots if bot.drone_of is not None}
    events = [
        {"phase": None, "step": "ejection", "type": "ejected", "bot": bot_id,
         **({"drone": drones[bot_id]} if bot_id in drones else {})}
        for bot_id in ids
    ]  # fmt: skip
    bots = tuple(
        replace(bot, at=None, lives=0, rebooting=False, virtual=False, out=(state.turn, 0), ejected=True)
        if bot.id in ids
        else bot
        for bot in state.bots
        if bot.drone_of not in ids  # an ejected bot's drone leaves with it
    )
    kept = {bot.id for bot in bots}
    new_state = replace(state, bots=bots, priority=tuple(bot_id for bot_id in state.priority if bot_id in kept))
    racing = [bot.id for bot in bots if bot.in_game and bot.drone_of is None]
    team = {"team": known[racing[0]].team} if racing and state.team_game else {}
    if sum(1 for bot in state.bots if bot.drone_of is None) > 1 and len(racing) == 1:
        new_state = replace(new_state, winner=racing[0], winning_team=team.get("team"))
        events.append({"phase": None, "step": "ejection", "type": "winner", "bot": racing[0], "reason": "last bot in the race", **team})
    elif state.team_game and racing and len({known[bot_id].team for bot_id in racing}) == 1:
        new_state = replace(new_state, winning_team=team["team"])  # the last team in the race (003 "Team Play")
        events.append({"phase": None, "step": "ejection", "type": "winner", "bot": None, "reason": "last team in the race", **team})
    return new_state, events
