"""Authorisation and bad input over the API, each with the status code and the message a user sees, and
each changing nothing."""

import pytest
from rest_framework.test import APIClient

import engine
from games.models import Game, GameEvent, Program, Seat
from games.services import lobby, moves, turns
from tests.games.factories import hand_of, legal_program, started_game


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def game(courses, make_user):
    return started_game(users=[make_user("alice"), make_user("bob")], course=courses["bolt-bay"])


def users(game):
    return [seat.user for seat in game.seats.order_by("number")]


def unchanged(game):
    """A fingerprint of everything a bad request must not change."""
    game.refresh_from_db()
    return (game.version, game.status, game.turn, Program.objects.filter(seat__game=game).count(),
            Seat.objects.filter(game=game).count(), GameEvent.objects.filter(game=game).count())


def post_program(user, game, chips, turn=None):
    return api(user).post(f"/api/games/{game.pk}/program/", {"turn": turn or game.turn, "chips": chips},
                          format="json")


def test_a_chip_not_in_the_hand(game):
    alice = users(game)[0]
    hand = hand_of(game, alice)
    # One chip more of some kind than the hand holds (none at all, or one too many).
    chip = min((c for c in engine.CHIPS if c != "0"), key=hand.count)
    held = hand.count(chip)
    program = ([chip] * (held + 1) + [c for c in hand if c != chip])[:5]
    before = unchanged(game)
    response = post_program(alice, game, program)
    assert response.status_code == 400
    assert response.json()["detail"] == f"the hand holds {held} {chip!r} chip(s), the program uses {held + 1}"
    assert unchanged(game) == before


def test_a_changed_frozen_register(game):
    alice = users(game)[0]
    state = game.state
    for bot in state["bots"]:
        if bot["id"] == "1":
            bot["damage"], bot["last_program"] = 6, ["1", "1", "1", "1", "B"]
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    program = legal_program(game, alice)
    assert program[4] == "B" and program[3] == "1"  # registers 4 and 5 are frozen at damage 6
    program[4] = "U"
    before = unchanged(game)
    response = post_program(alice, game, program)
    assert response.status_code == 400
    assert response.json()["detail"] == "register 5 is frozen with 'B' and can't be changed"
    assert unchanged(game) == before


def test_four_chips(game):
    alice = users(game)[0]
    before = unchanged(game)
    response = post_program(alice, game, hand_of(game, alice)[:4])
    assert response.status_code == 400 and "at least 5 elements" in response.json()["detail"]
    assert unchanged(game) == before


def test_a_late_program(game):
    alice, bob = users(game)
    for user in (alice, bob):
        moves.submit_program(user=user, game_id=game.pk, turn=1, chips=legal_program(game, user))
    before = unchanged(game)  # both in: the turn is executing
    response = post_program(alice, game, legal_program(game, alice, 3), turn=1)
    assert response.status_code == 409 and response.json()["detail"] == "this game takes no programs now (it is resolving)"
    assert unchanged(game) == before
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    before = unchanged(game)
    response = post_program(alice, game, legal_program(game, alice), turn=1)
    assert response.status_code == 409 and response.json()["detail"] == "turn 1 is not the current turn (2)"
    assert unchanged(game) == before


def test_malformed_json(game):
    alice = users(game)[0]
    before = unchanged(game)
    for path in ("program/", "chat/", "join/"):
        response = api(alice).post(f"/api/games/{game.pk}/{path}", data="{oops", content_type="application/json")
        assert response.status_code == 400 and "JSON parse error" in response.json()["detail"]
    assert unchanged(game) == before


def test_only_a_seated_player_submits(game, make_user):
    before = unchanged(game)
    response = post_program(make_user("mallory"), game, hand_of(game, users(game)[0])[:5])
    assert response.status_code == 403 and response.json() == {"detail": "you have no seat in this game"}
    assert unchanged(game) == before


def test_a_full_game_cannot_be_joined(courses, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=2)
    lobby.join_game(user=bob, game_id=game.pk)  # the last seat: the game starts
    before = unchanged(game)
    response = api(carol).post(f"/api/games/{game.pk}/join/")
    assert response.status_code == 409 and response.json() == {"detail": "this game has already started"}
    assert unchanged(game) == before


def test_a_full_lobby_cannot_be_joined(courses, make_user):
    alice, bob, carol, dan = (make_user(n) for n in ("alice", "bob", "carol", "dan"))
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=3)
    lobby.join_game(user=bob, game_id=game.pk)
    Game.objects.filter(pk=game.pk).update(max_seats=2)  # as if the seats had been closed
    before = unchanged(game)
    response = api(dan).post(f"/api/games/{game.pk}/join/")
    assert response.status_code == 409 and response.json() == {"detail": "this game is full"}
    assert unchanged(game) == before


def test_a_finished_game_takes_no_programs(game):
    alice, bob = users(game)
    lobby.leave_game(user=bob, game_id=game.pk)  # bob resigns: alice wins
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    before = unchanged(game)
    response = post_program(alice, game, hand_of(game, alice)[:5])
    assert response.status_code == 409 and response.json() == {"detail": "this game is finished"}
    assert unchanged(game) == before


def test_only_staff_eject_outside_the_rule(game):
    alice = users(game)[0]
    before = unchanged(game)
    response = api(alice).post(f"/api/games/{game.pk}/seats/2/eject/")
    assert response.status_code == 403
    assert response.json()["detail"].startswith("only staff can eject")
    assert unchanged(game) == before


def test_only_the_creator_starts_and_cancels(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=3)
    lobby.join_game(user=bob, game_id=game.pk)
    before = unchanged(game)
    response = api(bob).post(f"/api/games/{game.pk}/start/")
    assert response.status_code == 403 and response.json() == {"detail": "only the game's creator can start it"}
    response = api(bob).post(f"/api/games/{game.pk}/cancel/")
    assert response.status_code == 403 and response.json() == {"detail": "only the game's creator can cancel it"}
    assert unchanged(game) == before
