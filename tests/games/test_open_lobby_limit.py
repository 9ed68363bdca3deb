"""Issue 33, item 10: one account has at most OPEN_LOBBIES_PER_ACCOUNT (10) open lobbies: the 11th create, through
the API or the lobby form, is refused (429) and makes nothing; starting one frees a slot; tournament tables and
Pyramid challenges don't count. The lobby list (API, socket's first frame, page) is one bounded page."""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings

from games.lobby_consumer import LobbyConsumer
from games.models import Game
from games.services import lobby
from roboracer.pyramid import services as pyramid_services
from tests.pyramid.factories import place, pyramid
from tests.tournaments.factories import open_tournament, organiser, started

CREATE = {"course": "tiny-yard", "max_seats": 2}


def make_lobbies(user, courses, count):
    return [lobby.create_game(user=user, course=courses["tiny-yard"], max_seats=2) for _ in range(count)]


def test_ten_open_lobbies_are_allowed_and_the_eleventh_is_refused_by_the_api(courses, make_user, client_for):
    alice = make_user("alice")
    client = client_for(alice)
    for _ in range(10):
        assert client.post("/api/games/", CREATE, format="json").status_code == 201
    refused = client.post("/api/games/", CREATE, format="json")
    assert refused.status_code == 429
    assert "10 open games" in refused.json()["detail"]
    assert Game.objects.filter(creator=alice).count() == 10
    # RAMbots lobbies count too
    rambots = client.post("/api/games/", {"kind": "rambots", "max_seats": 2}, format="json")
    assert rambots.status_code == 429 and Game.objects.filter(creator=alice).count() == 10


def test_the_lobby_form_shows_the_refusal_and_creates_nothing(courses, make_user):
    alice = make_user("alice")
    make_lobbies(alice, courses, 10)
    client = Client()
    client.force_login(alice)
    response = client.post("/", {"course": courses["tiny-yard"].pk, "max_seats": 2, "lives": 3,
                                 "visibility": "public", "timer_preset": "realtime", "timeout_policy": "wait"})
    assert response.status_code == 200
    assert "You already have 10 open games waiting for players." in response.content.decode()
    assert Game.objects.filter(creator=alice).count() == 10


def test_starting_a_game_frees_a_slot_and_others_have_their_own(courses, make_user, client_for):
    alice, bob = make_user("alice"), make_user("bob")
    games = make_lobbies(alice, courses, 10)
    assert client_for(alice).post("/api/games/", CREATE, format="json").status_code == 429
    assert client_for(bob).post("/api/games/", CREATE, format="json").status_code == 201
    lobby.join_game(user=bob, game_id=games[0].pk)  # the game is full: it starts
    assert Game.objects.get(pk=games[0].pk).status != Game.Status.LOBBY
    assert client_for(alice).post("/api/games/", CREATE, format="json").status_code == 201
    assert client_for(alice).post("/api/games/", CREATE, format="json").status_code == 429


@override_settings(OPEN_LOBBIES_PER_ACCOUNT=3)
def test_the_limit_is_a_setting(courses, make_user, client_for):
    alice = make_user("alice")
    make_lobbies(alice, courses, 3)
    assert client_for(alice).post("/api/games/", CREATE, format="json").status_code == 429


def test_tournament_tables_do_not_count(courses, make_user, client_for):
    olga = organiser(make_user)
    make_lobbies(olga, courses, 9)
    players = [make_user(f"t{n}") for n in range(4)]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2), players)
    tables = Game.objects.filter(creator=olga).exclude(status=Game.Status.LOBBY)
    assert tables.count() == 2 and tournament.status == "running"
    # the tables are olga's games, yet her tenth lobby is allowed and her eleventh refused
    assert client_for(olga).post("/api/games/", CREATE, format="json").status_code == 201
    assert client_for(olga).post("/api/games/", CREATE, format="json").status_code == 429


def test_pyramid_challenges_do_not_count_nor_are_refused(courses, make_user, client_for):
    alice, bob = make_user("alice"), make_user("bob")
    ladder = pyramid(courses=courses)
    place(ladder, bob, 1, 1)
    place(ladder, alice, 2, 1)
    make_lobbies(alice, courses, 10)
    challenge = pyramid_services.create_challenge(user=alice, slug=ladder.slug, player="bob")
    assert challenge.game.creator_id == alice.pk and challenge.game.status != Game.Status.LOBBY
    assert client_for(alice).post("/api/games/", CREATE, format="json").status_code == 429
    assert Game.objects.filter(creator=alice, status=Game.Status.LOBBY).count() == 10


@pytest.fixture
def crowded_lobby(courses, make_user):
    """300 open public games by 30 players (10 each, the most they may have), made in bulk."""
    users = [make_user(f"u{n:02}") for n in range(30)]
    template = lobby.create_game(user=users[0], course=courses["tiny-yard"], max_seats=2)
    fields = {"course": template.course, "course_data": template.course_data, "max_seats": 2, "seed": 1,
              "move_time": template.move_time, "game_time": template.game_time}
    Game.objects.bulk_create([Game(creator=users[n // 10], **fields) for n in range(1, 300)])
    return users


def test_the_api_lobby_list_is_paginated(crowded_lobby, make_user, client_for):
    client = client_for(make_user("reader"))
    first = client.get("/api/games/").json()
    assert len(first["open"]) == 50 and first["open_total"] == 300 and first["open_next"] == 2
    ids = [g["id"] for g in first["open"]]
    assert ids == sorted(ids, reverse=True)  # newest first
    seen = set(ids)
    page = first
    while page["open_next"] is not None:
        page = client.get(f"/api/games/?page={page['open_next']}").json()
        assert len(page["open"]) <= 50
        seen |= {g["id"] for g in page["open"]}
    assert len(seen) == 300
    assert client.get("/api/games/?page=0").status_code == 400
    assert client.get("/api/games/?page=x").status_code == 400
    assert client.get("/api/games/?page=99").json()["open"] == []


@pytest.mark.django_db(transaction=True)
def test_the_lobby_page_and_the_sockets_first_frame_are_bounded(crowded_lobby, make_user):
    reader = make_user("reader")
    client = Client()
    client.force_login(reader)
    html = client.get("/").content.decode()
    open_list = html.split('id="open-games"')[1].split("</ul>")[0]
    assert open_list.count("<li data-game-id=") == 50
    assert "Showing the newest 50 of 300 open games" in html

    async def first_frame():
        comm = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
        comm.scope["user"] = reader
        ok, _ = await comm.connect()
        assert ok
        frame = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        return frame

    frame = async_to_sync(first_frame)()
    assert frame["type"] == "lobby" and len(frame["open"]) == 50
    assert frame["open_total"] == 300 and frame["open_next"] == 2
