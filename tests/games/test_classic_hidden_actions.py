"""Issue 33 security item 4: a resolved classic turn's public `actions` keep what every player saw happen (a power
down, the switches, that the flywheel saved an instruction) and never what only the owner may see (the
instruction the flywheel saved, the circuit breaker's threshold). Every public frame and record is compared with
the owner's private view (docs/api.md "Turns")."""

import dataclasses
from collections import Counter

import pytest
from channels.db import database_sync_to_async as sync_to_async
from rest_framework.test import APIClient

import engine
from games.models import Game, GameEvent
from games.selectors import snapshots
from games.services import lobby, turns
from tests.games.factories import hand_of, legal_program
from tests.games.wsclient import session_cookie, site_socket

pytestmark = pytest.mark.django_db(transaction=True)

THRESHOLD = 17  # alice's secret circuit breaker threshold; nobody reaches 17 damage in one round here


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def secrets_in(value, path="$"):
    """Where `value` (any public JSON) holds something only the owner may see: a saved instruction, a circuit
    breaker threshold, a flywheel's chosen instruction."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}"
            if key == "saved_chip" and item is not None:
                found.append(where)
            elif key == "circuit_breaker" and not isinstance(item, bool):
                found.append(where)
            elif key == "flywheel" and item is not True:
                found.append(where)
            found += secrets_in(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += secrets_in(item, f"{path}[{index}]")
    return found


def classic_game_with_upgrades(courses, alice, bob):
    game = lobby.create_game(user=alice, course=courses["classic-conveyor-court"], max_seats=2, ruleset="classic")
    Game.objects.filter(pk=game.pk).update(seed=4)
    lobby.join_game(user=bob, game_id=game.pk)
    game.refresh_from_db()
    seat = game.seats.get(user=alice)
    state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
    upgraded = dataclasses.replace(state.bot(seat.bot_id),
                                   upgrades=("flywheel", "circuit_breaker", "gyroscopic_stabilizer"))
    game.state = engine.state_to_dict(state.with_bots(upgraded if b.id == seat.bot_id else b for b in state.bots))
    game.save(update_fields=["state"])
    return game


async def test_public_actions_never_carry_the_flywheel_instruction_or_the_breaker_threshold(courses, make_user):
    alice, bob, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "sam")]
    game = await sync_to_async(classic_game_with_upgrades)(courses, alice, bob)
    # Sam watches on the socket: every frame he gets is public.
    spectator = site_socket(f"/ws/games/{game.pk}/", cookie=await session_cookie(sam))
    assert (await spectator.connect())[0]
    frames = [await spectator.receive_json_from(timeout=5)]

    def program_turn_one():
        chips = legal_program(game, alice)
        left = Counter(hand_of(game, alice)) - Counter(chips)
        saved = sorted(left)[0]  # an instruction the program leaves unused: the flywheel keeps it
        action = {"power_down": True,
                  "upgrade_use": {"flywheel": saved, "circuit_breaker": THRESHOLD, "gyroscopic_stabilizer": True}}
        answer = client_for(alice).post(f"/api/games/{game.pk}/program/",
                                        {"turn": 1, "chips": chips, "action": action}, format="json")
        assert answer.status_code in (200, 201), answer.content
        answer = client_for(bob).post(f"/api/games/{game.pk}/program/",
                                      {"turn": 1, "chips": legal_program(game, bob)}, format="json")
        assert answer.status_code in (200, 201), answer.content
        turns.resolve_turn(game_id=game.pk, turn=1)
        return saved

    saved = await sync_to_async(program_turn_one)()
    while True:  # every frame up to the next turn's deal
        frame = await spectator.receive_json_from(timeout=5)
        frames.append(frame)
        if frame.get("kind") == "turn_dealt":
            break
    await spectator.send_json_to({"type": "sync"})
    frames.append(await spectator.receive_json_from(timeout=5))
    await spectator.disconnect()

    def views():
        game.refresh_from_db()
        bot_id = game.seats.get(user=alice).bot_id
        mine = snapshots.game_snapshot(game=game, user=alice)["me"]
        record = game.turns.get(number=1)
        public = {
            "socket frames": frames,
            "stored events": list(GameEvent.objects.filter(game=game).values_list("data", flat=True)),
            "turn api (bob)": client_for(bob).get(f"/api/games/{game.pk}/turns/1/").json(),
            "turn api (sam)": client_for(sam).get(f"/api/games/{game.pk}/turns/1/").json(),
            "game api (bob)": client_for(bob).get(f"/api/games/{game.pk}/").json(),
            "snapshot (sam)": snapshots.game_snapshot(game=game, user=sam),
        }
        return bot_id, mine, record, public

    bot_id, mine, record, public = await sync_to_async(views)()
    # The owner's private view holds the secrets (so the search below looks for something that exists).
    assert record.actions[bot_id]["upgrade_use"] == {"flywheel": saved, "circuit_breaker": THRESHOLD,
                                                     "gyroscopic_stabilizer": True}
    assert mine["saved_chip"] == saved and mine["upgrade_use"]["circuit_breaker"] == THRESHOLD
    seen = {"power_down": True, "upgrade_use": {"flywheel": True, "gyroscopic_stabilizer": True}}
    resolved = [f for f in frames if f.get("kind") == "turn_resolved"]
    assert len(resolved) == 1 and resolved[0]["data"]["actions"] == {bot_id: seen}
    assert public["turn api (bob)"]["actions"] == public["turn api (sam)"]["actions"] == {bot_id: seen}
    for name, value in public.items():
        assert secrets_in(value) == [], name
    assert not any(e["type"] == "circuit_breaker" for e in record.events)  # no trip: the threshold stays unsaid


def test_public_action_keeps_what_was_seen():
    from engine.rulesets.classic import public_action

    assert public_action({"power_down": False, "upgrade_use": {"circuit_breaker": 3}}) is None
    assert public_action({"upgrade_use": {"scrambler": True, "flywheel": "R"}}) == {
        "upgrade_use": {"flywheel": True, "scrambler": True}}
    assert public_action({"power_down": True}) == {"power_down": True}
