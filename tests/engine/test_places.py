"""Final places from stored states, including states stored before bots recorded when they left the race."""

import pytest

import engine

TINY = engine.bundled_course("tiny-yard")


def _state(bots, winner=None, turn=6):
    return engine.state_from_dict({"turn": turn, "winner": winner, "bots": bots}, TINY)


def test_a_bot_out_of_lives_stored_without_out_still_ranks_below_a_racing_bot():
    # Stored by an engine that did not record `out` yet: c is out of the race, d still racing.
    state = _state([
        {"id": "a", "at": [1, 2], "dir": "N", "next_checkpoint": 3},
        {"id": "c", "at": None, "dir": "N", "lives": 0, "spawn": {"at": [1, 7], "dir": "N"}},
        {"id": "d", "at": [5, 6], "dir": "N", "lives": 1, "damage": 8},
    ], winner="a")
    assert state.places == {"a": 1, "d": 2, "c": 3}


def test_places_are_stored_once_over_and_read_back():
    state = _state([
        {"id": "a", "at": [1, 2], "dir": "N", "next_checkpoint": 3},
        {"id": "b", "at": [5, 6], "dir": "N"},
    ], winner="a")
    data = engine.state_to_dict(state)
    assert data["places"] == {"a": 1, "b": 2}
    assert engine.state_from_dict(data, TINY) == state
    racing = _state([{"id": "a", "at": [1, 2], "dir": "N"}, {"id": "b", "at": [5, 6], "dir": "N"}])
    assert racing.places is None and "places" not in engine.state_to_dict(racing)


def test_a_solo_race_lost_still_gives_its_bot_a_place():
    state = _state([{"id": "a", "at": None, "dir": "N", "lives": 0, "out": [6, 2], "spawn": {"at": [1, 7], "dir": "N"}}])
    assert state.finished and state.winner is None and state.places == {"a": 1}


def test_bad_out_fields_are_input_errors():
    spawn = {"at": [1, 7], "dir": "N"}
    for bot, message in (
        ({"id": "a", "at": [1, 2], "dir": "N", "lives": 0, "out": [2, 1]}, "needs 'at': null"),
        ({"id": "a", "at": None, "dir": "N", "lives": 1, "out": [2, 1], "spawn": spawn}, "needs 'at': null"),
        ({"id": "a", "at": None, "dir": "N", "lives": 0, "out": [2, 6], "spawn": spawn}, "'out' must be"),
        ({"id": "a", "at": None, "dir": "N", "lives": 0, "out": "2", "spawn": spawn}, "'out' must be"),
        ({"id": "a", "at": None, "dir": "N", "lives": 0, "ejected": True, "spawn": spawn}, "needs 'out'"),
    ):
        with pytest.raises(engine.InputError, match=message):
            engine.bot_from_dict(bot)


def test_bad_scenario_turns_and_ejections_are_scenario_errors():
    base = {"format": "roboracer-scenario/1", "course": "tiny-yard",
            "bots": [{"id": "a", "at": [5, 6], "dir": "N"},
                     {"id": "b", "at": None, "dir": "N", "lives": 0, "out": [1, 2], "spawn": {"at": [3, 7], "dir": "N"}}],
            "programs": {}}  # fmt: skip
    for change, message in (
        ({"turn": 0}, "'turn' must be"),
        ({"eject": ["z"]}, "'eject' must be a list of bot ids"),
        ({"eject": "a"}, "'eject' must be a list of bot ids"),
        ({"eject": ["b"]}, "eject: bot 'b' is already out"),
        ({"turn": 1, "bots": [{**base["bots"][1], "out": [2, 1]}, base["bots"][0]]}, "is after turn 1"),
    ):
        with pytest.raises(engine.ScenarioError, match=message):
            engine.simulate({**base, **change})
