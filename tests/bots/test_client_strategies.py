"""The client's two strategies (clients/python/roboracer_bot, issue 41) on real snapshots of the site: `random`
sends legal programs that keep frozen registers; `lookahead` sends the program the engine shows ends best, and
every program it sends is legal."""

import random

import pytest
from roboracer_bot.lookahead import best_program
from roboracer_bot.strategies import random_program, strategy

import engine
from games.models import Seat
from games.selectors import snapshots
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db


def legal(game, user, chips) -> bool:
    seat = game.seats.get(user=user)
    state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
    hand = seat.hands.get(turn=game.turn).chips
    return engine.check_program(state.bot(seat.bot_id), hand, chips, state=state) is None


def test_random_programs_are_legal_and_keep_frozen_registers(courses, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(users=[ann, bob], course=courses["tiny-yard"])
    snapshot = snapshots.game_snapshot(game=game, user=ann)
    for seed in range(20):
        chips = random_program(snapshot, random.Random(seed))
        assert legal(game, ann, chips), chips
    # Damage freezes registers: the snapshot names them, and the program keeps them.
    snapshot["me"]["frozen"] = [{"register": 4, "chip": "U"}]
    assert random_program(snapshot, random.Random(1))[4] == "U"
    assert strategy("random") is random_program and strategy("lookahead") is best_program


def test_lookahead_sends_the_program_that_ends_nearest_the_next_check_point(courses, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(users=[ann, bob], course=courses["tiny-yard"])
    course = engine.parse_course(game.course_data)
    snapshot = snapshots.game_snapshot(game=game, user=ann)
    chips = best_program(snapshot)
    assert legal(game, ann, chips)
    # Every other program of the hand, played the same way, ends no nearer (the engine's own distance map).
    seat = Seat.objects.get(game=game, user=ann)
    alone = engine.state_from_dict({**game.state, "priority": [seat.bot_id],
                                    "bots": [b for b in game.state["bots"] if b["id"] == seat.bot_id]},
                                   course)
    checkpoint = next(tuple(e["at"]) for e in game.course_data["elements"] if e["type"] == "checkpoint" and e["number"] == 1)
    steps = engine.players.distance.squares(course, checkpoint)

    def ends(program):
        bot = engine.resolve_turn(alone, {seat.bot_id: program}, 0)[0].bot(seat.bot_id)
        return (bot.lives, -steps.get(bot.at, 99)) if bot.at is not None else (-1, -99)

    hand = snapshot["me"]["hand"]
    others = [list(p) for p in {tuple(random.Random(s).sample(hand, 5)) for s in range(200)}]
    assert all(ends(chips) >= ends(other) for other in others)
    assert ends(chips)[1] > -steps[tuple(game.state["bots"][0]["at"])]  # it moved nearer than it started
