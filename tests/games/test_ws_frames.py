"""Frames a client should not send, on both sockets: each gets an error frame, the socket stays open, nothing
changes and nothing is logged as an error. And the sync rate limit."""

import asyncio
import json
import logging
import time

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.consumers import MAX_FRAME_CHARS, GameConsumer
from games.models import Game, Program
from tests.games.factories import started_game
from tests.games.wsclient import send_raw, session_cookie, site_socket

pytestmark = pytest.mark.django_db(transaction=True)

# (frame, error code): one of each kind of frame the server does not understand.
BAD_FRAMES = [
    ({"text": "not json"}, "bad_frame"),
    ({"text": "[1, 2"}, "bad_frame"),
    ({"text": ""}, "bad_frame"),  # the stock consumer raised on an empty text frame
    ({"text": "[" * 100_000}, "too_large"),
    ({"text": "[" * (MAX_FRAME_CHARS - 1)}, "bad_frame"),  # small enough to parse, too deep for json.loads
    ({"text": '{"type": "sync", "x": ' + "[" * 2000 + "]" * 2000 + "}"}, "bad_frame"),
    ({"text": json.dumps({"type": "sync", "pad": "x" * 1_000_000})}, "too_large"),
    ({"text": "1" * 4001}, "bad_frame"),  # a number, not an object
    ({"text": '"sync"'}, "bad_frame"),
    ({"text": "[]"}, "bad_frame"),
    ({"text": "null"}, "bad_frame"),
    ({"text": "{}"}, "bad_frame"),
    ({"text": '{"type": 1}'}, "bad_frame"),
    ({"text": '{"type": ["sync"]}'}, "bad_frame"),
    ({"text": '{"type": {"sync": true}}'}, "bad_frame"),
    ({"text": '{"type": null}'}, "bad_frame"),
    ({"text": '{"type": "SYNC"}'}, "unknown_type"),
    # The game socket takes programs (docs/api.md "Programs over the socket"); this one is refused, and the
    # notification socket takes no program at all.
    ({"text": '{"type": "program", "turn": "\u00b2", "chips": ["\u0661"]}'}, "invalid"),
    ({"text": '{"type": "\\ud800"}'}, "unknown_type"),  # a lone surrogate
    ({"text": '{"type": "s\u00fdnc \U0001f916"}'}, "unknown_type"),
    ({"binary": b"\x00\xff{\"type\": \"sync\"}"}, "bad_frame"),
    ({"binary": b'{"type": "sync"}'}, "bad_frame"),
    ({"binary": b""}, "bad_frame"),
]


def error_records(caplog) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]


async def open_socket(path, user):
    comm = site_socket(path, cookie=await session_cookie(user))
    connected, code = await comm.connect()
    assert connected, code
    return comm


async def test_bad_frames_on_the_game_socket_get_errors_and_change_nothing(courses, make_user, caplog):
    caplog.set_level(logging.INFO)
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    # Two players' sockets and a second one of alice's: a bad frame on one disturbs none of the others.
    sockets = [await open_socket(f"/ws/games/{game.pk}/", user) for user in (alice, bob, alice)]
    for comm in sockets:
        assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    for frame, code in BAD_FRAMES:
        await send_raw(sockets[0], **frame)
        reply = await sockets[0].receive_json_from(timeout=5)
        assert (reply["type"], reply["code"]) == ("error", code), (frame if len(str(frame)) < 200 else code, reply)
        assert reply["detail"] and len(reply["detail"]) < 200
    for comm in sockets[1:]:
        assert await comm.receive_nothing(timeout=0.2)
    # Every socket is still open and answers.
    for comm in sockets:
        assert not comm.future.done()
        await comm.send_json_to({"type": "sync"})
        assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert (fresh.version, fresh.turn, fresh.status) == (game.version, game.turn, game.status)
    assert await sync_to_async(Program.objects.count)() == 0
    for comm in sockets:
        await comm.disconnect()
    assert error_records(caplog) == []


async def test_bad_frames_on_the_notification_socket_get_errors(make_user, caplog):
    caplog.set_level(logging.INFO)
    alice = await sync_to_async(make_user)("alice")
    first, second = [await open_socket("/ws/notifications/", alice) for _ in range(2)]
    for frame, code in [*BAD_FRAMES, ({"text": '{"type": "sync"}'}, "unknown_type")]:
        await send_raw(first, **frame)
        reply = await first.receive_json_from(timeout=5)
        assert reply["type"] == "error" and reply["code"] in (code, "unknown_type") and reply["detail"]
        if code not in ("unknown_type", "invalid"):  # "invalid": a program, which only the game socket reads
            assert reply["code"] == code
    assert await second.receive_nothing(timeout=0.2)
    assert not first.future.done() and not second.future.done()
    for comm in (first, second):
        await comm.disconnect()
    assert error_records(caplog) == []


