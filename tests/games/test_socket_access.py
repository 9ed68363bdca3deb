"""Issue 33 security item 3: a game socket checks access again. A player who leaves a private game before it
starts gets no further frames of it on the sockets they had open, and their `sync` is refused as for a missing
game; logging out closes every socket opened with that log-in (and a sync finds a log-in that is gone).
Through the site's whole ASGI application (origin check, session auth, routing) on the real channel layer."""

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.sessions.models import Session
from django.test import Client

from games.models import Game
from games.services import chat
from games.services import lobby as lobby_services
from tests.games.wsclient import session_cookie, site_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def open_game_socket(game_id: int, cookie: str):
    comm = site_socket(f"/ws/games/{game_id}/", cookie=cookie)
    connected, code = await comm.connect()
    assert connected, code
    first = await comm.receive_json_from(timeout=5)
    assert first["type"] == "snapshot"
    return comm


async def next_event(comm, kind: str) -> dict:
    """The next frame of this kind (snapshots pushed on the way are skipped)."""
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame.get("kind") == kind:
            return frame


async def test_a_player_who_leaves_a_private_lobby_gets_no_more_frames_and_sync_is_refused(courses, make_user):
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    game = await sync_to_async(lobby_services.create_game)(user=alice, course=courses["tiny-yard"], max_seats=3,
                                                     visibility=Game.Visibility.PRIVATE)
    await sync_to_async(lobby_services.join_game)(user=bob, game_id=game.pk, invite=game.invite_code)
    bob_cookie = await session_cookie(bob)
    bobs = [await open_game_socket(game.pk, bob_cookie) for _ in range(2)]  # two tabs of one log-in
    watcher = await open_game_socket(game.pk, await session_cookie(alice))

    await sync_to_async(lobby_services.leave_game)(user=bob, game_id=game.pk)
    assert (await next_event(watcher, "seat_left"))["data"] == {"seat": 2}
    await sync_to_async(chat.post_chat)(user=alice, game_id=game.pk, text="bob has gone")
    assert (await next_event(watcher, "chat"))["data"]["text"] == "bob has gone"
    for comm in bobs:
        # Nothing of the game after the leave: not the seat_left, not the chat line.
        assert await comm.receive_nothing(timeout=0.5)
        await comm.send_json_to({"type": "sync"})
        refused = await comm.receive_json_from(timeout=5)
        assert refused == {"type": "error", "code": "not_found", "detail": f"game {game.pk} does not exist"}
    # A new socket is refused as for a game that does not exist.
    stranger = site_socket(f"/ws/games/{game.pk}/", cookie=bob_cookie)
    assert await stranger.connect() == (False, 4403)
    # alice's own socket goes on as before.
    await watcher.send_json_to({"type": "sync"})
    assert (await watcher.receive_json_from(timeout=5))["type"] == "snapshot"
    for comm in (*bobs, watcher):
        await comm.disconnect()


async def test_a_player_who_leaves_a_running_private_game_may_still_watch_it(courses, make_user):
    """docs/site.md: the players of a private game, ejected ones included, may still watch it."""
    alice, bob, carol = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "carol")]
    game = await sync_to_async(lobby_services.create_game)(user=alice, course=courses["tiny-yard"], max_seats=3,
                                                     visibility=Game.Visibility.PRIVATE)
    for user in (bob, carol):
        await sync_to_async(lobby_services.join_game)(user=user, game_id=game.pk, invite=game.invite_code)
    game = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert game.status == Game.Status.PROGRAMMING
    bob_socket = await open_game_socket(game.pk, await session_cookie(bob))
    await sync_to_async(lobby_services.leave_game)(user=bob, game_id=game.pk)  # resigns: ejected
    await next_event(bob_socket, "seats_ejected")
    await bob_socket.send_json_to({"type": "sync"})
    while (frame := await bob_socket.receive_json_from(timeout=5))["type"] != "snapshot":
        assert frame["type"] == "event"
    await bob_socket.disconnect()


def log_out(cookie: str) -> None:
    client = Client()
    client.cookies["sessionid"] = cookie
    assert client.post("/accounts/logout/").status_code == 302
    assert not Session.objects.filter(session_key=cookie).exists()


async def test_logging_out_closes_every_socket_opened_with_that_log_in(courses, make_user):
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    game = await sync_to_async(lobby_services.create_game)(user=alice, course=courses["tiny-yard"], max_seats=3)
    await sync_to_async(lobby_services.join_game)(user=bob, game_id=game.pk)
    cookie, other_cookie = await session_cookie(bob), await session_cookie(bob)  # two log-ins of bob's
    sockets = [await open_game_socket(game.pk, cookie) for _ in range(2)]
    lobby = site_socket("/ws/lobby/", cookie=cookie)
    assert (await lobby.connect())[0]
    assert (await lobby.receive_json_from(timeout=5))["type"] == "lobby"
    notices = site_socket("/ws/notifications/", cookie=cookie)
    assert (await notices.connect())[0]
    elsewhere = await open_game_socket(game.pk, other_cookie)

    await sync_to_async(log_out)(cookie)
    for comm in (*sockets, lobby, notices):
        while (output := await comm.receive_output(timeout=5))["type"] != "websocket.close":
            assert output["type"] == "websocket.send"  # a frame sent before the log-out, if any
        assert output["code"] == 4401
    # bob's other log-in keeps its socket.
    await elsewhere.send_json_to({"type": "sync"})
    assert (await elsewhere.receive_json_from(timeout=5))["type"] == "snapshot"

    # A log-out whose closing message never arrived (here: the session deleted by hand) is found by the sync.
    await sync_to_async(Session.objects.filter(session_key=other_cookie).delete)()
    await elsewhere.send_json_to({"type": "sync"})
    assert (await elsewhere.receive_json_from(timeout=5)) == {
        "type": "error", "code": "not_found", "detail": f"game {game.pk} does not exist"}
    await sync_to_async(chat.post_chat)(user=alice, game_id=game.pk, text="still there?")
    assert await elsewhere.receive_nothing(timeout=0.5)
    await elsewhere.disconnect()
