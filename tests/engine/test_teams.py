"""Team play in the engine beside its scenarios (tests/engine/scenarios/team_*.json): new games with teams,
the stored state, and the rules on who may be on which team."""

import pytest

import engine


def _course():
    return engine.bundled_course("tiny-yard")


def test_new_game_gives_every_bot_its_team_and_stores_it():
    course = _course()
    ids = [str(n) for n in range(1, course.players[1] + 1)][:4]
    teams = {"1": "blue", "2": "orange", "3": "blue", "4": "orange"}
    state = engine.new_game(course, ids, teams=teams)
    assert {bot.id: bot.team for bot in state.bots} == teams
    assert state.team_game and state.winning_team is None and not state.finished
    data = engine.state_to_dict(state)
    assert data["winning_team"] is None and [bot["team"] for bot in data["bots"]] == ["blue", "orange", "blue", "orange"]
    assert engine.state_from_dict(data, course) == state


def test_a_game_without_teams_stores_no_team_fields():
    course = _course()
    data = engine.state_to_dict(engine.new_game(course, ["1", "2"]))
    assert "winning_team" not in data and all("team" not in bot for bot in data["bots"])


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ({"1": "blue", "2": "orange", "3": "blue", "4": "blue"}, "at least 2 bot(s) on each team"),
        ({"1": "blue", "2": "orange", "3": "blue"}, "every bot, and only the game's bots"),
        ({"1": "blue", "2": "orange", "3": "blue", "4": "red"}, "'team' must be 'blue' or 'orange'"),
    ],
)
def test_new_game_refuses_uneven_or_unknown_teams(teams, message):
    course = _course()
    with pytest.raises(engine.InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        engine.new_game(course, ["1", "2", "3", "4"], teams=teams)


def test_a_stored_winning_team_must_be_a_team_of_the_game():
    course = _course()
    data = engine.state_to_dict(engine.new_game(course, ["1", "2"]))
    data["winning_team"] = "blue"
    with pytest.raises(engine.InputError, match="winning_team"):
        engine.state_from_dict(data, course)
