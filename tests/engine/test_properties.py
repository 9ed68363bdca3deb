"""Invariants over random programs on the bundled course (hypothesis)."""

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import engine

COURSE = engine.bundled_course("tiny-yard")
CHIP = st.sampled_from(["1", "2", "3", "B", "L", "R", "U"])
PROGRAM = st.lists(CHIP, min_size=5, max_size=5)


@st.composite
def turns(draw):
    count = draw(st.integers(min_value=2, max_value=4))
    ids = [str(n) for n in range(1, count + 1)]
    state = engine.new_game(COURSE, ids, lives=draw(st.integers(min_value=1, max_value=3)))
    programs = [{bot_id: draw(PROGRAM) for bot_id in ids} for _ in range(draw(st.integers(1, 4)))]
    return state, programs


def _run(state, program_list):
    outputs = []
    for programs in program_list:
        if state.finished:
            break
        live = {bot.id: programs[bot.id] for bot in state.bots if bot.in_game}
        state, events = engine.resolve_turn(state, live, seed=state.turn)
        outputs.append((state, events))
    return outputs


@settings(max_examples=150, deadline=None)
@given(turns())
def test_invariants_after_every_turn(case):
    state, program_list = case
    for new_state, events in _run(state, program_list):
        real = [bot.at for bot in new_state.bots if bot.at is not None and not bot.virtual]
        assert len(real) == len(set(real)), "two real bots share a square"
        for bot in new_state.bots:
            assert bot.at is None or new_state.course.on_course(bot.at)
            assert bot.at is None or bot.at not in new_state.course.pits
            assert 0 <= bot.damage <= 10
        for event in events:
            assert 1 <= event["phase"] <= 5


@settings(max_examples=60, deadline=None)
@given(turns())
def test_same_input_gives_byte_identical_output_and_input_is_not_mutated(case):
    state, program_list = case
    before = json.dumps(engine.state_to_dict(state), sort_keys=True)
    programs_before = copy.deepcopy(program_list)
    first = _run(state, program_list)
    second = _run(state, program_list)
    dump = lambda runs: json.dumps([(engine.state_to_dict(s), e) for s, e in runs], sort_keys=True)  # noqa: E731
    assert dump(first) == dump(second)
    assert json.dumps(engine.state_to_dict(state), sort_keys=True) == before
    assert program_list == programs_before


@settings(max_examples=60, deadline=None)
@given(turns())
def test_state_round_trips_through_plain_data(case):
    state, program_list = case
    for new_state, _ in _run(state, program_list):
        assert engine.state_from_dict(engine.state_to_dict(new_state), COURSE) == new_state
