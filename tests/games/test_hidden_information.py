"""Hidden information, walked through every WebSocket message type and API answer of a game: neither the
other players nor a spectator ever receive a hand, or a program before its turn has been played."""

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from rest_framework.test import APIClient

from games.consumers import GameConsumer, NotificationConsumer
from games.models import GameEvent, Seat
from games.services import chat, lobby, moves, timeouts, turns
from tests.games.factories import hand_of, legal_program, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def game_socket(game_id, user):
    comm = WebsocketCommunicator(GameConsumer.as_asgi(), f"/ws/games/{game_id}/")
    comm.scope["user"] = user
    comm.scope["url_route"] = {"kwargs": {"game_id": game_id}}
    return comm


def notice_socket(user):
    comm = WebsocketCommunicator(NotificationConsumer.as_asgi(), "/ws/notifications/")
    comm.scope["user"] = user
    return comm


async def drain(comm) -> list[dict]:
    """Everything the socket has sent so far (receive_nothing waits without cancelling the consumer)."""
    messages = []
    while not await comm.receive_nothing(timeout=0.5):
        messages.append(await comm.receive_json_from(timeout=5))
    return messages


def api_answers(user, game) -> list[dict]:
    client = APIClient()
    client.force_authenticate(user)
    answers = [client.get(url).json() for url in
               ("/api/games/", f"/api/games/{game.pk}/", f"/api/games/{game.pk}/chat/", "/api/profile/")]
    answers.append(client.get(f"/api/games/{game.pk}/turns/{game.turn}/").json())  # not played yet: a 404 body
    return answers


def without_own(messages: list[dict], seat: int | None) -> list[dict]:
    """The messages minus the viewer's own `me` (their own hand and program are theirs to see), after
    checking that `me` is indeed the viewer's."""
    kept = []
    for message in messages:
        message = json.loads(json.dumps(message))
        for holder in (message, message.get("game")):
            if isinstance(holder, dict) and "me" in holder:
                me = holder.pop("me")
                assert me is None or me["seat"] == seat
        kept.append(message)
    return kept


def secrets_in(messages: list[dict], secrets: dict[str, list], seat: int | None) -> list[str]:
    text = json.dumps(without_own(messages, seat))
    return [name for name, value in secrets.items() if json.dumps(value) in text]


async def walk_turn_one(game, alice, bob, carol) -> dict[str, list]:
    """Turn 1 of a three-player game through every kind of event a turn may send before it is played: alice
    programs and chats, carol's time runs out and bob ejects her, so everyone resubmits (alice with a new
    program) and the turn executes. Returns what must stay alice's: her hand and both her programs."""
    secrets = {"alice's hand": await sync_to_async(hand_of)(game, alice)}
    program = await sync_to_async(legal_program)(game, alice)
    secrets["alice's program"] = program
    await sync_to_async(moves.submit_program)(user=alice, game_id=game.pk, turn=1, chips=program)
    await sync_to_async(chat.post_chat)(user=alice, game_id=game.pk, text="ready when you are")
    await sync_to_async(Seat.objects.filter(game=game, user=carol).update)(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    await sync_to_async(timeouts.enforce_deadline)(game_id=game.pk)
    await sync_to_async(chat.post_chat)(user=bob, game_id=game.pk, text="!eject")
    program = await sync_to_async(legal_program)(game, alice, 7)
    secrets["alice's second program"] = program
    await sync_to_async(moves.submit_program)(user=alice, game_id=game.pk, turn=1, chips=program)
    await sync_to_async(moves.submit_program)(
        user=bob, game_id=game.pk, turn=1, chips=await sync_to_async(legal_program)(game, bob)
    )
    return secrets


async def test_no_hand_or_unplayed_program_reaches_anyone_else(courses, make_user):
    alice, bob, carol, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "carol", "sam")]
    game = await sync_to_async(started_game)(users=[alice, bob, carol], course=courses["bolt-bay"])
    watchers = {"bob": (bob, game_socket(game.pk, bob)), "sam": (sam, game_socket(game.pk, sam))}
    notices = {"bob": notice_socket(bob), "sam": notice_socket(sam)}
    for _, comm in watchers.values():
        assert (await comm.connect())[0]
    for comm in notices.values():
        assert (await comm.connect())[0]

    secrets = await walk_turn_one(game, alice, bob, carol)

    received = {name: await drain(comm) for name, (_, comm) in watchers.items()}
    kinds = {m["kind"] for m in received["sam"] if m["type"] == "event"}
    assert [m["type"] for m in received["sam"]][0] == "snapshot"
    for name, (user, _) in watchers.items():
        received[name] += await sync_to_async(api_answers)(user, game)
    stored = set(await sync_to_async(lambda: set(GameEvent.objects.filter(game=game).values_list("kind", flat=True)))())
    # Every kind of event this game stored since the sockets connected reached the spectator: the walk is complete.
    assert {"seat_ready", "clocks", "chat", "timer_expired", "seats_ejected", "turn_executing"} <= kinds <= stored
    seats = {"bob": 2, "sam": None}
    for name, messages in received.items():
        leaked = secrets_in(messages, secrets, seats[name])
        assert not leaked, f"{name} received {leaked}"

    # Played: the programs are public now. Turn 2's hands are the new secrets, and "your turn" notices are personal.
    await sync_to_async(turns.resolve_turn)(game_id=game.pk, turn=1)
    await sync_to_async(game.refresh_from_db)()
    secrets = {"alice's new hand": await sync_to_async(hand_of)(game, alice),
               "bob's new hand": await sync_to_async(hand_of)(game, bob)}
    after = {name: await drain(comm) for name, (_, comm) in watchers.items()}
    assert {"turn_resolved", "turn_dealt", "clocks"} <= {m.get("kind") for m in after["sam"]}
    assert not secrets_in(after["sam"], secrets, None)
    assert not secrets_in(after["bob"], {"alice's new hand": secrets["alice's new hand"]}, 2)
    bob_notices = await drain(notices["bob"])
    assert [(n["type"], n["game"], n["turn"]) for n in bob_notices] == [("your_turn", game.pk, 2)]
    assert await drain(notices["sam"]) == []
    for _, comm in watchers.values():
        await comm.disconnect()
    for comm in notices.values():
        await comm.disconnect()


