"""The Scanner on the site (003 "Scanner", issue 15): its owner alone sees the opponents' submitted chips,
sorted; rescanning is free until execution; the charge goes in the next turn; the result never reaches anyone
else (snapshots, API answers, WebSocket frames), a turn record, an event or a replay."""

import json

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.kinds.roboracer import services as roboracer_services
from games.models import Game, GameEvent, Program, Scan, Turn
from games.services import moves, turns
from tests.games.factories import legal_program
from tests.games.modules_helpers import FULL_HAND, client_for, module_game, set_bot, set_hand

BOB_PROGRAM = ["U", "R", "L", "2", "1"]
BOB_SORTED = ["1", "2", "L", "R", "U"]  # what alice's scan shows: the chips, not their order


def scanner_game(courses, alice, bob, *, charges=2, visibility="public"):
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=["scanner", "turbo"])
    if visibility != "public":
        Game.objects.filter(pk=game.pk).update(visibility=visibility)
    set_bot(game, "1", module={"type": "scanner", "charges": charges})
    set_hand(game, bob, FULL_HAND)
    return game


@pytest.mark.django_db
def test_the_owner_scans_sees_sorted_chips_and_pays_one_charge_next_turn(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = scanner_game(courses, alice, bob)
    a = client_for(alice)
    empty = a.post(f"/api/games/{game.pk}/scan/", {"turn": 1}, format="json")
    assert empty.status_code == 200 and empty.json() == {"turn": 1, "programs": {}}  # nothing submitted yet
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=BOB_PROGRAM)
    scanned = a.post(f"/api/games/{game.pk}/scan/", {"turn": 1}, format="json")
    assert scanned.status_code == 200 and scanned.json() == {"turn": 1, "programs": {"2": BOB_SORTED}}
    again = a.post(f"/api/games/{game.pk}/scan/", {"turn": 1}, format="json")  # free until execution
    assert again.json() == scanned.json()
    me = a.get(f"/api/games/{game.pk}/").json()["me"]
    assert me["scan"] == {"turn": 1, "programs": {"2": BOB_SORTED}}
    assert me["action"] == {"activate": {}}
    assert next(b for b in a.get(f"/api/games/{game.pk}/").json()["bots"] if b["id"] == "1")["module"] == \
        {"type": "scanner", "charges": 2}
    # A later program: no action (or the Scanner's) keeps the activation; any other action is refused.
    chips = legal_program(game, alice)
    refused = a.post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": chips, "action": {"install": "turbo"}},
                     format="json")
    assert refused.status_code == 400 and "you scanned this turn" in refused.json()["detail"]
    assert not Program.objects.filter(seat__game=game, seat__user=alice).exists()
    sent = a.post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": chips}, format="json")
    assert sent.status_code == 200 and sent.json()["action"] == {"activate": {}}
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    owner = next(b for b in game.state["bots"] if b["id"] == "1")
    assert owner["module"] == {"type": "scanner", "charges": 2} and owner["scan_due"] is True
    after = a.get(f"/api/games/{game.pk}/").json()["me"]
    assert after["scan"] is None and after["scan_due"] is True and after["action"] is None
    # The turn record and its events have the activation, never what was seen.
    record = Turn.objects.get(game=game, number=1)
    assert record.actions["1"] == {"activate": {}}
    stored = json.dumps([record.events, record.programs, record.actions, record.state_after,
                         list(GameEvent.objects.filter(game=game).values_list("data", flat=True))])
    assert json.dumps(BOB_SORTED) not in stored
    assert json.dumps(BOB_SORTED) not in json.dumps(client_for(bob).get(f"/api/games/{game.pk}/turns/1/").json())
    # Turn 2: the charge is taken at its start.
    for user in (alice, bob):
        moves.submit_program(user=user, game_id=game.pk, turn=2, chips=legal_program(game, user))
    turns.resolve_turn(game_id=game.pk, turn=2)
    game.refresh_from_db()
    owner = next(b for b in game.state["bots"] if b["id"] == "1")
    assert owner["module"] == {"type": "scanner", "charges": 1} and owner["scan_due"] is False
    # (No replay here: the test installed the Scanner by hand. test_modules replays whole games.)


