"""A whole game again from its stored inputs: the start, each turn's programs and seed, and the ejections
between turns. Used to check the stored states (and to audit a game after a bug report)."""

from __future__ import annotations

import engine
from games.models import Game


def replay(*, game: Game) -> tuple[dict | None, list[str]]:
    """The state the stored inputs lead to, and a list of the places where a stored state differs from the
    replayed one (empty when the game replays exactly). The replay stops at the first turn that differs:
    what follows it was played from states the inputs don't lead to."""
    if not game.turns.exists() and game.state is None:
        return None, []
    course = engine.parse_course(game.course_data)
    seats = list(game.seats.order_by("number"))
    state = engine.new_game(course, [seat.bot_id for seat in seats], lives=game.lives)
    differences = []
    ejections = {}
    for event in game.events.filter(kind="seats_ejected").order_by("version"):
        ejections.setdefault(event.data["turn"], []).append(event.data["bots"])
    for record in game.turns.order_by("number"):
        for bots in ejections.pop(record.number, []):
            state, _ = engine.eject(state, bots)
        if engine.state_to_dict(state) != record.state_before:
            differences.append(f"turn {record.number}: the state before differs")
        state, events = engine.resolve_turn(state, record.programs, record.seed, reboots=record.reboots)
        if events != record.events:
            differences.append(f"turn {record.number}: the events differ")
        if engine.state_to_dict(state) != record.state_after:
            differences.append(f"turn {record.number}: the state after differs")
        if differences:
            return engine.state_to_dict(state), differences
    for turn in sorted(ejections):  # ejections after the last resolved turn
        for bots in ejections[turn]:
            state, _ = engine.eject(state, bots)
    final = engine.state_to_dict(state)
    if final != game.state:
        differences.append("the game's current state differs")
    return final, differences
