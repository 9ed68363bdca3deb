"""Fuzzing the game socket: arbitrary frames (JSON-ish text, unicode, deep nesting, binary) through the site's
ASGI application. Every frame gets exactly one reply, an error frame or, for a well-formed sync, a snapshot;
the socket stays open; the game does not change and the other player's hand never shows."""

import json
import logging

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.consumers import MAX_FRAME_CHARS
from games.models import Game, Program
from tests.games.factories import hand_of, started_game
from tests.games.wsclient import send_raw, site_socket
from tests.profiles import examples

pytestmark = pytest.mark.django_db(transaction=True)

CODES = {"bad_frame", "too_large", "unknown_type", "rate_limited"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
types = st.sampled_from(["sync", "SYNC", "sync ", "program", "snapshot", "error", "event", ""]) | json_values
objects = st.builds(lambda extra, type_: json.dumps({**extra, "type": type_}),
                    st.dictionaries(st.text(max_size=8), json_values, max_size=3), types)
frames = st.one_of(
    st.tuples(st.just("text"), objects),
    st.tuples(st.just("text"), json_values.map(json.dumps)),
    st.tuples(st.just("text"), st.text(max_size=200)),  # mostly not JSON; any unicode, surrogates excluded
    st.tuples(st.just("text"), st.integers(1, 3 * MAX_FRAME_CHARS).map(lambda n: "[" * n)),
    st.tuples(st.just("text"), st.integers(MAX_FRAME_CHARS - 20, MAX_FRAME_CHARS + 20).map(
        lambda n: json.dumps({"type": "sync", "pad": "x" * n}))),
    st.tuples(st.just("bytes"), st.binary(max_size=200)),
    st.tuples(st.just("bytes"), objects.map(str.encode)),  # a good frame, but binary
)


def is_sync(kind: str, data, type_: str = "sync") -> bool:
    """The oracle: a text frame of at most MAX_FRAME_CHARS that is a JSON object whose type is "sync" (or
    `type_`)."""
    if kind != "text" or len(data) > MAX_FRAME_CHARS:
        return False
    try:
        content = json.loads(data)
    except (ValueError, RecursionError):
        return False
    return isinstance(content, dict) and content.get("type") == type_


# A "program" frame is read as a program (docs/api.md "Programs over the socket"): a fuzzed one is refused like
# a POST of its fields would be (its chips are never five chips of the hand), or over the socket's limit.
PROGRAM_CODES = {"invalid", "conflict", "not_allowed", "not_found", "rate_limited"}


@pytest.fixture
def fuzzed_game(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    client = Client()
    client.force_login(bob)
    return {"game": game, "cookie": client.cookies["sessionid"].value, "alice_hand": hand_of(game, alice)}


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sent=st.lists(frames, min_size=1, max_size=12))
def test_any_frame_gets_one_error_or_snapshot_and_changes_nothing(fuzzed_game, caplog, sent):
    caplog.set_level(logging.INFO)
    game = fuzzed_game["game"]

    async def play() -> list[dict]:
        comm = site_socket(f"/ws/games/{game.pk}/", cookie=fuzzed_game["cookie"])
        connected, code = await comm.connect()
        assert connected, code
        assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
        replies = []
        for kind, data in sent:
            await send_raw(comm, **({"text": data} if kind == "text" else {"binary": data}))
            replies.append(await comm.receive_json_from(timeout=5))  # fails if the socket was closed instead
        assert await comm.receive_nothing(timeout=0.05)  # one reply per frame, no more
        assert not comm.future.done()  # the consumer is still running: nothing raised
        await comm.disconnect()
        return replies

    replies = async_to_sync(play)()
    for (kind, data), reply in zip(sent, replies, strict=True):
        if is_sync(kind, data):
            assert reply["type"] == "snapshot" or reply.get("code") == "rate_limited", reply
        elif is_sync(kind, data, "program"):
            assert reply["type"] == "error" and reply["code"] in PROGRAM_CODES, reply
        else:
            assert reply["type"] == "error" and reply["code"] in CODES - {"rate_limited"}, reply
        if reply["type"] == "error":
            assert set(reply) <= {"type", "code", "detail", "retry_after", "status", "id"}, reply
            assert isinstance(reply["detail"], str)
        else:
            assert reply["version"] == game.version and reply["game"]["me"]["seat"] == 2
            assert json.dumps(fuzzed_game["alice_hand"]) not in json.dumps(reply)
    fresh = Game.objects.get(pk=game.pk)
    assert (fresh.version, fresh.turn, fresh.status, fresh.state) == (game.version, game.turn, game.status, game.state)
    assert not Program.objects.exists()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
