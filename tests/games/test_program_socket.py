"""Programs over the open game socket (docs/api.md "Programs over the socket"): the same checks, write and
events as POST .../program/, the answer to the sender's socket alone, and nothing hidden to anyone else."""

import json

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.models import Game, Program
from tests.games.factories import hand_of, legal_program, started_game
from tests.games.test_consumer import communicator

pytestmark = pytest.mark.django_db(transaction=True)


async def connected(game, *users):
    clients = []
    for user in users:
        comm = communicator(game.pk, user)
        assert (await comm.connect())[0]
        assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
        clients.append(comm)
    return clients


async def test_a_program_frame_is_accepted_and_only_its_sender_hears_the_answer(courses, make_user):
    alice, bob, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "sam")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    a, b, s = await connected(game, alice, bob, sam)
    chips = await sync_to_async(legal_program)(game, alice)
    await a.send_json_to({"type": "program", "id": "p-1", "turn": 1, "chips": chips})
    first, second = await a.receive_json_from(timeout=5), await a.receive_json_from(timeout=5)
    by_type = {first["type"]: first, second["type"]: second}
    assert by_type["program_accepted"] == {"type": "program_accepted", "id": "p-1", "turn": 1, "chips": chips,
                                           "reboot": False, "action": None}
    assert by_type["event"]["kind"] == "seat_ready" and by_type["event"]["data"]["seat"] == 1
    stored = await sync_to_async(lambda: list(Program.objects.filter(seat__game=game, turn=1).values_list(
        "seat__number", "chips")))()
    assert stored == [(1, chips)]
    # Bob and the spectator hear that seat 1 is ready, and nothing of its chips or the answer.
    for other in (b, s):
        message = await other.receive_json_from(timeout=5)
        assert message["type"] == "event" and message["kind"] == "seat_ready"
        assert await other.receive_nothing(timeout=0.3)
    hand = await sync_to_async(hand_of)(game, alice)
    assert json.dumps(hand) not in json.dumps(message)

    # Bob's program over his socket is the last: the turn executes, as after the last POST.
    bob_chips = await sync_to_async(legal_program)(game, bob)
    await b.send_json_to({"type": "program", "id": 7, "turn": 1, "chips": bob_chips})
    kinds = []
    while len(kinds) < 3:
        message = await b.receive_json_from(timeout=5)
        kinds.append(message.get("kind") or message["type"])
    assert sorted(kinds) == ["program_accepted", "seat_ready", "turn_executing"]
    assert (await sync_to_async(Game.objects.get)(pk=game.pk)).status == Game.Status.RESOLVING
    for comm in (a, b, s):
        await comm.disconnect()


async def test_refused_program_frames_change_nothing(courses, make_user):
    alice, bob, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "sam")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    a, s = await connected(game, alice, sam)
    hand = await sync_to_async(hand_of)(game, alice)
    chips = await sync_to_async(legal_program)(game, alice)
    # The deal is the game's own (random): nine chips of seven kinds may hold every kind, but at most one of the
    # scarcest, so five of it are never all in the hand.
    scarce = min(("U", "B", "L", "R", "1", "2", "3"), key=hand.count)
    assert hand.count(scarce) <= 1
    cases = [
        (a, {"type": "program", "id": 1, "turn": 1, "chips": [scarce] * 5}, "invalid", 400),  # not in the hand
        (a, {"type": "program", "id": 2, "turn": 1, "chips": chips[:4]}, "invalid", 400),  # four chips
        (a, {"type": "program", "id": 3, "turn": 2, "chips": chips}, "conflict", 409),  # not the current turn
        (a, {"type": "program", "id": 4, "turn": "1; drop", "chips": chips}, "invalid", 400),
        (a, {"type": "program", "id": 5, "turn": 1, "chips": [{"deep": [[[]]]}] * 5}, "invalid", 400),
        (s, {"type": "program", "id": 6, "turn": 1, "chips": chips}, "not_allowed", 403),  # a spectator
    ]
    for comm, frame, code, status in cases:
        await comm.send_json_to(frame)
        answer = await comm.receive_json_from(timeout=5)
        assert (answer["type"], answer["code"], answer["status"], answer["id"]) == ("error", code, status,
                                                                                      frame["id"]), answer
        assert answer["detail"]
    # An id that is neither a short string nor an integer is refused before anything is read.
    await a.send_json_to({"type": "program", "id": {"x": 1}, "turn": 1, "chips": chips})
    answer = await a.receive_json_from(timeout=5)
    assert (answer["code"], answer["status"], "id" in answer) == ("invalid", 400, False)
    assert await sync_to_async(Program.objects.filter(seat__game=game).count)() == 0
    assert await a.receive_nothing(timeout=0.3) and await s.receive_nothing(timeout=0.1)  # no event either
    for comm in (a, s):
        await comm.disconnect()


async def test_program_frames_are_rate_limited_per_socket(courses, make_user):
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    (a,) = await connected(game, alice)
    for index in range(12):
        await a.send_json_to({"type": "program", "id": index, "turn": 9, "chips": ["1"] * 5})
    answers = [await a.receive_json_from(timeout=5) for _ in range(12)]
    limited = [answer for answer in answers if answer["code"] == "rate_limited"]
    assert limited and all(answer["status"] == 429 and answer["retry_after"] > 0 for answer in limited)
    assert len(limited) < 12 and answers[0]["code"] == "conflict"
    await a.disconnect()


@pytest.mark.parametrize("frame", [
    {"turn": 1, "chips": ["1", "2", "3", "U", "R"]},
    {"turn": 1, "chips": ["1", "2", "3", "U", "R"], "reboot": True, "action": {"charge": 2}},
    {"turn": 3, "chips": ["R@5", "S", "1", "1", "B"], "action": None},
    {"turn": 2, "chips": ["1", "2", "3", "U", "R"], "version": 17},
    {"turn": 2, "chips": ["1", "2", "3", "U", "R"], "version": None},
])
def test_the_socket_reads_a_plain_program_exactly_as_the_api_serializer(frame):
    from games.api.serializers import ProgramSerializer
    from games.consumers import plain_program

    serializer = ProgramSerializer(data=frame)
    assert serializer.is_valid()
    assert plain_program({"type": "program", **frame}) == dict(serializer.validated_data)


@pytest.mark.parametrize("frame", [
    {"turn": "1", "chips": ["1", "2", "3", "U", "R"]},  # the serializer reads a numeric string
    {"turn": True, "chips": ["1", "2", "3", "U", "R"]},
    {"turn": 1, "chips": [" 1", "2", "3", "U", "R"]},  # it trims
    {"turn": 1, "chips": ["1\x00", "2", "3", "U", "R"]},  # it refuses a NUL
    {"turn": 1, "chips": ["\u0661", "2", "3", "U", "R"]},
    {"turn": 1, "chips": ["1", "2", "3", "U"]},
    {"turn": 1, "chips": ["1", "2", "3", "U", "R"], "reboot": "true"},
    {"turn": 0, "chips": ["1", "2", "3", "U", "R"]},
    {"turn": 1, "chips": ["1", "2", "3", "U", "R"], "version": "17"},
    {"turn": 1, "chips": ["1", "2", "3", "U", "R"], "version": -1},
    {"turn": 1, "chips": ["1", "2", "3", "U", "R"], "version": True},
])
def test_anything_unusual_goes_to_the_api_serializer(frame):
    from games.consumers import plain_program

    assert plain_program({"type": "program", **frame}) is None
