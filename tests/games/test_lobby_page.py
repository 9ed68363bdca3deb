"""The lobby page and GET /api/games/: a finished game says who won ("won by NAME") under My games and in
the archive; the page carries the live lobby's script and empty lists it can fill."""

import pytest
from django.test import Client

from games.services import chat
from games.services import lobby as lobby_services
from roboracer.accounts.services import update_profile
from tests.games.factories import started_game


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def finished(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    update_profile(user=bob, display_name="Bob the Builder")
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    lobby_services.leave_game(user=alice, game_id=game.pk)  # alice resigns: bob is the last robot in the race
    return alice, bob, game


def test_a_finished_game_says_who_won_in_my_games_and_the_api(finished):
    alice, bob, game = finished
    html = logged_in(alice).get("/").content.decode()
    row = html.split(f'<li data-game-id="{game.pk}"')[1].split("</li>")[0]
    assert "Finished" in row and "won by Bob the Builder" in row
    lobby = logged_in(bob).get("/api/games/").json()
    assert [(g["id"], g["status"], g["winner"]) for g in lobby["mine"]] == [(game.pk, "finished", "Bob the Builder")]


def test_an_archived_finished_game_says_who_won_too(finished):
    alice, _, game = finished
    chat.post_chat(user=alice, game_id=game.pk, text="!archive")
    html = logged_in(alice).get("/").content.decode()
    archive = html.split('id="archived-games"')[1].split("</details>")[0]
    assert f"Game {game.pk}" in archive and "won by Bob the Builder" in archive
    assert 'id="my-games"' not in html  # its only game is archived
    assert logged_in(alice).get("/api/games/").json()["archived"][0]["winner"] == "Bob the Builder"


def test_a_running_game_names_no_winner_and_the_page_loads_the_live_lobby(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    started_game(users=[alice, bob], course=courses["tiny-yard"])
    html = logged_in(alice).get("/").content.decode()
    assert "won by" not in html
    assert 'src="/static/dist/lobby.js"' in html and 'data-ws-path="/ws/lobby/"' in html
    # An empty list is left out; its "none" line is there, for the live lobby to hide when a game comes.
    anonymous = Client().get("/").content.decode()
    assert 'id="open-games"' not in anonymous and 'id="open-games-empty">No open games' in anonymous
    assert all(g["winner"] is None for g in logged_in(alice).get("/api/games/").json()["mine"])


def test_a_finished_private_games_invite_page_says_who_won(courses, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = lobby_services.create_game(user=alice, course=courses["tiny-yard"], max_seats=2, visibility="private")
    lobby_services.join_game(user=bob, game_id=game.pk, invite=game.invite_code)
    lobby_services.leave_game(user=bob, game_id=game.pk)  # bob resigns in the running game: alice wins
    html = logged_in(carol).get(f"/games/{game.pk}/invite/{game.invite_code}/").content.decode()
    assert "This game is finished (" in html and "won by alice" in html


def test_the_timer_preset_has_one_name_on_every_page(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = lobby_services.create_game(user=alice, course=courses["tiny-yard"], max_seats=3, visibility="private")
    open_game = lobby_services.create_game(user=bob, course=courses["tiny-yard"], max_seats=3)
    lobby = logged_in(alice).get("/").content.decode()
    mine = lobby.split(f'<li data-game-id="{game.pk}"')[1].split("</li>")[0]
    listed = lobby.split(f'data-game-id="{open_game.pk}"')[1].split("</li>")[0]
    assert "· Real-time ·" in mine and "Real-time (2 min a move, 10 min game time)" in listed
    assert 'value="realtime" selected>Real-time: 2 min a move' in lobby or ">Real-time: 2 min a move" in lobby
    invite = logged_in(bob).get(f"/games/{game.pk}/invite/{game.invite_code}/").content.decode()
    assert "timers: Real-time (2 min a move, 10 min game time)." in invite
    assert "Realtime" not in lobby + invite and "realtime." not in invite


def test_the_create_form_says_who_may_watch_a_public_game(courses, make_user):
    lobby = logged_in(make_user("alice")).get("/").content.decode()
    assert "Public: listed here, any signed-in player may watch" in lobby and "anyone may watch" not in lobby
