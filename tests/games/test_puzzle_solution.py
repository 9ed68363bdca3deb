"""The puzzle's solution on the site (issue 40): the solver's programs replayed on the game screen offline,
offered once a player solved the puzzle or gave up, and to nobody before."""

import pytest

import engine
from games.models import Game
from games.selectors import puzzles
from games.services import lobby
from tests.helpers import client_for

SLUG = "puzzle-push-off"


def _row(user, slug=SLUG):
    return next(row for row in puzzles.puzzle_list(user=user) if row["slug"] == slug)


@pytest.mark.django_db
def test_the_solution_waits_until_the_player_solved_the_puzzle_or_gave_up(courses, make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    game = lobby.create_game(user=alice, course=courses[SLUG])
    api = client_for(alice)
    refused = api.get(f"/api/puzzles/{SLUG}/solution/")
    assert refused.status_code == 403 and "solved the puzzle or given up" in refused.json()["detail"]
    assert "turns" not in refused.json() and _row(alice)["solution_url"] is None
    client.force_login(alice)
    assert client.get(f"/puzzles/{SLUG}/solution/").status_code == 403
    lobby.leave_game(user=alice, game_id=game.pk)  # gives up: resigns the only seat
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.state["outcome"] != "solved"

    answer = api.get(f"/api/puzzles/{SLUG}/solution/")
    assert answer.status_code == 200
    shown = answer.json()
    block = engine.bundled_course(SLUG).puzzle
    assert 1 <= len(shown["turns"]) <= block["turn_limit"] and shown["game"]["course"]["name"] == "Puzzle: Push Off"
    state = engine.new_game(engine.parse_course(shown["game"]["course"]), ["1"])
    for record in shown["turns"]:  # the programs replay to "solved", dealt as the site deals the puzzle
        hands = engine.deal(state, engine.derive_seed(block["seed"], state.turn, "deal"))
        state, events = engine.resolve_turn(state, record["programs"], engine.derive_seed(block["seed"], state.turn,
                                                                                           "resolve"), hands=hands)
        assert events == record["events"]
    assert state.outcome == "solved"
    assert _row(alice)["solution_url"] == f"/puzzles/{SLUG}/solution/"
    page = client.get(f"/puzzles/{SLUG}/solution/").content.decode()
    assert f'data-demo-src="/api/puzzles/{SLUG}/solution/"' in page and "a solution" in page
    assert "Show me a solution" in client.get("/puzzles/").content.decode()
    # bob never played it, and a visitor is nobody: neither sees it.
    assert client_for(bob).get(f"/api/puzzles/{SLUG}/solution/").status_code == 403
    assert _row(bob)["solution_url"] is None
    client.logout()
    assert client.get(f"/api/puzzles/{SLUG}/solution/").status_code in (401, 403)


@pytest.mark.django_db
def test_what_is_no_puzzle_has_no_solution(courses, make_user, client):
    alice = make_user("alice")
    client.force_login(alice)
    api = client_for(alice)
    for slug in ("tiny-yard", "no-such-course"):
        assert api.get(f"/api/puzzles/{slug}/solution/").status_code == 404
        assert client.get(f"/puzzles/{slug}/solution/").status_code == 404
