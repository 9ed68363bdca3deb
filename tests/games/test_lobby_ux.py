"""The lobby page as a new player meets it (issue 33, item 10's follow-up): a refused create shows its error at the
top of the page, focused, in sentences; the open games come a page at a time with Newer/Older links (`?page=N`),
and the lobby socket serves the page it was opened for and tells every page how many open games there are; a
signed-out visitor is asked to sign up or log in, not to "create one"."""

import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client, override_settings

from games.lobby_consumer import LobbyConsumer
from games.models import Game
from games.services import lobby

FORM = {"max_seats": 2, "lives": 3, "visibility": "public", "timer_preset": "realtime", "timeout_policy": "wait"}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def lobbies(user, course, count, **options):
    return [lobby.create_game(user=user, course=course, max_seats=2, **options) for _ in range(count)]


def open_ids(html: str) -> list[int]:
    if 'id="open-games"' not in html:
        return []
    listed = html.split('id="open-games"')[1].split("</ul>")[0]
    return [int(n) for n in re.findall(r'<li data-game-id="(\d+)"', listed)]


# ---- 1. a refused create: its error first, focused, in sentences

def test_the_eleventh_create_is_refused_in_a_sentence_at_the_top_of_the_page_and_focused(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    lobbies(alice, courses["tiny-yard"], 10)
    lobbies(bob, courses["tiny-yard"], 10)  # two long lists between the top of the page and the form
    response = logged_in(alice).post("/", {**FORM, "course": courses["tiny-yard"].pk})
    assert response.status_code == 200 and Game.objects.filter(creator=alice).count() == 10
    html = response.content.decode()
    sentence = "You already have 10 open games waiting for players. Start or cancel one before creating another."
    summary = html.split('id="create-errors"')[1].split("</div>")[0]
    assert sentence in summary
    opening = html.split('id="create-errors"')[0].rsplit("<", 1)[1] + html.split('id="create-errors"')[1].split(">")[0]
    assert 'role="alert"' in opening and 'tabindex="-1"' in opening and "autofocus" in opening
    # It comes before everything else the page has: the practice card, the lists and the form.
    assert html.index('id="create-errors"') < html.index('id="practice"') < html.index('id="lobby-root"')
    assert html.index('id="create-errors"') < html.index('id="create-game"')
    # ... and links to the form, where the same sentence stands too (not "you already have ...").
    assert 'href="#create-game"' in summary
    form = html.split('id="create-game"')[1].split("</form>")[0]
    assert sentence in form and "you already have" not in html


def test_the_api_refuses_the_eleventh_in_a_sentence_too(courses, make_user, client_for):
    alice = make_user("alice")
    lobbies(alice, courses["tiny-yard"], 10)
    refused = client_for(alice).post("/api/games/", {"course": "tiny-yard", "max_seats": 2}, format="json")
    assert refused.status_code == 429 and set(refused.json()) == {"detail"}
    assert refused.json()["detail"] == ("You already have 10 open games waiting for players. Start or cancel one "
                                        "before creating another.")


def test_a_field_error_is_summed_up_at_the_top_with_a_link_to_its_field(courses, make_user):
    alice = make_user("alice")
    html = logged_in(alice).post("/", {**FORM, "course": courses["tiny-yard"].pk, "max_seats": 9}).content.decode()
    summary = html.split('id="create-errors"')[1].split("</div>")[0]
    assert 'href="#id_max_seats"' in summary and "Seats: Ensure this value is less than or equal to 8." in summary
    custom = logged_in(alice).post("/", {**FORM, "course": courses["tiny-yard"].pk, "timer_preset": "custom"})
    summary = custom.content.decode().split('id="create-errors"')[1].split("</div>")[0]
    assert "Custom timers need a move time and a game time, in minutes." in summary
    # A field of several inputs (the module checkboxes) links to the form, not to "#".
    modules = logged_in(alice).post("/", {**FORM, "course": courses["tiny-yard"].pk, "modules": ["nope"]})
    summary = modules.content.decode().split('id="create-errors"')[1].split("</div>")[0]
    assert "Select a valid choice." in summary and 'href="#create-game"' in summary and 'href="#"' not in summary
    # A page without errors has no summary.
    assert 'id="create-errors"' not in logged_in(alice).get("/").content.decode()


# ---- 2. pages of open games

@override_settings(LOBBY_PAGE_SIZE=3)
def test_the_lobby_page_honours_page_with_newer_and_older_links(courses, make_user):
    alice, bob, reader = make_user("alice"), make_user("bob"), make_user("reader")
    games = lobbies(alice, courses["tiny-yard"], 5) + lobbies(bob, courses["tiny-yard"], 5)
    newest = [g.pk for g in reversed(games)]
    client = logged_in(reader)

    first = client.get("/").content.decode()
    assert open_ids(first) == newest[:3]
    assert "Showing the newest 3 of 10 open games." in first
    assert re.search(r'<a [^>]*id="open-games-older"[^>]*href="\?page=2"', first)
    assert 'id="open-games-newer"' not in first or re.search(r'id="open-games-newer"[^>]*hidden', first)
    assert 'data-page="1"' in first and 'data-page-size="3"' in first and 'data-ws-path="/ws/lobby/"' in first

    second = client.get("/?page=2").content.decode()
    assert open_ids(second) == newest[3:6]
    assert "Showing open games 4–6 of 10 (page 2 of 4)." in second
    assert re.search(r'<a [^>]*id="open-games-newer"[^>]*href="/"', second)
    assert re.search(r'<a [^>]*id="open-games-older"[^>]*href="\?page=3"', second)
    assert 'data-page="2"' in second and 'data-ws-path="/ws/lobby/?page=2"' in second
    assert "<title>Lobby, page 2 · RoboRacer</title>" in second

    last = client.get("/?page=4").content.decode()
    assert open_ids(last) == newest[9:]
    assert "Showing open game 10 of 10 (page 4 of 4)." in last
    assert re.search(r'<a [^>]*id="open-games-newer"[^>]*href="\?page=3"', last)
    assert not re.search(r'<a [^>]*id="open-games-older"[^>]*href=', last)

    past = client.get("/?page=9").content.decode()  # past the end: none, and the way back to the last page
    assert open_ids(past) == []
    assert re.search(r'id="open-games-empty">No open games on this page\.', past)
    assert re.search(r'<a [^>]*id="open-games-newer"[^>]*href="\?page=4"', past)

    for bad in ("0", "x", "-1", "²", "1000001"):
        assert client.get(f"/?page={bad}").status_code == 404, bad


@override_settings(LOBBY_PAGE_SIZE=3)
def test_a_refused_create_on_a_later_page_shows_that_page_again(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    lobbies(bob, courses["tiny-yard"], 7)
    lobbies(alice, courses["tiny-yard"], 10)
    html = logged_in(alice).post("/?page=2", {**FORM, "course": courses["tiny-yard"].pk}).content.decode()
    assert 'id="create-errors"' in html and "Showing open games 4–6 of 17 (page 2 of 6)." in html


@pytest.mark.django_db(transaction=True)
@override_settings(LOBBY_PAGE_SIZE=3)
def test_the_lobby_socket_serves_its_page_and_every_push_says_how_many_games_are_open(courses, make_user):
    alice, reader = make_user("alice"), make_user("reader")
    games = lobbies(alice, courses["tiny-yard"], 5)

    async def scenario():
        second = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/?page=2")
        second.scope["user"] = AnonymousUser()  # no own group: the public pushes only
        assert (await second.connect())[0]
        frame = await second.receive_json_from(timeout=5)
        assert [g["id"] for g in frame["open"]] == [games[1].pk, games[0].pk]
        assert (frame["open_total"], frame["open_next"]) == (5, None)
        for query in ("page=x", "page=0", ""):  # an unreadable page is the first
            comm = WebsocketCommunicator(LobbyConsumer.as_asgi(), f"/ws/lobby/?{query}")
            comm.scope["user"] = AnonymousUser()
            assert (await comm.connect())[0]
            first = await comm.receive_json_from(timeout=5)
            assert [g["id"] for g in first["open"]] == [g.pk for g in games[:1:-1]] and first["open_next"] == 2
            await comm.disconnect()

        created = await sync_create(alice, courses)
        pushed = await second.receive_json_from(timeout=5)
        assert pushed["game"]["id"] == created.pk and (pushed["new"], pushed["open_total"]) == (True, 6)
        await sync_join(reader, created.pk)  # a seat taken: not new; one game left the open list
        pushed = await second.receive_json_from(timeout=5)
        assert pushed["game"]["status"] != "lobby" and (pushed["new"], pushed["open_total"]) == (False, 5)
        await sync_cancel(alice, games[0].pk)
        pushed = await second.receive_json_from(timeout=5)
        assert pushed["game"]["id"] == games[0].pk and (pushed["new"], pushed["open_total"]) == (False, 4)
        await second.send_json_to({"type": "sync"})  # a sync reads the same page again
        again = await second.receive_json_from(timeout=5)
        assert [g["id"] for g in again["open"]] == [games[1].pk] and again["open_total"] == 4
        await second.disconnect()

    from channels.db import database_sync_to_async

    sync_create = database_sync_to_async(lambda user, c: lobby.create_game(user=user, course=c["tiny-yard"],
                                                                              max_seats=2))
    sync_join = database_sync_to_async(lambda user, pk: lobby.join_game(user=user, game_id=pk))
    sync_cancel = database_sync_to_async(lambda user, pk: lobby.cancel_game(user=user, game_id=pk))
    async_to_sync(scenario)()


# ---- 4. a signed-out visitor

def test_a_signed_out_visitor_is_asked_to_sign_up_or_log_in_to_create_a_game(courses, make_user):
    html = Client().get("/").content.decode()
    empty = html.split('id="open-games-empty"')[1].split("</p>")[0]
    assert "Create one!" not in empty
    assert re.search(r'No open games\. <a href="/accounts/signup/[^"]*">Sign up</a> or '
                     r'<a href="/accounts/login/[^"]*">log in</a> to create one\.', empty)
    assert re.search(r'<p id="lobby-signup" hidden>', html)  # the same call at the bottom waits for games
    alice = make_user("alice")
    signed_in = logged_in(alice).get("/").content.decode()
    assert "Sign up" not in signed_in.split('id="open-games-empty"')[1].split("</p>")[0]
    lobby.create_game(user=alice, course=courses["tiny-yard"], max_seats=2)
    listed = Client().get("/").content.decode()
    assert re.search(r'<p id="lobby-signup"><a href="/accounts/signup/">Sign up</a>', listed)
    assert re.search(r'id="open-games-empty" hidden>', listed)
