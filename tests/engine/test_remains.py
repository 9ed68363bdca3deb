"""Arena remains over random arenas (hypothesis), beside the rule-by-rule scenarios (tests/engine/scenarios/
arena_*.json): every piece is accounted for by the events, no piece ends a turn in a hole, off the course or
under a bot, the state round-trips through plain data, and an arena refuses reboots."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

import engine
from tests.engine.test_properties import PROGRAM, _replay, random_courses
from tests.profiles import examples


def _pieces(events):
    """Pieces that came (dropped on the course), went (lost, collected, merged away), from the events."""
    came = went = 0
    for event in events:
        kind = event["type"]
        if kind == "remains_dropped":
            came += len(event["squares"])
        elif kind == "remains_lost":
            went += 1
        elif kind == "remains_collected":
            went += event["pieces"]
        elif kind == "remains_merged":
            went += event["pieces"] - 1
    return came, went


@settings(max_examples=examples(80), deadline=None)
@given(random_courses(mode="arena"), st.lists(st.lists(PROGRAM, min_size=5, max_size=5), min_size=1, max_size=4), st.data())
def test_every_piece_is_accounted_for_and_none_ends_a_turn_in_a_hole(course, programs_by_turn, data):
    assume(course is not None)
    ids = [str(n) for n in range(1, min(5, course.players[1]) + 1)]
    state = engine.new_game(course, ids, lives=2)
    free = [(x, y) for y in range(course.height) for x in range(course.width) if (x, y) not in course.pits]
    remains = data.draw(st.lists(st.sampled_from(free), max_size=6, unique=True))
    state = engine.state_from_dict({**engine.state_to_dict(state), "remains": [list(sq) for sq in remains]}, course)
    for programs in programs_by_turn:
        if state.finished:
            break
        live = {
            bot.id: engine.required_program(bot) or programs[int(bot.id) - 1] for bot in state.bots if bot.at is not None
        }
        with pytest.raises(engine.InputError, match="no reboot in an arena"):
            engine.resolve_turn(state, live, seed=state.turn, reboots=[next(iter(live))])
        before = state
        state, events = engine.resolve_turn(state, live, seed=state.turn)
        came, went = _pieces(events)
        tally(f"remains events: {bool(came or went)}")
        assert len(before.remains) + came - went == len(state.remains), events
        for square in state.remains:
            assert course.on_course(square) and square not in course.pits
            assert not any(bot.at == square and bot.drone_of is None for bot in state.bots), "a bot stands on remains"
        replayed = _replay(before, events)
        for bot in state.bots:
            assert replayed[bot.id]["damage"] == bot.damage
        assert engine.state_from_dict(engine.state_to_dict(state), course) == state


def test_a_race_turn_never_drops_remains():
    course = engine.bundled_course("tiny-yard")
    state = engine.new_game(course, ["1", "2"])
    state, events = engine.resolve_turn(state, {"1": ["3", "3", "3", "3", "3"], "2": ["B"] * 5}, seed=1)
    assert not any(event["type"].startswith("remains") for event in events)
    assert state.remains == frozenset()
