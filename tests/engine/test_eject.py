import pytest

import engine
from engine.errors import InputError


def _state(players: int):
    course = engine.bundled_course("tiny-yard" if players == 1 else "bolt-bay")
    return engine.new_game(course, [str(n) for n in range(1, players + 1)], lives=3)


def test_ejected_bot_leaves_the_course_with_no_lives():
    state = _state(3)
    new_state, events = engine.eject(state, ["2"])
    bot = new_state.bot("2")
    assert bot.at is None and bot.lives == 0 and not bot.in_game
    assert [event["type"] for event in events] == ["ejected"]
    assert new_state.winner is None
    assert state.bot("2").in_game  # the input is unchanged


def test_last_bot_in_the_race_wins():
    new_state, events = engine.eject(_state(3), ["1", "3"])
    assert new_state.winner == "2" and new_state.finished
    assert events[-1]["type"] == "winner" and events[-1]["bot"] == "2"


def test_solo_race_ejection_ends_without_winner():
    new_state, _ = engine.eject(_state(1), ["1"])
    assert new_state.finished and new_state.winner is None


def test_bad_ejections_are_errors():
    state = _state(2)
    with pytest.raises(InputError, match="no bot"):
        engine.eject(state, ["9"])
    out, _ = engine.eject(_state(3), ["1"])
    with pytest.raises(InputError, match="already out"):
        engine.eject(out, ["1"])


def test_ejected_state_round_trips_and_deals_no_hand():
    new_state, _ = engine.eject(_state(3), ["3"])
    again = engine.state_from_dict(engine.state_to_dict(new_state), new_state.course)
    assert again == new_state
    assert "3" not in engine.deal(new_state, 7)
