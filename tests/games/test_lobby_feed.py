"""The lobby socket (/ws/lobby/), in process, on the real Redis channel layer, with several clients: the whole
lobby on connect and on sync, then each game's summary after every change that commits (created, seat taken,
seat freed, started, finished, cancelled). A private game never reaches anyone but its players."""

import json

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from games.lobby_consumer import LobbyConsumer
from games.models import Game
from games.services import ejection
from games.services import lobby as lobby_services
from roboracer.accounts.services import update_profile

pytestmark = pytest.mark.django_db(transaction=True)


async def connected(user):
    comm = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    comm.scope["user"] = user
    ok, _ = await comm.connect()
    assert ok
    first = await comm.receive_json_from(timeout=5)
    assert first["type"] == "lobby" and set(first) == {"type", "open", "open_total", "open_next", "mine", "archived"}
    return comm, first


async def next_game(comm) -> dict:
    message = await comm.receive_json_from(timeout=5)
    assert message["type"] == "lobby_game", message
    return message


def create(user, course, **options):
    return lobby_services.create_game(user=user, course=course, **options)


async def test_a_private_game_reaches_its_players_only_and_public_ones_everyone(courses, make_user):
    alice, bob, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "sam")]
    clients = {}
    for name, user in (("alice", alice), ("bob", bob), ("sam", sam), ("anonymous", AnonymousUser())):
        clients[name], _ = await connected(user)

    secret = await sync_to_async(create)(alice, courses["tiny-yard"], max_seats=2, visibility="private")
    mine = await next_game(clients["alice"])
    assert mine["mine"] is True and mine["game"]["id"] == secret.pk and mine["game"]["visibility"] == "private"
    await sync_to_async(lobby_services.join_game)(user=bob, game_id=secret.pk, invite=secret.invite_code)
    bobs = await next_game(clients["bob"])  # bob's own channel: the game started when he took the last seat
    assert bobs["mine"] is True and bobs["game"]["id"] == secret.pk and bobs["game"]["status"] == "programming"
    assert (await next_game(clients["alice"]))["game"]["seated"] == 2

    # A public game after it: the first thing a stranger hears of is the public game, so nothing of the
    # private one (created, joined, started) came before it, on the public group or anywhere else.
    public = await sync_to_async(create)(alice, courses["tiny-yard"], max_seats=3)
    for name in ("sam", "anonymous", "bob"):
        message = await next_game(clients[name])
        assert message["game"]["id"] == public.pk and "mine" not in message, name
        assert message["game"]["status"] == "lobby" and message["game"]["seated"] == 1
    heard = [await next_game(clients["alice"]) for _ in range(2)]  # the public group and her own
    assert sorted(str(m.get("mine")) for m in heard) == ["None", "True"] and {m["game"]["id"] for m in heard} == {
        public.pk}
    assert secret.invite_code not in json.dumps([mine, bobs, heard])
    # Nor does a stranger find it when the lobby is read again.
    await clients["sam"].send_json_to({"type": "sync"})
    again = await clients["sam"].receive_json_from(timeout=5)
    assert again["type"] == "lobby" and [g["id"] for g in again["open"]] == [public.pk] and again["mine"] == []
    assert secret.invite_code not in json.dumps(again)
    for comm in clients.values():
        assert await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()


async def heard(comm, count: int) -> tuple[dict | None, dict | None]:
    """`count` messages (one from the public group, one from the user's own for a seated user): (public, own)."""
    messages = [await next_game(comm) for _ in range(count)]
    public = [m for m in messages if "mine" not in m]
    own = [m for m in messages if "mine" in m]
    assert len(public) <= 1 and len(own) <= 1, messages
    return (public or [None])[0], (own or [None])[0]