async def test_private_game_socket_refuses_strangers_and_notices_need_a_user(courses, make_user):
    from django.contrib.auth.models import AnonymousUser

    alice, eve = [await sync_to_async(make_user)(name) for name in ("alice", "eve")]
    game = await sync_to_async(lobby.create_game)(user=alice, course=courses["bolt-bay"], visibility="private")
    connected, code = await game_socket(game.pk, eve).connect()
    assert not connected and code == 4403
    mine = game_socket(game.pk, alice)
    assert (await mine.connect())[0]
    await mine.disconnect()
    connected, code = await notice_socket(AnonymousUser()).connect()
    assert not connected and code == 4401


async def drain_stream(stream) -> list[dict]:
    """A Bot API stream's lines up to its next keep-alive blank line (everything stored so far has been read)."""
    lines = []
    while (line := await stream.next()) != "":
        assert line is not None, "the stream ended"
        lines.append(line)
    return lines


async def test_the_bot_streams_carry_no_hand_or_unplayed_program_of_another_seat(courses, make_user, settings):
    """The same walk through a turn as above, read on the Bot API's streams (docs/bot-api.md): bob's game stream
    (a player's), sam's (a spectator's) and bob's event stream never carry alice's hand or unplayed program."""
    from tests.bots.helpers import open_stream, token_for

    settings.BOT_STREAM_KEEPALIVE = 0.3
    alice, bob, carol, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "carol", "sam")]
    game = await sync_to_async(started_game)(users=[alice, bob, carol], course=courses["bolt-bay"])
    streams = {name: await open_stream(path, await sync_to_async(token_for)(user, ["read"])) for name, user, path in (
        ("bob", bob, f"/api/bot/games/{game.pk}/stream/"), ("sam", sam, f"/api/bot/games/{game.pk}/stream/"),
        ("bob's events", bob, "/api/bot/events/"))}
    received = {name: await drain_stream(stream) for name, stream in streams.items()}
    assert received["bob"][0]["game"]["me"]["seat"] == 2 and received["sam"][0]["game"]["me"] is None

    secrets = await walk_turn_one(game, alice, bob, carol)
    for name, stream in streams.items():
        received[name] += await drain_stream(stream)
    kinds = {line["kind"] for line in received["sam"] if line["type"] == "event"}
    assert {"seat_ready", "clocks", "chat", "timer_expired", "seats_ejected", "turn_executing"} <= kinds
    seats = {"bob": 2, "sam": None, "bob's events": None}
    for name, lines in received.items():
        assert not secrets_in(lines, secrets, seats[name]), name

    await sync_to_async(turns.resolve_turn)(game_id=game.pk, turn=1)
    await sync_to_async(game.refresh_from_db)()
    secrets = {"alice's new hand": await sync_to_async(hand_of)(game, alice)}
    after = {name: await drain_stream(stream) for name, stream in streams.items()}
    assert {"turn_resolved", "turn_dealt"} <= {line.get("kind") for line in after["sam"]}
    assert [line["game"]["turn"] for line in after["bob"] if line["type"] == "snapshot"] == [2]  # bob's own, pushed
    assert not any(line["type"] == "snapshot" for line in after["sam"])  # a spectator gets no pushed snapshot
    for name, lines in after.items():
        assert not secrets_in(lines, secrets, seats[name]), name
    for stream in streams.values():
        await stream.close()
