"""The player page /players/<username>/, GET /api/players/<username>/ and the leaderboard."""

import pytest
from django.test import Client

from games.models import Game
from games.selectors import history
from games.services import organisers
from roboracer.ratings import selectors
from roboracer.ratings.models import RatingChange
from tests.ratings.helpers import played

PLAYERS = ("ann", "ben", "cat")  # the `players` fixture (tests/conftest.py)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_player_page_shows_the_rating_the_chart_and_the_games(courses, players):
    ann, ben, cat = players
    game = played(users=[ann, ben], course=courses["tiny-yard"])
    unrated = played(users=[ann, ben], course=courses["tiny-yard"], rated=False)
    page = _client(cat).get(f"/players/{ben.username}/")
    assert page.status_code == 200
    html = page.content.decode()
    rating = selectors.shown_ratings_of(users=[ben], kind="roboracer")[ben.pk]
    assert rating > 1000 and f'<strong id="player-rating">{rating}</strong>' in html
    assert 'id="rating-chart"' in html and "<polyline" in html and html.count('class="dot"') == 1
    assert f'data-game-id="{game.pk}"' in html and f'data-game-id="{unrated.pk}"' in html
    change = RatingChange.objects.get(game=game, user=ben)
    points = selectors.shown(change.mu_after, change.sigma_after) - selectors.shown(change.mu_before, change.sigma_before)
    assert points > 0 and f'<span class="up">+{points}</span>' in html
    assert "1 of 2" in html and '<span class="unrated">unrated</span>' in html
    assert "Tiny Yard" in html


def test_a_new_player_has_the_default_and_no_chart(courses, players):
    page = _client(players[0]).get(f"/players/{players[1].username}/")
    assert page.status_code == 200
    html = page.content.decode()
    # Each kind's card says "unrated" (not the model's starting guess) and draws no chart; the API keeps its 1000.
    assert '<strong id="player-rating" class="unrated">unrated</strong>' in html and 'id="rating-chart"' not in html
    assert '<strong id="player-rating-rambots" class="unrated">unrated</strong>' in html
    assert "No rated RoboRacer games yet" in html and "No rated RAMbots games yet" in html
    data = _client(players[0]).get(f"/api/players/{players[1].username}/").json()
    assert (data["rating"], data["rated_games"]) == (1000, 0)
    assert data["ratings"]["rambots"] == {"kind": "rambots", "title": "RAMbots", "rated": False, "rating": None,
                                          "mu": None, "sigma": None, "rated_games": 0, "history": []}


def test_the_api_gives_the_same_data(courses, players):
    ann, ben, cat = players
    game = played(users=[ann, ben], course=courses["tiny-yard"])
    answer = _client(cat).get(f"/api/players/{ann.username}/")
    assert answer.status_code == 200
    data = answer.json()
    assert data["username"] == "ann" and data["display_name"] == "ann"
    assert data["rating"] == selectors.shown_ratings_of(users=[ann], kind="roboracer")[ann.pk] < 1000
    assert data["rated_games"] == 1 and len(data["history"]) == 1
    assert set(data["history"][0]) == {"at", "rating"} and data["history"][0]["rating"] == data["rating"]
    (row,) = data["games"]["results"]
    assert row["game"] == game.pk and row["place"] == 2 and row["players"] == 2 and row["rated"] is True
    assert row["rating_change"] == data["rating"] - 1000 and row["course"] == "tiny-yard"
    assert (data["games"]["count"], data["games"]["page"], data["games"]["pages"]) == (1, 1, 1)


def test_usernames_match_ignoring_case(courses, players):
    assert _client(players[0]).get("/api/players/BEN/").json()["username"] == "ben"


@pytest.mark.parametrize("name", [
    "nobody", "ÄÖÜ-ünïcode", "名前", "a" * 151, "x" * 5000, "%00", "ann..", "🙂", "ann%0A", "%E2%80%AEann", "ann'--", "<script>",
])
def test_a_missing_or_hostile_name_is_a_plain_404(players, name):
    client = _client(players[0])
    api = client.get(f"/api/players/{name}/")
    assert api.status_code == 404 and api.json() == {"detail": "there is no such player"}
    page = client.get(f"/players/{name}/")
    assert page.status_code == 404 and "<script>" not in page.content.decode().replace("&lt;script&gt;", "")