async def test_seats_taken_and_freed_start_finish_and_cancel_update_the_lobby(courses, make_user):
    alice, bob, carol, sam = [await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol", "sam")]
    await sync_to_async(update_profile)(user=bob, display_name="Bob the Builder")
    sam_comm, _ = await connected(sam)
    bob_comm, _ = await connected(bob)
    alice_comm, _ = await connected(alice)

    game = await sync_to_async(create)(alice, courses["tiny-yard"], max_seats=3)
    assert (await next_game(sam_comm))["game"]["seated"] == 1
    await heard(bob_comm, 1)
    _, own = await heard(alice_comm, 2)
    assert own["mine"] is True and own["game"]["status"] == "lobby"

    await sync_to_async(lobby_services.join_game)(user=bob, game_id=game.pk)  # seat taken
    seen = await next_game(sam_comm)
    assert (seen["game"]["seated"], seen["game"]["status"]) == (2, "lobby")
    public, own = await heard(bob_comm, 2)
    assert own["mine"] is True and own["game"]["my_move"] is False and public["game"]["seated"] == 2
    _, own = await heard(alice_comm, 2)
    assert own["game"]["seated"] == 2

    await sync_to_async(lobby_services.leave_game)(user=bob, game_id=game.pk)  # seat freed
    assert (await next_game(sam_comm))["game"]["seated"] == 1
    _, own = await heard(bob_comm, 2)
    assert own["mine"] is False  # no longer his
    await heard(alice_comm, 2)

    await sync_to_async(lobby_services.join_game)(user=bob, game_id=game.pk)
    await heard(sam_comm, 1), await heard(bob_comm, 2), await heard(alice_comm, 2)
    await sync_to_async(lobby_services.start_game)(user=alice, game_id=game.pk)  # started with two of three seats
    started = await next_game(sam_comm)
    assert started["game"]["status"] == "programming" and started["game"]["max_seats"] == 2
    _, own = await heard(bob_comm, 2)
    assert own["game"]["status"] == "programming" and own["game"]["my_move"] is True
    await heard(alice_comm, 2)

    await sync_to_async(lobby_services.leave_game)(user=alice, game_id=game.pk)  # resigns: bob wins
    finished = await next_game(sam_comm)
    assert finished["game"]["status"] == "finished" and finished["game"]["winner"] == "Bob the Builder"
    for comm in (alice_comm, bob_comm):
        _, own = await heard(comm, 2)
        assert own["game"]["winner"] == "Bob the Builder" and own["game"]["my_move"] is False

    doomed = await sync_to_async(create)(carol, courses["tiny-yard"], max_seats=2)
    assert (await next_game(sam_comm))["game"]["id"] == doomed.pk
    await sync_to_async(lobby_services.cancel_game)(user=carol, game_id=doomed.pk)
    cancelled = await next_game(sam_comm)
    assert (cancelled["game"]["id"], cancelled["game"]["status"]) == (doomed.pk, "cancelled")
    for comm in (sam_comm, alice_comm, bob_comm):
        await comm.disconnect()


async def test_nothing_is_announced_for_a_change_that_rolls_back(courses, make_user):
    alice, sam = [await sync_to_async(make_user)(name) for name in ("alice", "sam")]
    sam_comm, _ = await connected(sam)

    def create_then_fail():
        with transaction.atomic():
            create(alice, courses["tiny-yard"], max_seats=2)
            raise RuntimeError("the request failed after the game was made")

    with pytest.raises(RuntimeError):
        await sync_to_async(create_then_fail)()
    assert await sync_to_async(Game.objects.count)() == 0
    assert await sam_comm.receive_nothing(timeout=0.5)
    await sam_comm.disconnect()


async def test_the_lobby_on_connect_and_sync_and_errors_for_other_frames(courses, make_user):
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    secret = await sync_to_async(create)(alice, courses["tiny-yard"], max_seats=2, visibility="private")
    public = await sync_to_async(create)(bob, courses["tiny-yard"], max_seats=2)
    alice_comm, lobby = await connected(alice)
    assert [g["id"] for g in lobby["open"]] == [public.pk]
    assert [(g["id"], g["my_move"]) for g in lobby["mine"]] == [(secret.pk, False)]
    anonymous, lobby = await connected(AnonymousUser())
    assert [g["id"] for g in lobby["open"]] == [public.pk] and lobby["mine"] == [] and lobby["archived"] == []
    for frame in ("not json", '{"type": "subscribe"}'):
        await anonymous.send_to(text_data=frame)
        reply = await anonymous.receive_json_from(timeout=5)
        assert reply["type"] == "error"
    await anonymous.send_json_to({"type": "sync"})
    assert (await anonymous.receive_json_from(timeout=5))["type"] == "lobby"
    for comm in (alice_comm, anonymous):
        await comm.disconnect()


async def test_a_player_staff_remove_from_a_lobby_hears_it_is_no_longer_theirs(courses, make_user):
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    staff = await sync_to_async(make_user)("root", is_staff=True)
    game = await sync_to_async(create)(alice, courses["tiny-yard"], max_seats=3, visibility="private")
    await sync_to_async(lobby_services.join_game)(user=bob, game_id=game.pk, invite=game.invite_code)
    bob_comm, lobby = await connected(bob)
    assert [g["id"] for g in lobby["mine"]] == [game.pk]
    await sync_to_async(ejection.staff_eject)(user=staff, game_id=game.pk, seat_number=2)
    message = await next_game(bob_comm)
    assert (message["mine"], message["game"]["id"], message["game"]["seated"]) == (False, game.pk, 1)
    assert await bob_comm.receive_nothing(timeout=0.3)
    await bob_comm.disconnect()
