"""The game WebSocket consumer, in process, on the real Redis channel layer, with several clients."""

import json
from datetime import datetime

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.consumers import GameConsumer
from games.services import moves, turns
from tests.games.factories import hand_of, legal_program, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def communicator(game_id, user):
    app = GameConsumer.as_asgi()
    comm = WebsocketCommunicator(app, f"/ws/games/{game_id}/")
    comm.scope["user"] = user
    comm.scope["url_route"] = {"kwargs": {"game_id": game_id}}
    return comm


async def test_snapshot_then_public_events_for_players_and_spectators(courses, make_user):
    alice, bob, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "sam")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    alice_hand = await sync_to_async(hand_of)(game, alice)
    clients = {name: communicator(game.pk, user) for name, user in (("alice", alice), ("bob", bob), ("sam", sam))}
    snapshots = {}
    for name, comm in clients.items():
        connected, _ = await comm.connect()
        assert connected
        message = await comm.receive_json_from(timeout=5)
        assert message["type"] == "snapshot" and message["version"] == game.version
        snapshots[name] = message["game"]
    assert snapshots["alice"]["me"]["hand"] == alice_hand
    assert snapshots["bob"]["me"]["seat"] == 2 and snapshots["sam"]["me"] is None
    assert json.dumps(alice_hand) not in json.dumps(snapshots["bob"]) + json.dumps(snapshots["sam"])

    await sync_to_async(moves.submit_program)(user=alice, game_id=game.pk, turn=1, chips=alice_hand[:5])
    pushed = {}
    for name, comm in clients.items():
        ready = await comm.receive_json_from(timeout=5)
        assert (ready["version"], ready["kind"], ready["data"]["seat"]) == (game.version + 1, "seat_ready", 1)
        pushed[name] = [ready]
    # Alice's clock stopped with her program; the reading rides on the event.
    assert [(s["number"], s["clock_running"]) for s in pushed["sam"][0]["data"]["clocks"]["seats"]] == [(1, False)]

    # A client that asks is resynced from the database: the snapshot equals the old one plus the events.
    await clients["bob"].send_json_to({"type": "sync"})
    fresh = await clients["bob"].receive_json_from(timeout=5)
    assert fresh["version"] == game.version + 1 and fresh["game"]["seats"][0]["ready"] is True
    expected = apply_events(snapshots["bob"], pushed["bob"])
    assert without_clock_readings(fresh["game"]) == without_clock_readings(expected)
    # Clock readings are taken at different moments; the moments they run out at agree.
    for seat, old in zip(fresh["game"]["seats"], expected["seats"], strict=True):
        if seat["clock_running"]:
            assert abs(runs_out(fresh["game"], seat) - runs_out(expected, old)) < 1.0
    for comm in clients.values():
        await comm.disconnect()


def apply_events(snapshot: dict, messages: list[dict]) -> dict:
    """What a browser does with pushed events (the ones this test sees) to keep its snapshot current."""
    game = json.loads(json.dumps(snapshot))
    for message in messages:
        game["version"] = message["version"]
        data = message["data"]
        if message["kind"] == "seat_ready":
            next(s for s in game["seats"] if s["number"] == data["seat"])["ready"] = True
            data = data.get("clocks") or {}
        if message["kind"] in ("clocks", "seat_ready") and data:
            game["server_time"] = data["server_time"]
            for reading in data["seats"]:
                next(s for s in game["seats"] if s["number"] == reading["number"]).update(reading)
    return game


def without_clock_readings(game: dict) -> dict:
    game = json.loads(json.dumps(game))
    game.pop("server_time")
    for seat in game["seats"]:
        del seat["move_left"], seat["game_left"]
        seat.pop("starts_in", None)  # as of server_time too: when the clock starts is compared by runs_out
    return game


def runs_out(game: dict, seat: dict) -> float:
    return (datetime.fromisoformat(game["server_time"]).timestamp() + seat.get("starts_in", 0) + seat["move_left"]
            + seat["game_left"])


async def test_anonymous_and_unknown_games_are_refused(courses, make_user):
    alice = await sync_to_async(make_user)("alice")
    game = await sync_to_async(started_game)(users=[alice], course=courses["tiny-yard"])
    comm = communicator(game.pk, AnonymousUser())
    connected, code = await comm.connect()
    assert not connected and code == 4403
    comm = communicator(game.pk + 1000, alice)
    connected, code = await comm.connect()
    assert not connected and code == 4403


async def test_a_malformed_frame_gets_an_error_and_the_socket_stays_open(courses, make_user):
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    comm = communicator(game.pk, alice)
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    for frame in ("not json", "[1, 2", '"sync"'):
        await comm.send_to(text_data=frame)
        reply = await comm.receive_json_from(timeout=5)
        assert (reply["type"], reply["code"]) == ("error", "bad_frame") and reply["detail"]
    await comm.send_json_to({"type": "sync"})
    assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    await comm.disconnect()


async def test_a_deal_pushes_each_player_their_own_snapshot_and_nothing_to_spectators(courses, make_user):
    alice, bob, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "sam")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    clients = {name: communicator(game.pk, user) for name, user in (("alice", alice), ("bob", bob), ("sam", sam))}
    for comm in clients.values():
        assert (await comm.connect())[0]
        assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    for user in (alice, bob):
        program = await sync_to_async(legal_program)(game, user)
        await sync_to_async(moves.submit_program)(user=user, game_id=game.pk, turn=1, chips=program)
    # The worker's part, run here: resolve turn 1 and deal turn 2.
    await sync_to_async(turns.resolve_turn)(game_id=game.pk, turn=1)
    await sync_to_async(game.refresh_from_db)()
    assert game.turn == 2

    received = {name: [] for name in clients}
    for name, comm in clients.items():
        while True:
            message = await comm.receive_json_from(timeout=5)
            received[name].append(message)
            if message["type"] == "snapshot" or (name == "sam" and message.get("kind") == "clocks"):
                break
        if name == "sam":
            assert await comm.receive_nothing(timeout=0.5)  # a spectator gets no pushed snapshot
    for name, user in (("alice", alice), ("bob", bob)):
        pushed = received[name][-1]
        hand = await sync_to_async(hand_of)(game, user)
        assert pushed["pushed"] is True and pushed["version"] == game.version
        assert pushed["game"]["turn"] == 2 and pushed["game"]["me"]["hand"] == hand
        # It comes after the turn's events, so the client shows the turn before it replaces its state.
        assert [m.get("kind") for m in received[name][:-1]][-3:] == ["turn_resolved", "turn_dealt", "clocks"]
        other = bob if user == alice else alice
        other_hand = await sync_to_async(hand_of)(game, other)
        assert json.dumps(other_hand) not in json.dumps(received[name])
        # The push equals what the client would get by asking.
        await clients[name].send_json_to({"type": "sync"})
        fresh = await clients[name].receive_json_from(timeout=5)
        assert without_clock_readings(fresh["game"]) == without_clock_readings(pushed["game"])
    assert not any(m["type"] == "snapshot" for m in received["sam"][1:])
    for comm in clients.values():
        await comm.disconnect()
