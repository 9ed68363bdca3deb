"""Ratings where games are listed and played: `rated` and `creator_rating` in the lobby's summaries, `rated`
and each seat's `rating` in the snapshot, the `rated` option of the API and the create form."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game
from games.selectors import access, snapshots
from games.selectors import lobby as lobby_selectors
from games.services import lobby as lobby_services
from games.services import organisers
from roboracer.courses.models import Course
from roboracer.ratings.models import Rating
from roboracer.ratings.selectors import shown
from tests.ratings.helpers import course_copy, played

PLAYERS = ("ann", "ben", "cat")  # the `players` fixture (tests/conftest.py)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_lobby_says_rated_and_gives_the_creators_rating(courses, players):
    ann, ben, cat = players
    Rating.objects.create(user=ann, mu=30.0, sigma=3.0, games=9)
    dev = course_copy(courses["tiny-yard"], slug="dev-yard", state=Course.State.DEVELOPMENT)
    rated = lobby_services.create_game(user=ann, course=courses["tiny-yard"])
    unrated = lobby_services.create_game(user=ben, course=courses["tiny-yard"], rated=False)
    on_dev = lobby_services.create_game(user=ben, course=dev)
    lobby = lobby_selectors.lobby_state(user=cat)
    summaries = {game["id"]: game for game in lobby["open"]}
    assert summaries[rated.pk]["rated"] is True and summaries[rated.pk]["creator_rating"] == shown(30.0, 3.0) == 1840
    assert summaries[unrated.pk]["rated"] is False and summaries[unrated.pk]["creator_rating"] == 1000
    assert summaries[on_dev.pk]["rated"] is False
    mine = {game["id"]: game for game in lobby_selectors.lobby_state(user=ann)["mine"]}
    assert mine[rated.pk]["rated"] is True
    feed = lobby_selectors.game_summary(game=lobby_selectors.lobby_game(game_id=rated.pk))  # what the lobby socket sends
    assert (feed["rated"], feed["creator_rating"]) == (True, 1840)


def test_the_lobby_reads_no_more_queries_with_more_games(courses, players):
    """The mode and the creator's rating come with the lobby's queries, not one query per game."""
    ann, ben, cat = players
    lobby_services.create_game(user=ann, course=courses["tiny-yard"])
    with CaptureQueriesContext(connection) as one:
        lobby_selectors.lobby_state(user=cat)
    for user in (ann, ben, ben, cat):
        lobby_services.create_game(user=user, course=courses["tiny-yard"])
    with CaptureQueriesContext(connection) as five:
        state = lobby_selectors.lobby_state(user=cat)
    assert len(state["open"]) == 5 and len(five) == len(one)


def test_the_lobby_page_shows_rated_and_links_the_creator(courses, players):
    ann, ben, _ = players
    game = lobby_services.create_game(user=ann, course=courses["tiny-yard"])
    lobby_services.create_game(user=ann, course=courses["tiny-yard"], rated=False)
    client = Client()
    client.force_login(ben)
    html = client.get("/").content.decode()
    row = html[html.index(f'data-game-id="{game.pk}"'):]
    row = row[:row.index("</li>")]
    assert '· rated · created by <a href="/players/ann/">ann</a> (1000)' in row
    assert "· unrated · created by" in html


def test_the_snapshot_says_rated_and_gives_every_seats_rating(courses, players):
    ann, ben, _ = players
    game = played(users=[ann, ben], course=courses["tiny-yard"])
    snap = snapshots.game_snapshot(game=access.get_game(game_id=game.pk), user=ann)
    assert snap["rated"] is True
    ratings = {seat["user"]: seat["rating"] for seat in snap["seats"]}
    assert ratings["ben"] > 1000 > ratings["ann"]
    changes = {seat["user"]: seat["rating_change"] for seat in snap["seats"]}
    assert changes == {"ben": ratings["ben"] - 1000, "ann": ratings["ann"] - 1000}
    running = organisers.create_seated_game(creator=ann, users=[ann, ben], course=courses["tiny-yard"])
    in_play = snapshots.game_snapshot(game=access.get_game(game_id=running.pk), user=ben)
    assert [seat["rating_change"] for seat in in_play["seats"]] == [None, None]
    assert [seat["rating"] for seat in in_play["seats"]] == [ratings["ann"], ratings["ben"]]
    test_drive = lobby_services.create_game(user=ann, course=courses["tiny-yard"], test_drive=True)
    assert snapshots.game_snapshot(game=test_drive, user=ann)["rated"] is False


def test_the_api_creates_an_unrated_game_when_asked(courses, players):
    ann = players[0]
    answer = _api(ann).post("/api/games/", {"course": "tiny-yard", "rated": False}, format="json")
    assert answer.status_code == 201 and answer.json()["rated"] is False
    assert Game.objects.get(pk=answer.json()["id"]).rated is False
    default = _api(ann).post("/api/games/", {"course": "tiny-yard"}, format="json")
    assert default.json()["rated"] is True and Game.objects.get(pk=default.json()["id"]).rated is True


@pytest.mark.parametrize("value", ["maybe", [], {"a": 1}, "🙂", 2])
def test_the_api_refuses_a_rated_that_is_not_a_boolean(courses, players, value):
    answer = _api(players[0]).post("/api/games/", {"course": "tiny-yard", "rated": value}, format="json")
    assert answer.status_code == 400 and answer.json()["detail"].startswith("rated:")
    assert not Game.objects.exists()


def test_the_create_form_has_rated_ticked_and_unticking_makes_an_unrated_game(courses, players):
    client = Client()
    client.force_login(players[0])
    page = client.get("/").content.decode()
    assert 'name="rated"' in page and 'id="id_rated" checked' in page
    form = {"course": courses["tiny-yard"].pk, "max_seats": 2, "lives": 3, "visibility": "public",
            "timer_preset": "realtime", "timeout_policy": "wait"}
    client.post("/", {**form, "rated": "on"})
    client.post("/", form)  # an unticked box is not sent
    assert list(Game.objects.order_by("pk").values_list("rated", flat=True)) == [True, False]
