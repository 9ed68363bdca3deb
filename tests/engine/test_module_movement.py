"""Movement modules (issue 14 part 2): Turbo, Crab Legs, Reverse and Clamp.

The chip shapes they build (`ChipPlay`), and random turns with the four modules activated on every bundled
course: the events alone still explain the new state, a bot only moves in its clamp phase when a belt
carries it (or a teleporter moves it), and turns replay byte for byte.
"""

import json

from hypothesis import event as tally
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.modules import MODULES
from engine.resolve import chip_play
from engine.state import Bot
from tests.engine.strategies import COURSES, course_and_bots
from tests.profiles import examples

from .test_properties import _replay

MOVERS = ("turbo", "crab_legs", "reverse", "clamp")


# --- chip shapes ------------------------------------------------------------------------------------


def test_invert_swaps_turns_reverses_moves_and_sideways_and_extra_squares():
    left = chip_play("L")
    left.invert()
    assert left.shape() == {"kind": "turn", "turn": "R"}
    u_turn = chip_play("U")
    u_turn.invert()
    assert u_turn.shape() == {"kind": "turn", "turn": "U"}
    move = chip_play("2")
    move.extra = 1
    move.invert()
    assert move.shape() == {"kind": "move", "squares": 2, "dir": "back", "extra": 1, "extra_dir": "back"}
    move.invert()
    assert move.shape() == {"kind": "move", "squares": 2, "dir": "forward", "extra": 1, "extra_dir": "forward"}
    crab = chip_play("R")
    MODULES["crab_legs"]().transform_chip(None, None, crab)
    assert crab.shape() == {"kind": "move", "squares": 1, "dir": "right"}
    crab.invert()
    assert crab.shape() == {"kind": "move", "squares": 1, "dir": "left"} and not crab.backward


def test_headings_of_each_part_of_the_movement():
    back = chip_play("B")
    MODULES["turbo"]().transform_chip(None, None, back)
    assert (back.heading("N"), back.going_back) == ("S", True)
    back.in_extra = True
    assert (back.heading("N"), back.going_back) == ("N", False)
    back.add_square()
    assert (back.count, back.extra) == (1, 2)
    crab = chip_play("L")
    MODULES["crab_legs"]().transform_chip(None, None, crab)
    assert (crab.heading("N"), crab.heading("E"), crab.going_back) == ("W", "N", False)


def test_turbo_and_crab_legs_leave_other_chips_alone():
    for chip in ("L", "R", "U"):
        play = chip_play(chip)
        MODULES["turbo"]().transform_chip(None, None, play)
        assert play.shape() == chip_play(chip).shape()
    for chip in ("1", "2", "3", "B", "U"):
        play = chip_play(chip)
        MODULES["crab_legs"]().transform_chip(None, None, play)
        assert play.shape() == chip_play(chip).shape()


# --- random turns -----------------------------------------------------------------------------------


@st.composite
def games(draw):
    course, ids = draw(course_and_bots(most=6))
    state = engine.new_game(course, ids, modules=MOVERS)
    bots = [
        Bot(**{**bot.__dict__, "module": draw(st.sampled_from(MOVERS)), "charges": 5}) for bot in state.bots
    ]
    return state.with_bots(bots), draw(st.integers(1, 4)), draw(st.randoms(use_true_random=False))


def _clamped_moves(events, activations):
    """Squares a bot changed in its own clamp phase other than on a belt or by a teleporter."""
    return [
        event for event in events
        if event["type"] in ("moved", "pushed", "slid") and event["phase"] in activations.get(event["bot"], ())
    ]  # fmt: skip


@settings(max_examples=examples(80), deadline=None)
@given(games(), st.data())
def test_movement_modules_keep_the_events_explaining_the_state(case, data):
    state, turns, rng = case
    for _ in range(turns):
        if state.finished:
            break
        hands = engine.deal(state, state.turn * 31)
        programs, actions, clamps = {}, {}, {}
        for bot in state.bots:
            if bot.at is None:
                continue
            program = engine.required_program(bot) or list(
                engine.random_program(bot, hands[bot.id], rng.randrange(1 << 30))
            )
            programs[bot.id] = program
            phase = data.draw(st.integers(1, 5))
            action = {"activate": {"phases": [phase]}}
            if engine.check_program(bot, hands[bot.id], program, action, state=state) is None:
                actions[bot.id] = action
                if bot.module == "clamp":
                    clamps[bot.id] = (phase,)
        inputs = json.dumps([engine.state_to_dict(state), programs, actions, hands])
        before = state
        state, events = engine.resolve_turn(state, programs, state.turn, actions=actions, hands=hands)
        again = engine.resolve_turn(
            engine.state_from_dict(json.loads(inputs)[0], COURSES_BY_NAME[before.course.name]), programs,
            before.turn, actions=actions, hands=hands,
        )  # fmt: skip
        assert json.dumps([engine.state_to_dict(again[0]), again[1]]) == json.dumps(
            [engine.state_to_dict(state), events]
        )
        replayed = _replay(before, events)
        for bot in state.bots:
            assert replayed[bot.id]["at"] == bot.at and replayed[bot.id]["dir"] == bot.dir
        assert not _clamped_moves(events, clamps)
        for kind in ("chip_transformed", "clamped"):
            if any(event["type"] == kind for event in events):
                tally(kind)
        for event in events:
            if event["type"] == "chip_transformed":
                assert ("module" in event) != ("cause" in event) and event["from"] != event["to"]
            if event.get("module") in ("turbo", "crab_legs") and event["type"] == "moved":
                assert event["step"] == "chips"


COURSES_BY_NAME = {course.name: course for course in COURSES.values()}