@pytest.mark.parametrize("path", [
    "/ws/games/\u00b2/",  # str.isdigit() says yes, int() and the route say no
    "/ws/games/\u0661\u0662/",  # Arabic-Indic digits
    "/ws/games/99999999999999999999999999/",  # more than a 64-bit key
    "/ws/games/-1/",
    "/ws/games/1/extra/",
    "/ws/nowhere/",
    "/",
])
async def test_a_path_no_socket_lives_at_is_refused_without_a_traceback(path, make_user, caplog):
    caplog.set_level(logging.INFO)
    alice = await sync_to_async(make_user)("alice")
    comm = site_socket(path, cookie=await session_cookie(alice))
    connected, _ = await comm.connect()
    assert not connected
    assert error_records(caplog) == []


async def test_a_flood_of_syncs_is_rate_limited_and_another_player_is_still_answered(courses, make_user):
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    flooder, other = [await open_socket(f"/ws/games/{game.pk}/", user) for user in (bob, alice)]
    for comm in (flooder, other):
        assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    started = time.monotonic()
    for _ in range(25):
        await flooder.send_json_to({"type": "sync"})
    # Another player asks in the middle of the flood, on a socket with a bucket of its own: answered.
    await other.send_json_to({"type": "sync"})
    for _ in range(25):
        await flooder.send_json_to({"type": "sync"})
    assert (await other.receive_json_from(timeout=5))["type"] == "snapshot"
    replies = [await flooder.receive_json_from(timeout=5) for _ in range(50)]
    elapsed = time.monotonic() - started
    snapshots = [r for r in replies if r["type"] == "snapshot"]
    limited = [r for r in replies if r.get("code") == "rate_limited"]
    assert len(snapshots) + len(limited) == 50
    # The burst, plus what the bucket refilled while the test ran (the replies come in order).
    assert GameConsumer.SYNC_BURST <= len(snapshots) <= GameConsumer.SYNC_BURST + GameConsumer.SYNC_RATE * elapsed + 1
    assert all(r["type"] == "error" and 0 < r["retry_after"] <= 1 / GameConsumer.SYNC_RATE + 0.01 for r in limited)
    assert "sync" in limited[0]["detail"]
    # After retry_after, the flooder is answered again.
    await flooder.send_json_to({"type": "sync"})
    reply = await flooder.receive_json_from(timeout=5)
    if reply["type"] == "error":
        await asyncio.sleep(reply["retry_after"])  # what the server asks a client to wait: the property tested
        await flooder.send_json_to({"type": "sync"})
        reply = await flooder.receive_json_from(timeout=5)
    assert reply["type"] == "snapshot"
    for comm in (flooder, other):
        await comm.disconnect()


async def test_frames_over_the_limit_cost_no_trip_to_the_database_thread(courses, make_user, monkeypatch):
    """Channels closes old database connections in the process's one sync thread before every message it
    dispatches; the thread where every socket's snapshots are built. Client frames skip that hop, so a flood
    of rate-limited syncs or bad frames does not queue in front of other players' snapshots."""
    import channels.consumer

    hops = []
    original = channels.consumer.aclose_old_connections

    async def counted():
        hops.append(1)
        await original()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    alice = await sync_to_async(make_user)("alice")
    game = await sync_to_async(started_game)(users=[alice], course=courses["tiny-yard"])
    comm = await open_socket(f"/ws/games/{game.pk}/", alice)
    assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    before = len(hops)
    for _ in range(GameConsumer.SYNC_BURST + 40):
        await comm.send_json_to({"type": "sync"})
        await send_raw(comm, text="not json")
    replies = [await comm.receive_json_from(timeout=5) for _ in range(2 * (GameConsumer.SYNC_BURST + 40))]
    assert sum(r.get("code") == "rate_limited" for r in replies) >= 30
    assert len(hops) - before == 0
    await comm.disconnect()


async def test_the_lobby_socket_answers_bad_frames_and_limits_syncs_like_the_game_socket(make_user, caplog):
    """The lobby socket (open to everyone) parses frames the same way and rate-limits its syncs, each of which
    reads the whole lobby."""
    caplog.set_level(logging.INFO)
    alice = await sync_to_async(make_user)("alice")
    flooder, other = [await open_socket("/ws/lobby/", alice) for _ in range(2)]
    for comm in (flooder, other):
        assert (await comm.receive_json_from(timeout=5))["type"] == "lobby"
    for frame, code in BAD_FRAMES:
        await send_raw(flooder, **frame)
        reply = await flooder.receive_json_from(timeout=5)
        code = "unknown_type" if code == "invalid" else code  # only the game socket reads programs
        assert (reply["type"], reply["code"]) == ("error", code), (frame if len(str(frame)) < 200 else code, reply)
    started = time.monotonic()
    for _ in range(30):
        await flooder.send_json_to({"type": "sync"})
    await other.send_json_to({"type": "sync"})
    assert (await other.receive_json_from(timeout=5))["type"] == "lobby"
    replies = [await flooder.receive_json_from(timeout=5) for _ in range(30)]
    elapsed = time.monotonic() - started
    answered = [r for r in replies if r["type"] == "lobby"]
    limited = [r for r in replies if r.get("code") == "rate_limited"]
    assert len(answered) + len(limited) == 30 and limited
    assert len(answered) <= GameConsumer.SYNC_BURST + GameConsumer.SYNC_RATE * elapsed + 1
    assert not flooder.future.done()
    for comm in (flooder, other):
        await comm.disconnect()
    assert error_records(caplog) == []
