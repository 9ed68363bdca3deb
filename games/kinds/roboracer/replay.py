"""A whole game again from its stored inputs: the start, each turn's programs and seed, and the ejections
between turns. Used to check the stored states (and to audit a game after a bug report)."""

from __future__ import annotations

import engine
from games.kinds.roboracer import services as roboracer_services
from games.models import Game

# Fields the engine's state gained after games were stored (issue 14: the battery, modules, the stored chip):
# a stored state without them was stored before they existed, and is compared without them.
LATER_BOT_FIELDS = ("battery", "module", "stored_chip", "scan_due", "drone_of")
LATER_STATE_FIELDS = ("prices",)


def same_state(replayed: dict, stored: dict | None) -> bool:
    """The replayed state equals the stored one, leaving out what the stored one predates."""
    if stored is None:
        return False
    replayed = dict(replayed)
    for field in LATER_STATE_FIELDS:
        if field not in stored:
            replayed.pop(field, None)
    stored_bots = {bot.get("id"): bot for bot in stored.get("bots", [])}
    bots = []
    for bot in replayed.get("bots", []):
        old = stored_bots.get(bot["id"], {})
        bots.append({key: value for key, value in bot.items() if key not in LATER_BOT_FIELDS or key in old})
    replayed["bots"] = bots
    return replayed == stored


def _starting_prices(game: Game) -> dict:
    """The modules' prices the game started with: the `game_started` event records them (public), else the
    first stored state has them. Read from the game's records only: a replay never reads nor moves the price
    book (roboracer.economy)."""
    if not game.modules:
        return {}
    started = game.events.filter(kind="game_started").values_list("data", flat=True).first()
    if started and "prices" in started:
        return started["prices"]
    first = game.turns.order_by("number").values_list("state_before", flat=True).first()
    return dict((first or {}).get("prices") or {})


def replay(*, game: Game) -> tuple[dict | None, list[str]]:
    """The state the stored inputs lead to, and a list of the places where a stored state differs from the
    replayed one (empty when the game replays exactly). The replay stops at the first turn that differs:
    what follows it was played from states the inputs don't lead to."""
    if not game.turns.exists() and game.state is None:
        return None, []
    course = engine.parse_course(game.course_data)
    seats = list(game.seats.order_by("number"))
    state = engine.new_game(
        course, [seat.bot_id for seat in seats], lives=game.lives, modules=game.modules,
        prices=_starting_prices(game), ruleset=game.ruleset, options=game.options,
    )
    differences = []
    ejections = {}
    for event in game.events.filter(kind="seats_ejected").order_by("version"):
        ejections.setdefault(event.data["turn"], []).append(event.data["bots"])
    recompiles: dict[int, list[dict]] = {}  # classic's Recompile, applied before the turn (services.recompile)
    for event in game.events.filter(kind="recompiled").order_by("version"):
        recompiles.setdefault(event.data["turn"], []).append(event.data)
    for record in game.turns.order_by("number"):
        for bots in ejections.pop(record.number, []):
            state, _ = engine.eject(state, bots)
        for data in recompiles.pop(record.number, []):
            seed = roboracer_services.recompile_seed(game, record.number, data["bot"])
            state, _ = engine.rulesets.get(game.ruleset).redeal(state, data["bot"], seed)
        if not same_state(engine.state_to_dict(state), record.state_before):
            differences.append(f"turn {record.number}: the state before differs")
        try:
            state, events = engine.resolve_turn(
                state, record.programs, record.seed, reboots=record.reboots, actions=record.actions or None,
                hands=record.hands or None,
            )
        except engine.InputError as error:
            differences.append(f"turn {record.number}: the stored inputs are refused ({error})")
            return engine.state_to_dict(state), differences
        if events != record.events:
            differences.append(f"turn {record.number}: the events differ")
        if not same_state(engine.state_to_dict(state), record.state_after):
            differences.append(f"turn {record.number}: the state after differs")
        if differences:
            return engine.state_to_dict(state), differences
    for turn in sorted(ejections):  # ejections after the last resolved turn
        for bots in ejections[turn]:
            state, _ = engine.eject(state, bots)
    final = engine.state_to_dict(state)
    if not same_state(final, game.state):
        differences.append("the game's current state differs")
    return final, differences
