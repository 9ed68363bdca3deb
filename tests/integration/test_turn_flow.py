"""A whole turn through every layer: HTTP API -> service -> Redis broker -> Celery worker (a separate
process) -> engine -> PostgreSQL/SQLite -> channel layer on Redis -> uvicorn -> real WebSocket clients."""

import asyncio
import json

import pytest

import engine
from games.models import Game, Turn
from tests.integration.client import Player, receive_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_two_programs_through_the_api_reach_both_websockets_as_phase_events(live_stack, courses):
    alice = Player(live_stack.base_url, "alice")
    bob = Player(live_stack.base_url, "bob")
    created = alice.post("/api/games/", {"course": "tiny-yard", "max_seats": 2})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert bob.post(f"/api/games/{game_id}/join/").status_code == 200

    snap_a, snap_b = alice.get(f"/api/games/{game_id}/"), bob.get(f"/api/games/{game_id}/")
    assert snap_a["status"] == "programming" and len(snap_a["me"]["hand"]) == 9
    assert snap_b["me"]["seat"] == 2 and "hand" not in json.dumps(snap_b["seats"])
    programs = {"1": snap_a["me"]["hand"][:5], "2": snap_b["me"]["hand"][:5]}
    state_before = Game.objects.get(pk=game_id).state

    async def play():
        ws_a, ws_b = await alice.connect(game_id), await bob.connect(game_id)
        first = [json.loads(await ws.recv()) for ws in (ws_a, ws_b)]
        assert [m["type"] for m in first] == ["snapshot", "snapshot"]
        assert first[1]["game"]["me"]["hand"] == snap_b["me"]["hand"]
        submit_a = await asyncio.to_thread(alice.post, f"/api/games/{game_id}/program/", {"turn": 1, "chips": programs["1"]})
        assert submit_a.status_code == 200, submit_a.text
        submit_b = await asyncio.to_thread(bob.post, f"/api/games/{game_id}/program/", {"turn": 1, "chips": programs["2"]})
        assert submit_b.status_code == 200, submit_b.text
        done = lambda m: m.get("kind") == "turn_dealt"  # noqa: E731
        streams = await asyncio.gather(receive_until(ws_a, done), receive_until(ws_b, done))
        await ws_a.close()
        await ws_b.close()
        return first, streams

    first, streams = asyncio.run(play())
    record = Turn.objects.get(game_id=game_id, number=1)
    course = engine.parse_course(Game.objects.get(pk=game_id).course_data)
    expected_state, expected_events = engine.resolve_turn(
        engine.state_from_dict(state_before, course), programs, record.seed
    )
    for snapshot, stream in zip(first, streams, strict=True):
        versions = [snapshot["version"]] + [m["version"] for m in stream]
        assert versions == list(range(versions[0], versions[0] + len(versions))), "a gap in the event stream"
        kinds = [m["kind"] for m in stream]
        assert kinds == ["seat_ready", "seat_ready", "turn_executing", "turn_resolved", "turn_dealt"]
        resolved = stream[kinds.index("turn_resolved")]["data"]
        assert resolved["events"] == expected_events and resolved["turn"] == 1
        # Both bots start on the course, so phase 1 opens with both chips (a bot destroyed later in
        # the turn plays no further chips, so later phases may have fewer).
        assert [(e["phase"], e["type"]) for e in resolved["events"][:1]] == [(1, "chip")]
        assert {e["bot"] for e in resolved["events"] if e["phase"] == 1 and e["type"] == "chip"} == {"1", "2"}
    game = Game.objects.get(pk=game_id)
    assert game.state == engine.state_to_dict(expected_state)
    assert game.turn == 2 and game.status == "programming"
    after = alice.get(f"/api/games/{game_id}/")
    # Robots shoot now: the new hand is 9 minus the damage the engine says alice's robot took.
    assert after["turn"] == 2 and after["me"]["program"] is None
    assert len(after["me"]["hand"]) == engine.hand_size(expected_state.bot("1"))


# How long the game socket sits idle: longer than redis-py 8's default socket timeout (5 s), which closed every
# idle game page while the channel layer blocked on Redis for 5 s per receive (settings.CHANNEL_LAYERS sets 30 s
# now), and several of the pub/sub layer's one-second idle waits (roboracer/channel_layer.py). The window is
# what the test is about: nothing happens in it, and the socket must still answer after it.
IDLE_SECONDS = 6


def test_an_idle_websocket_stays_open(live_stack, courses):
    """An idle game socket stays open past the timeouts between it and Redis: a client socket timeout at or
    under the channel layer's wait would close every idle game page (redis-py 8 defaults to 5 s)."""
    alice = Player(live_stack.base_url, "alice")
    game_id = alice.post("/api/games/", {"course": "tiny-yard", "max_seats": 2}).json()["id"]

    async def idle_then_sync():
        ws = await alice.connect(game_id)
        first = json.loads(await ws.recv())
        await asyncio.sleep(IDLE_SECONDS)  # the idle window (IDLE_SECONDS)
        await ws.send(json.dumps({"type": "sync"}))
        again = json.loads(await asyncio.wait_for(ws.recv(), 10))
        await ws.close()
        return first, again

    first, again = asyncio.run(idle_then_sync())
    assert first["type"] == again["type"] == "snapshot"
    assert again["version"] == first["version"]
    assert "TimeoutError" not in live_stack.logs["web"].read_text()
