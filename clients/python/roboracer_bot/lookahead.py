"""The lookahead strategy: every distinct program my hand allows, played one turn ahead with the rules engine
(the repository's `engine/` package), my robot alone on the course; the one that ends best is sent. Best: more
check points, then fewer steps to the next one (walls and holes respected), then less damage; a robot that
falls or is destroyed scores worst. The other robots' programs are hidden (as they should be), so they are
left out of the look ahead."""

from __future__ import annotations

import engine
from engine.players import distance
from engine.players.programs import cards_for, kind_programs

from .strategies import my_bot, random_program

BUDGET = 5000  # programs played at most (a hand of nine allows a few thousand distinct ones)
LOST = -10**9


def _state(game: dict, bot: dict, course):
    ruleset = (game.get("ruleset") or {}).get("name") or "roboracer"
    data = {"turn": game["turn"], "lives": game.get("lives") or 3, "bots": [bot], "radiation": game.get("radiation") or [],
            "board": game.get("board") or {}, "ruleset": ruleset, "options": (game.get("ruleset") or {}).get("options") or {}}
    return engine.state_from_dict(data, course)


def _checkpoints(game: dict) -> dict[int, tuple[int, int]]:
    return {element["number"]: tuple(element["at"]) for element in (game.get("course") or {}).get("elements", [])
            if element.get("type") == "checkpoint"}


def _value(bot, before, course, checkpoints) -> float:
    if bot.at is None or bot.lives < before.lives:
        return LOST + bot.next_checkpoint
    target = checkpoints.get(bot.next_checkpoint)
    if target is None:  # every check point touched: the race is won
        return -LOST
    steps = distance.squares(course, target).get(bot.at, 99)
    return bot.next_checkpoint * 1000 - steps * 10 - bot.damage * 12


def best_program(game: dict) -> list[str]:
    me, bot = game["me"], my_bot(game)
    if bot is None or bot.get("at") is None or bot.get("rebooting"):
        return random_program(game)
    course = engine.parse_course(game["course"])
    state = _state(game, {key: value for key, value in bot.items() if value is not None or key == "at"}, course)
    before = state.bot(bot["id"])
    hand = tuple(me["hand"])
    frozen = engine.frozen_registers(before, state.ruleset)
    checkpoints = _checkpoints(game)
    best = None
    for count, kinds in enumerate(kind_programs(hand, frozen)):
        if count >= BUDGET:
            break
        cards = cards_for(kinds, hand, frozen)
        try:
            after, _ = engine.resolve_turn(state, {bot["id"]: cards}, 0)
        except (engine.InputError, engine.ProgramError):
            continue
        score = _value(after.bot(bot["id"]), before, course, checkpoints)
        if best is None or score > best[0]:
            best = (score, list(cards))
    return best[1] if best else random_program(game)
