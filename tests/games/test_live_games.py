"""Live games can be found (issue 37, item 8): the lobby lists the public games being played ("Watch a game")
and features the one whose players' ratings add up highest, as lichess TV does; /games/live/ serves the two
again for the live lobby. Private games, lobbies and finished games are never listed."""

import pytest
from django.test import Client

from games.models import Game
from games.selectors import lobby as lobby_selectors
from roboracer.ratings.models import Rating
from tests.games.factories import started_game


@pytest.fixture
def tables(courses, make_user):
    """Three running public games of two players each, of rating sums low < high < mid, and a private one with
    the strongest players of all."""
    users = {name: make_user(name) for name in ("al", "bo", "cy", "di", "ed", "fi", "gu", "ha")}
    # mu 25, sigma 25/3 is the default (1000); a higher mu is a higher shown rating.
    for name, mu in (("cy", 40), ("di", 38), ("ed", 30), ("fi", 30), ("gu", 60), ("ha", 60)):
        Rating.objects.create(user=users[name], mu=mu, sigma=2)
    low = started_game(users=[users["al"], users["bo"]], course=courses["bolt-bay"])
    high = started_game(users=[users["cy"], users["di"]], course=courses["bolt-bay"])
    mid = started_game(users=[users["ed"], users["fi"]], course=courses["bolt-bay"])
    hidden = started_game(users=[users["gu"], users["ha"]], course=courses["bolt-bay"])
    Game.objects.filter(pk=hidden.pk).update(visibility=Game.Visibility.PRIVATE)
    return users, low, high, mid, hidden


def test_the_featured_game_has_the_highest_rating_sum_and_the_watch_list_follows(tables):
    users, low, high, mid, hidden = tables
    live = lobby_selectors.live_games()
    assert live["featured"]["game"].pk == high.pk
    assert [entry["game"].pk for entry in live["watch"]] == [high.pk, mid.pk, low.pk]  # no private game
    sums = [entry["rating_sum"] for entry in live["watch"]]
    assert sums == sorted(sums, reverse=True) and sums[0] > sums[-1]
    assert {p["name"] for p in live["featured"]["players"]} == {"cy", "di"}
    # My own games are under "My games", not to watch.
    assert [e["game"].pk for e in lobby_selectors.live_games(user=users["cy"])["watch"]] == [mid.pk, low.pk]


def test_a_finished_game_gives_way(tables):
    users, low, high, mid, hidden = tables
    Game.objects.filter(pk=high.pk).update(status=Game.Status.FINISHED)
    live = lobby_selectors.live_games()
    assert live["featured"]["game"].pk == mid.pk
    assert high.pk not in [entry["game"].pk for entry in live["watch"]]


def test_the_lobby_and_the_fragment_show_them(tables):
    users, low, high, mid, hidden = tables
    for client in (Client(), Client()):
        page = client.get("/").content.decode()
        assert 'id="featured-game"' in page and f'data-game-id="{high.pk}"' in page
        assert f"Watch game {high.pk}" in page and f"Game {hidden.pk} ·" not in page
        fragment = client.get("/games/live/")
        assert fragment.status_code == 200
        text = fragment.content.decode()
        assert f'data-featured="{high.pk}"' in text and f'id="course-data-{high.course_id}"' in text
        assert "hand" not in text.lower()  # public facts only
    Game.objects.filter(status=Game.Status.PROGRAMMING).update(status=Game.Status.FINISHED)
    empty = Client().get("/games/live/").content.decode()
    assert 'id="featured-game"' not in empty and "No public game is being played right now." in empty