def test_a_name_with_a_slash_matches_no_page(players):
    client = _client(players[0])
    assert client.get("/api/players/ann%2F../").status_code == 404
    assert client.get("/players/ann/extra/").status_code == 404


def test_an_inactive_player_looks_missing(players):
    players[1].is_active = False
    players[1].save()
    client = _client(players[0])
    assert client.get("/api/players/ben/").json() == {"detail": "there is no such player"}
    assert client.get("/players/ben/").status_code == 404


def test_signed_out_visitors_are_sent_to_log_in(players):
    assert Client().get("/players/ann/").status_code == 302
    assert Client().get("/api/players/ann/").status_code == 403
    assert Client().get("/players/").status_code == 302


def test_a_private_game_is_listed_only_to_those_who_may_see_it(courses, players):
    ann, ben, cat = players
    private = played(users=[ann, ben], course=courses["tiny-yard"], visibility=Game.Visibility.PRIVATE)
    seen_by_cat = _client(cat).get("/api/players/ann/").json()
    assert seen_by_cat["games"]["results"] == [] and seen_by_cat["games"]["count"] == 0
    assert str(private.pk) not in _client(cat).get("/players/ann/").content.decode().split("Finished games")[1]
    # The rating itself is public; its history has no game ids.
    assert seen_by_cat["rated_games"] == 1 and "game" not in seen_by_cat["history"][0]
    seen_by_ben = _client(ben).get("/api/players/ann/").json()
    assert [row["game"] for row in seen_by_ben["games"]["results"]] == [private.pk]


def test_unfinished_games_are_not_listed(courses, players):
    ann, ben, _ = players
    game = organisers.create_seated_game(creator=ann, users=[ann, ben], course=courses["tiny-yard"])
    assert game.status == Game.Status.PROGRAMMING
    assert _client(ann).get("/api/players/ann/").json()["games"]["count"] == 0


@pytest.mark.parametrize("page", ["0", "-1", "abc", "²", "9" * 30, "1.5"])
def test_a_bad_page_number_is_a_400_in_the_api_and_the_first_page_on_the_page(players, page):
    client = _client(players[0])
    assert client.get(f"/api/players/ann/?page={page}").status_code == 400
    assert client.get(f"/players/ann/?page={page}").status_code == 200


def test_games_are_paginated(courses, players, monkeypatch):
    ann, ben, _ = players
    monkeypatch.setattr(history, "GAMES_PER_PAGE", 2)
    ids = [played(users=[ann, ben], course=courses["tiny-yard"]).pk for _ in range(3)]
    client = _client(ben)
    first = client.get("/api/players/ann/").json()["games"]
    assert (first["count"], first["pages"]) == (3, 2) and [r["game"] for r in first["results"]] == ids[::-1][:2]
    second = client.get("/api/players/ann/?page=2").json()["games"]
    assert [r["game"] for r in second["results"]] == ids[:1]
    assert client.get("/api/players/ann/?page=99").json()["games"]["page"] == 2  # past the last: the last
    html = client.get("/players/ann/?page=2").content.decode()
    assert "Page 2 of 2" in html and 'rel="prev"' in html


def test_the_leaderboard_orders_by_rating(courses, players):
    ann, ben, cat = players
    played(users=[ann, ben], course=courses["tiny-yard"])
    html = _client(cat).get("/players/").content.decode()
    table = html[html.index('id="leaderboard"'):html.index("</table>")]
    assert table.index("/players/ben/") < table.index("/players/ann/")
    assert "/players/cat/" not in table  # no rated game yet
    assert "/players/cat/" in html  # my own page's link
    rows = selectors.leaderboard(kind="roboracer")
    assert [r["username"] for r in rows] == ["ben", "ann"] and rows[0]["rating"] > rows[1]["rating"]


def test_the_admin_lists_ratings_without_editing_them(courses, players, django_user_model):
    played(users=players[:2], course=courses["tiny-yard"])
    staff = django_user_model.objects.create_superuser("root", "root@example.com", "correct horse battery")
    client = _client(staff)
    page = client.get("/admin/ratings/rating/")
    assert page.status_code == 200 and "ben" in page.content.decode()
    assert client.get("/admin/ratings/ratingchange/").status_code == 200
    assert client.get("/admin/ratings/rating/add/").status_code == 403