@pytest.mark.django_db
def test_scan_refusals(courses, make_user):
    alice, bob, sam, eve = (make_user(name) for name in ("alice", "bob", "sam", "eve"))
    game = scanner_game(courses, alice, bob)
    url = f"/api/games/{game.pk}/scan/"
    assert client_for(sam).post(url, {"turn": 1}, format="json").status_code == 403  # a spectator
    assert client_for(alice).post(url, {"turn": 2}, format="json").status_code == 409
    assert client_for(alice).post(url, {"turn": "x"}, format="json").status_code == 400
    assert client_for(alice).post(url, {}, format="json").status_code == 400
    no_scanner = client_for(bob).post(url, {"turn": 1}, format="json")
    assert no_scanner.status_code == 400 and "no Scanner installed" in no_scanner.json()["detail"]
    set_bot(game, "1", module={"type": "scanner", "charges": 0})
    empty = client_for(alice).post(url, {"turn": 1}, format="json")
    assert empty.status_code == 400 and "no charge left" in empty.json()["detail"]
    set_bot(game, "1", module={"type": "scanner", "charges": 1}, scan_due=True)  # last turn's scan owes it
    assert client_for(alice).post(url, {"turn": 1}, format="json").status_code == 400
    assert not Scan.objects.exists()
    private = scanner_game(courses, alice, bob, visibility="private")
    assert client_for(eve).post(f"/api/games/{private.pk}/scan/", {"turn": 1}, format="json").status_code == 404
    assert client_for(eve).post("/api/games/999999/scan/", {"turn": 1}, format="json").status_code == 404
    # Executing: too late to scan.
    set_bot(game, "1", module={"type": "scanner", "charges": 1}, scan_due=False)
    for user in (alice, bob):
        moves.submit_program(user=user, game_id=game.pk, turn=1, chips=legal_program(game, user))
    assert client_for(alice).post(url, {"turn": 1}, format="json").status_code == 409
    assert not Scan.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_no_scan_reaches_an_opponent_or_a_spectator(courses, make_user):
    from tests.games.test_hidden_information import api_answers, drain, game_socket

    alice, bob, sam = [await sync_to_async(make_user)(name) for name in ("alice", "bob", "sam")]
    game = await sync_to_async(scanner_game)(courses, alice, bob)
    sockets = {name: game_socket(game.pk, user) for name, user in (("bob", bob), ("sam", sam), ("alice", alice))}
    for comm in sockets.values():
        assert (await comm.connect())[0]
    await sync_to_async(moves.submit_program)(user=bob, game_id=game.pk, turn=1, chips=BOB_PROGRAM)
    answer = await sync_to_async(roboracer_services.scan)(user=alice, game_id=game.pk, turn=1)
    assert answer["programs"] == {"2": BOB_SORTED}
    received = {name: await drain(comm) for name, comm in sockets.items()}
    for name, user in (("bob", bob), ("sam", sam)):
        received[name] += await sync_to_async(api_answers)(user, game)
        received[name].append(await sync_to_async(lambda u=user: client_for(u).get(f"/api/games/{game.pk}/").json())())
    marker = json.dumps(BOB_SORTED)
    for name in ("bob", "sam"):
        text = json.dumps(received[name])
        assert marker not in text, f"{name} saw alice's scan"
        for message in received[name]:
            me = message.get("me") if isinstance(message, dict) else None
            assert not me or me.get("scan") is None
    # Alice's own answers have it (her snapshot), and nobody's frames carry it through the game group.
    mine = await sync_to_async(lambda: client_for(alice).get(f"/api/games/{game.pk}/").json())()
    assert mine["me"]["scan"]["programs"] == {"2": BOB_SORTED}
    assert marker not in json.dumps(received["alice"])  # no event: the scan is only in her own answers
    # Played: the events, the turn record and the next snapshots of others still have no scan.
    await sync_to_async(moves.submit_program)(user=alice, game_id=game.pk, turn=1,
                                                 chips=await sync_to_async(legal_program)(game, alice))
    await sync_to_async(turns.resolve_turn)(game_id=game.pk, turn=1)
    after = {name: await drain(sockets[name]) for name in ("bob", "sam")}
    for name, messages in after.items():
        assert marker not in json.dumps(messages), f"{name} saw alice's scan after the turn"
    for comm in sockets.values():
        await comm.disconnect()
