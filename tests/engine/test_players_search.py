"""The computer players' search (issue 40): the course model agrees with the engine, knows timed elements phase
by phase and is shared by every parse of a course; guessed hands never hold a card of ours; the puzzle solver
solves every bundled puzzle within its turn limit, playing every seat; nothing touches the global random."""

import dataclasses
import random

import pytest

import engine
from engine import players
from engine.players import course_model, hard, solver
from engine.players.programs import cards_for

PUZZLES = [slug for slug in engine.bundled_slugs() if engine.bundled_course(slug).mode == "puzzle"]


def _alone(state, bot_id, **changes):
    bot = dataclasses.replace(state.bot(bot_id), **changes)
    return dataclasses.replace(state, bots=(bot,), priority=(bot_id,))


def test_the_model_plays_a_lone_robot_as_the_engine_does():
    """Maglev Freightyard has speed-5 belts, curves, turntables, crushers and pushers: the model's end of each
    of the best programs of seeded hands, from seeded squares, is the engine's."""
    course = engine.bundled_course("maglev-freightyard")
    state = engine.new_game(course, ["1", "2"])
    model = course_model.model(state)
    squares = sorted(model.squares)
    rng = random.Random(7)
    checked = 0
    for trial in range(12):
        alone = _alone(state, "1", at=rng.choice(squares), dir=rng.choice("NESW"))
        bot = alone.bot("1")
        hand = engine.deal(alone, trial)["1"]
        for _, kinds in hard.model_futures(model, bot, tuple(hand), {}, 10)[:4]:
            at, heading, dead = bot.at, bot.dir, False
            for register, chip in enumerate(kinds, start=1):
                at, heading, _, dead = model.step(at, heading, chip, register)
                if dead:
                    break
            after, events = engine.resolve_turn(alone, {"1": cards_for(kinds, hand, {})}, 0, hands={"1": hand})
            destroyed = any(event["type"] == "destroyed" for event in events)
            assert destroyed == dead, (bot, kinds)
            if not dead:
                assert (after.bot("1").at, after.bot("1").dir) == (at, heading), (bot, kinds)
            checked += 1
    assert checked == 48


def test_the_model_knows_a_crusher_acts_only_in_its_phases():
    """Press Line's crusher on [5, 3] comes down in phases 2 and 4 (roborace)."""
    course = engine.bundled_course("roborace-press-line")
    state = engine.new_game(course, ["1", "2"], ruleset="roborace")
    model = course_model.model(state)
    assert not model.step((5, 3), "N", "L", 1)[3]
    assert model.step((5, 3), "N", "L", 2)[3]
    assert not model.step((5, 3), "N", "L", 3)[3]
    assert model.step((5, 3), "N", "L", 4)[3]


def test_the_register_map_counts_belts():
    """A robot on Maglev's speed-5 belt at [7, 2] is carried [10, 4] in one register: the map counts the robot
    standing there at least as near the first check point as the square it is carried to, one register on."""
    course = engine.bundled_course("maglev-freightyard")
    state = engine.new_game(course, ["1", "2"])
    model = course_model.model(state)
    to, heading, _, dead = model.step((7, 2), "N", "L", 1)
    assert not dead and to == (10, 4)
    assert model.to_go((7, 2), "N", 1) <= model.to_go(to, heading, 1) + 1


def test_the_model_is_shared_by_every_parse_of_a_course():
    data = engine.bundled_course_data("bolt-bay")
    first = engine.new_game(engine.parse_course(data), ["1", "2"])
    second = engine.new_game(engine.parse_course(data), ["1", "2"])
    assert first.course is not second.course
    assert course_model.model(first) is course_model.model(second)


@pytest.mark.parametrize("ruleset", ["roborace", "fused"])
def test_guessed_hands_never_hold_a_card_of_ours(ruleset):
    """Numbered cards are one of a kind: a rival's guessed hand holding one of ours made the engine refuse every
    replay with every robot (issue 40)."""
    slug = {"roborace": "roborace-factory-hall", "fused": "fused-foundry"}[ruleset]
    course = engine.bundled_course(slug)
    state = engine.new_game(course, ["1", "2", "3"], ruleset=ruleset)
    for seed in range(6):
        hand = engine.deal(state, seed)["1"]
        player = players._Player(players.public_view(state, "1"), "1", tuple(hand), "hard", seed, 1000)
        programs, hands = player.predicted_opponents()
        assert hands["1"] == tuple(hand)
        cards = [card for bot_id in ("2", "3") for card in hands[bot_id]]
        assert len(cards) == len(set(cards)) and not set(cards) & set(hand)
        assert all(len(hands[bot_id]) == len(hand) for bot_id in ("2", "3"))
        assert engine.rulesets.get(ruleset).resolve(state, {**programs, "1": hand[:5]}, 1, hands=hands)


@pytest.mark.parametrize("slug", PUZZLES)
def test_the_solver_solves_every_bundled_puzzle_within_its_limit(slug):
    """Dealt as the site deals a puzzle game (the puzzle's seed), every seat played by the solver."""
    course = engine.bundled_course(slug)
    block = course.puzzle
    ids = [str(n) for n in range(1, block["players"] + 1)]
    state = engine.new_game(course, ids)
    found = solver.solve(state, block["seed"])
    assert found is not None and 1 <= len(found.turns) <= block["turn_limit"]
    for programs in found.turns:
        assert sorted(programs) == ids
        hands = engine.deal(state, engine.derive_seed(block["seed"], state.turn, "deal"))
        for bot_id, program in programs.items():
            assert engine.check_program(state.bot(bot_id), hands[bot_id], list(program), state=state) is None
        assert state.outcome is None
        state, _ = engine.resolve_turn(state, programs, engine.derive_seed(block["seed"], state.turn, "resolve"),
                                       hands=hands)
    assert state.outcome == "solved"


def test_the_solver_is_deterministic_and_only_solves_puzzles():
    course = engine.bundled_course("puzzle-belt-maze")
    state = engine.new_game(course, ["1"])
    assert solver.solve(state, 1602) == solver.solve(state, 1602)
    race = engine.new_game(engine.bundled_course("tiny-yard"), ["1", "2"])
    assert solver.solve(race, 1) is None


def test_nothing_touches_the_global_random():
    course = engine.bundled_course("bolt-bay")
    state = engine.new_game(course, ["1", "2"])
    random.seed(40)
    expected = random.random()
    random.seed(40)
    players.choose(state, "1", engine.deal(state, 2)["1"], strength="hard", seed=3)
    solver.solve(engine.new_game(engine.bundled_course("puzzle-first-steps"), ["1"]), 1601)
    assert random.random() == expected
