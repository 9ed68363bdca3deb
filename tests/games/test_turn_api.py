"""GET /api/games/<id>/turns/<n>/: a resolved turn for replay, the same for every viewer, and nothing
hidden in it (no hand, no program of a turn that has not run)."""

import json

import pytest
from rest_framework.test import APIClient

from games.models import Hand
from games.services import moves, turns
from tests.games.factories import hand_of, legal_program, started_game
from tests.helpers import client_for

PUBLIC_BOT_KEYS = {"id", "at", "dir", "damage", "lives", "next_checkpoint", "virtual", "rebooting", "battery",
                   "module", "drone_of"}
ABSENT = {"drone_of": None}  # what a public bot shows for a stored field left out


@pytest.fixture
def played(courses, make_user):
    """A two-seat game whose turn 1 has resolved; turn 2 is dealt and alice has submitted for it."""
    alice, bob, sam = make_user("alice"), make_user("bob"), make_user("sam")
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    programs = {}
    for user in (alice, bob):
        chips = hand_of(game, user)[:5]
        moves.submit_program(user=user, game_id=game.pk, turn=1, chips=chips)
        programs[user.username] = chips
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    turn2_program = legal_program(game, alice)  # robots shoot: the hand may have shrunk
    moves.submit_program(user=alice, game_id=game.pk, turn=2, chips=turn2_program)
    return game, (alice, bob, sam), programs, turn2_program


def test_a_resolved_turn_is_the_same_for_players_and_spectators(played):
    game, (alice, bob, sam), programs, _ = played
    record = game.turns.get(number=1)
    answers = [client_for(user).get(f"/api/games/{game.pk}/turns/1/") for user in (alice, bob, sam)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    bodies = [a.json() for a in answers]
    assert bodies[0] == bodies[1] == bodies[2]
    body = bodies[0]
    assert body["turn"] == 1
    assert body["events"] == record.events
    # Programs of a turn that ran are public: replays and the turn log show them.
    assert body["programs"] == {"1": programs["alice"], "2": programs["bob"]}
    assert body["reboots"] == record.reboots == []
    for side, state in (("before", record.state_before), ("after", record.state_after)):
        assert body[side]["priority"] == state["priority"]
        assert body[side]["radiation"] == state.get("radiation", [])
        assert [bot["id"] for bot in body[side]["bots"]] == [bot["id"] for bot in state["bots"]]
        for shown, stored in zip(body[side]["bots"], state["bots"], strict=True):
            assert set(shown) == PUBLIC_BOT_KEYS
            assert all(shown[key] == stored.get(key, ABSENT.get(key, False)) for key in PUBLIC_BOT_KEYS)


def test_no_hand_and_no_unplayed_program_in_a_turn_record(played):
    game, (alice, bob, sam), programs, turn2_program = played
    turn2_hand = Hand.objects.get(seat__game=game, seat__user=alice, turn=2).chips
    for viewer in (bob, sam):
        text = json.dumps(client_for(viewer).get(f"/api/games/{game.pk}/turns/1/").json())
        assert json.dumps(turn2_hand) not in text
        if turn2_program not in programs.values():  # (a turn-1 program is public and may look the same)
            assert json.dumps(turn2_program) not in text
        assert "hand" not in text and "last_program" not in text
        # The turn being programmed has not run: there is nothing to fetch yet.
        pending = client_for(viewer).get(f"/api/games/{game.pk}/turns/2/")
        assert pending.status_code == 404 and pending.json() == {"detail": f"turn 2 of game {game.pk} has not been played"}


def test_unknown_games_and_anonymous_viewers(played):
    game, (alice, _, _), _, _ = played
    assert client_for(alice).get("/api/games/99999/turns/1/").status_code == 404
    assert APIClient().get(f"/api/games/{game.pk}/turns/1/").status_code == 403


def test_the_board_shows_only_the_revealed_teleporter_loop(courses, make_user):
    from games.models import Game
    from games.selectors import snapshots
    from tests.games.factories import started_game

    alice, bob = make_user("ann"), make_user("ben")
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    state = game.state
    state["board"] = {"loop": [[[1, 1], [5, 5]], [[5, 5], [9, 9]]], "dest_shown": [[1, 1]], "broken": [[2, 2]]}
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    for viewer in (alice, bob):
        board = snapshots.game_snapshot(game=game, user=viewer)["board"]
        assert board["loop"] == [[[1, 1], [5, 5]]] and board["broken"] == [[2, 2]]
        assert "[9, 9]" not in json.dumps(board)
