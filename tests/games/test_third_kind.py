"""A made-up third kind, Tally (tests/games/third_kind/), played through the real API, the real game socket
(in process, on the real Redis channel layer), the real services and the real Celery task that resolves a
turn: a new kind is its rules, its adapter and one registration (docs/game-kinds.md "Adding a kind")."""

import json

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from channels.testing import WebsocketCommunicator

from games import kinds
from games.consumers import GameConsumer
from games.models import Game, Turn
from games.tasks import resolve_turn_task
from tests.helpers import client_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tally():
    kinds.register("tally", "tests.games.third_kind.adapter")
    yield kinds.get("tally")
    kinds.unregister("tally")


def socket(game_id, user):
    comm = WebsocketCommunicator(GameConsumer.as_asgi(), f"/ws/games/{game_id}/")
    comm.scope["user"] = user
    comm.scope["url_route"] = {"kwargs": {"game_id": game_id}}
    return comm


async def events_until(comm, kind: str) -> list[dict]:
    """The socket's frames up to and including the first event of `kind` (waited on, never slept on)."""
    frames = []
    while True:
        frame = await comm.receive_json_from(timeout=10)
        frames.append(frame)
        if frame.get("kind") == kind:
            return frames


def _post(user, path, body):
    return client_for(user).post(path, body, format="json")


async def test_a_third_kind_plays_through_the_api_the_socket_and_the_services(tally, make_user):
    alice, bob, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "sam")]
    made = await sync_to_async(_post)(alice, "/api/games/", {"kind": "tally", "max_seats": 2})
    assert made.status_code == 201, made.content
    game_id = made.json()["id"]
    joined = await sync_to_async(_post)(bob, f"/api/games/{game_id}/join/", {})
    assert joined.status_code in (200, 201), joined.content
    game = await sync_to_async(Game.objects.get)(pk=game_id)
    assert (game.kind, game.status, game.turn) == ("tally", Game.Status.PROGRAMMING, 1)

    clients = {name: socket(game_id, user) for name, user in (("alice", alice), ("bob", bob), ("sam", sam))}
    for comm in clients.values():
        assert (await comm.connect())[0]
        assert (await comm.receive_json_from(timeout=10))["type"] == "snapshot"

    # Bad input changes nothing: a pick the rules refuse, a move for another turn.
    for body, status in (({"turn": 1, "pick": 5}, 400), ({"turn": 2, "pick": 1}, 409), ({"pick": 1}, 400)):
        refused = await sync_to_async(_post)(alice, f"/api/games/{game_id}/move/", body)
        assert refused.status_code == status, (body, refused.content)
    assert (await sync_to_async(Game.objects.get)(pk=game_id)).version == game.version

    # Alice's pick is hers until the turn resolves: Bob's snapshot does not hold it.
    answer = await sync_to_async(_post)(alice, f"/api/games/{game_id}/move/", {"turn": 1, "pick": 3})
    assert answer.status_code == 200 and answer.json() == {"turn": 1, "pick": 3}
    ready = await clients["sam"].receive_json_from(timeout=10)
    assert (ready["kind"], ready["data"]["seat"]) == ("seat_ready", 1)
    bobs = (await sync_to_async(client_for(bob).get)(f"/api/games/{game_id}/")).json()
    alices = (await sync_to_async(client_for(alice).get)(f"/api/games/{game_id}/")).json()
    assert alices["me"]["tally"] == {"pick": 3} and bobs["me"]["tally"] == {"pick": None}
    assert '"pick": 3' not in json.dumps(bobs)

    # Every turn: both picks in, the real task resolves it once, the sockets see it resolved and the next dealt.
    picks = {1: (3, 1), 2: (3, 1), 3: (3, 2)}  # alice reaches 9 on turn 3 (bob 4): she wins
    for turn, (mine, his) in picks.items():
        if turn > 1:
            assert (await sync_to_async(_post)(alice, f"/api/games/{game_id}/move/", {"turn": turn, "pick": mine})
                    ).status_code == 200
        assert (await sync_to_async(_post)(bob, f"/api/games/{game_id}/move/", {"turn": turn, "pick": his})
                ).status_code == 200
        await events_until(clients["sam"], "turn_executing")
        assert await sync_to_async(resolve_turn_task)(game_id, turn) is True
        assert await sync_to_async(resolve_turn_task)(game_id, turn) is False  # a redelivered task: done once
        frames = await events_until(clients["sam"], "game_finished" if turn == 3 else "turn_dealt")
        resolved = next(f for f in frames if f.get("kind") == "turn_resolved")
        assert resolved["data"]["turn"] == turn and resolved["data"]["programs"] == {"1": mine, "2": his}

    game = await sync_to_async(Game.objects.select_related("winner").get)(pk=game_id)
    assert game.status == Game.Status.FINISHED and game.winner.number == 1
    assert game.state["players"][0]["total"] == 9 and game.state["players"][1]["total"] == 4
    assert await sync_to_async(Turn.objects.filter(game_id=game_id).count)() == 3
    finished = frames[-1]
    assert finished["data"] == {"winner_seat": 1, "places": {"1": 1, "2": 2}}
    for comm in clients.values():
        await comm.disconnect()


def test_the_third_kind_resigns_and_plays_again_through_the_shared_services(tally, make_user):
    from games.services import lobby, rematch

    alice, bob, cat = make_user("alice"), make_user("bob"), make_user("cat")
    game = lobby.create_game(user=alice, kind="tally", max_seats=3)
    lobby.join_game(user=bob, game_id=game.pk)
    lobby.join_game(user=cat, game_id=game.pk)
    lobby.leave_game(user=bob, game_id=game.pk)  # resigns: out, the game goes on
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING and game.state["players"][1]["out"] is True
    lobby.leave_game(user=cat, game_id=game.pk)  # the last one in wins by forfeit
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user == alice
    assert game.chat.filter(system=True, text__contains="everyone else is out").exists()
    again, made = rematch.play_again(user=bob, game_id=game.pk)
    assert made and again.kind == "tally" and again.max_seats == 3 and again.status == Game.Status.LOBBY
