"""Computer players on the site (issue 20): computer seats, practice games, the `computer` timeout policy, and
the computers playing through the same service as people, blind to the other seats' hands."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from games.kinds.roboracer import services as roboracer_services
from games.models import ChatMessage, Game, GameEvent, Hand, Program, Seat
from games.selectors.rated import is_rated
from games.services import computer_seats, lobby, moves, rematch, timeouts, turns
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound
from tests.games.factories import legal_program


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _play_computers(game) -> int:
    """Every computer-played seat without a program this turn plays, as the `computers` queue's task does."""
    played = 0
    for seat in game.seats.all():
        if (seat.computer or seat.autopilot) and moves.play_computer_turn(
            game_id=game.pk, turn=game.turn, seat_number=seat.number
        ):
            played += 1
    return played


def test_the_creator_adds_a_computer_and_a_full_game_starts(courses, alice):
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=3)
    first = computer_seats.add_computer(user=alice, game_id=game.pk, strength="easy")
    assert (first.number, first.computer) == (2, "easy")
    assert first.user.get_username() == "computer-easy-1" and not first.user.has_usable_password()
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY and not game.rated
    joined = GameEvent.objects.filter(game=game, kind="seat_joined").last()
    assert joined.data["computer"] == "easy"
    second = computer_seats.add_computer(user=alice, game_id=game.pk, strength="easy")
    assert second.user.get_username() == "computer-easy-2"  # two of one strength: two accounts
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING
    assert Hand.objects.filter(seat__game=game, turn=1).count() == 3


def test_only_the_creator_adds_computers_and_only_in_the_lobby(courses, alice, bob):
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=2)
    with pytest.raises(NotAllowed):
        computer_seats.add_computer(user=bob, game_id=game.pk, strength="normal")
    with pytest.raises(InvalidInput):
        computer_seats.add_computer(user=alice, game_id=game.pk, strength="godlike")
    computer_seats.add_computer(user=alice, game_id=game.pk, strength="normal")  # full: the game starts
    with pytest.raises(Conflict):
        computer_seats.add_computer(user=alice, game_id=game.pk, strength="normal")
    assert Seat.objects.filter(game=game).count() == 2


def test_a_stranger_to_a_private_game_gets_its_404(courses, alice, bob):
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=3, visibility="private")
    with pytest.raises(NotFound):
        computer_seats.add_computer(user=bob, game_id=game.pk, strength="normal")
    answer = _client(bob).post(f"/api/games/{game.pk}/computers/", {"strength": "normal"}, format="json")
    missing = _client(bob).post("/api/games/999999/computers/", {"strength": "normal"}, format="json")
    assert answer.status_code == missing.status_code == 404
    assert answer.json()["detail"].replace(str(game.pk), "N") == missing.json()["detail"].replace("999999", "N")


def test_the_creator_removes_a_computer_in_the_lobby(courses, alice, bob):
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=4)
    seat = computer_seats.add_computer(user=alice, game_id=game.pk, strength="hard")
    lobby.join_game(user=bob, game_id=game.pk)
    with pytest.raises(NotFound):  # a person's seat is not a computer's
        computer_seats.remove_computer(user=alice, game_id=game.pk, seat_number=3)
    with pytest.raises(NotAllowed):
        computer_seats.remove_computer(user=bob, game_id=game.pk, seat_number=seat.number)
    answer = _client(alice).post(f"/api/games/{game.pk}/computers/{seat.number}/remove/")
    assert answer.status_code == 200
    assert [s["user"] for s in answer.json()["seats"]] == ["alice", "bob"]


def test_the_api_adds_computers_and_refuses_hostile_bodies(courses, alice):
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=4)
    client = _client(alice)
    added = client.post(f"/api/games/{game.pk}/computers/", {"strength": "hard"}, format="json")
    assert added.status_code == 201
    assert added.json() == {"seat": 2, "computer": "hard", "display_name": "Hard Computer 1"}
    for body in ({"strength": "nörmal"}, {"strength": {"a": [[[]]]}}, {"strength": ["easy"]}):
        answer = client.post(f"/api/games/{game.pk}/computers/", body, format="json")
        assert answer.status_code == 400, body
    assert Seat.objects.filter(game=game).count() == 2
    snapshot = client.get(f"/api/games/{game.pk}/").json()
    assert [s["computer"] for s in snapshot["seats"]] == [None, "hard"]
    assert snapshot["can_add_computer"] is True and snapshot["computer_strengths"] == ["easy", "normal", "hard"]


def test_play_against_the_computer_starts_at_once_and_is_unrated(courses, alice):
    answer = _client(alice).post("/api/games/practice/", {"course": "bolt-bay", "opponents": 2, "strength": "easy"},
                                 format="json")
    assert answer.status_code == 201
    game = Game.objects.get(pk=answer.json()["id"])
    assert answer.json()["url"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.PROGRAMMING and game.turn == 1
    assert [(s.number, s.computer) for s in game.seats.order_by("number")] == [(1, ""), (2, "easy"), (3, "easy")]
    assert not is_rated(game=game)
    mine = _client(alice).get("/api/games/").json()["mine"]
    assert [(entry["id"], entry["computers"], entry["seated"]) for entry in mine] == [(game.pk, 2, 3)]
    for body in ({"course": "bolt-bay", "opponents": 9}, {"course": "no-such-course"},
                 {"course": "puzzle-first-steps"}, {"course": "bolt-bay", "strength": "x"}):
        assert _client(alice).post("/api/games/practice/", body, format="json").status_code == 400, body


def test_a_whole_game_against_computers(courses, alice):
    """The person plays random legal programs; the computers play through play_computer_turn, each program
    checked as a person's; the game ends with places for everyone."""
    game = roboracer_services.practice_game(user=alice, course=courses["tiny-yard"], opponents=2, strength="normal")
    for _ in range(60):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        assert _play_computers(game) == 2
        assert Program.objects.filter(seat__game=game, turn=game.turn).count() == 2
        seat = game.seats.get(user=alice)
        if seat.ejected_at is None and engine.state_from_dict(
            game.state, engine.parse_course(game.course_data)
        ).bot(seat.bot_id).in_game:
            moves.submit_program(user=alice, game_id=game.pk, turn=game.turn, chips=legal_program(game, alice))
        game.refresh_from_db()
        assert game.status == Game.Status.RESOLVING
        turns.resolve_turn(game_id=game.pk, turn=game.turn)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    places = engine.state_from_dict(game.state, engine.parse_course(game.course_data)).places
    assert sorted(places) == ["1", "2", "3"]


def test_a_computer_plays_once_a_turn_and_not_for_people(courses, alice):
    game = roboracer_services.practice_game(user=alice, course=courses["bolt-bay"], opponents=1)
    assert moves.play_computer_turn(game_id=game.pk, turn=1, seat_number=2) is not None
    assert moves.play_computer_turn(game_id=game.pk, turn=1, seat_number=2) is None  # a repeated task
    assert moves.play_computer_turn(game_id=game.pk, turn=2, seat_number=2) is None  # not that turn
    assert moves.play_computer_turn(game_id=game.pk, turn=1, seat_number=1) is None  # a person's seat
    with pytest.raises(NotAllowed):
        moves.submit_computer_move(game_id=game.pk, seat_number=1, turn=1, move=moves.Move(chips=legal_program(game, alice)))


def test_the_computer_never_reads_another_seats_hand(courses, alice):
    """The decision comes from the public state and the seat's own hand: scrambling every other hand in the
    database changes nothing."""
    game = roboracer_services.practice_game(user=alice, course=courses["bolt-bay"], opponents=3, strength="hard")
    seat = game.seats.get(number=2)
    moves.play_computer_turn(game_id=game.pk, turn=1, seat_number=2)
    first = Program.objects.get(seat=seat, turn=1)
    chips, action = first.chips, first.action
    first.delete()
    for hand in Hand.objects.filter(seat__game=game, turn=1).exclude(seat=seat):
        hand.chips = list(reversed(["U", "B", "U", "B", "U", "B", "U", "B", "U"][: len(hand.chips)]))
        hand.save()
    moves.play_computer_turn(game_id=game.pk, turn=1, seat_number=2)
    again = Program.objects.get(seat=seat, turn=1)
    assert (again.chips, again.action) == (chips, action)


def test_the_computer_timeout_policy_plays_the_seat_and_hands_it_back(courses, alice, bob):
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=2, timeout_policy="computer")
    lobby.join_game(user=bob, game_id=game.pk)
    game.refresh_from_db()
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice))
    # Bob walks away: his game time runs out.
    later = timezone.now() + timedelta(hours=1)
    assert timeouts.enforce_deadline(game_id=game.pk, now=later) == "computer"
    bob_seat = Seat.objects.get(game=game, user=bob)
    assert bob_seat.autopilot and bob_seat.deadline is None
    handed = GameEvent.objects.filter(game=game, kind="seat_autopilot").last()
    assert handed.data == {"seat": bob_seat.number, "on": True, "strength": "normal"}
    assert ChatMessage.objects.filter(game=game, system=True, text__contains="computer player plays for them").exists()
    # Bob sees it in his own snapshot.
    assert _client(bob).get(f"/api/games/{game.pk}/").json()["me"]["autopilot"] is True
    # The computer plays his turn, and the turn resolves.
    assert moves.play_computer_turn(game_id=game.pk, turn=1, seat_number=bob_seat.number) is not None
    game.refresh_from_db()
    assert game.status == Game.Status.RESOLVING
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    # Turn 2: his clock stays stopped and the computer plays again until he sends a program himself.
    bob_seat.refresh_from_db()
    assert game.turn == 2 and bob_seat.autopilot and bob_seat.clock_started_at is None
    assert moves.play_computer_turn(game_id=game.pk, turn=2, seat_number=bob_seat.number) is not None
    moves.submit_program(user=bob, game_id=game.pk, turn=2, chips=legal_program(game, bob, seed=3))
    bob_seat.refresh_from_db()
    assert not bob_seat.autopilot
    back = GameEvent.objects.filter(game=game, kind="seat_autopilot").last()
    assert back.data == {"seat": bob_seat.number, "on": False}
    assert Program.objects.get(seat=bob_seat, turn=2).chips == legal_program(game, bob, seed=3)
    # Back in his hands: no computer plays for him any more.
    assert moves.play_computer_turn(game_id=game.pk, turn=2, seat_number=bob_seat.number) is None


def test_computer_seats_are_marked_and_hands_stay_hidden(courses, alice, bob):
    game = roboracer_services.practice_game(user=alice, course=courses["bolt-bay"], opponents=1, strength="easy")
    Game.objects.filter(pk=game.pk).update(visibility="public")
    snapshot = _client(bob).get(f"/api/games/{game.pk}/").json()  # a spectator
    assert [(s["computer"], s["autopilot"]) for s in snapshot["seats"]] == [(None, False), ("easy", False)]
    assert snapshot["me"] is None
    assert '"hand"' not in json.dumps(snapshot)
    mine = _client(alice).get(f"/api/games/{game.pk}/").json()
    assert mine["me"]["hand"] == Hand.objects.get(seat__game=game, seat__number=1, turn=1).chips


def test_a_lost_computer_move_is_sent_again_by_the_sweep(courses, alice):
    game = roboracer_services.practice_game(user=alice, course=courses["bolt-bay"], opponents=1)
    assert computer_seats.stalled_computer_seats(older_than=timedelta(seconds=30)) == []
    Seat.objects.filter(game=game, number=2).update(clock_started_at=timezone.now() - timedelta(minutes=5))
    assert computer_seats.stalled_computer_seats(older_than=timedelta(seconds=30)) == [(game.pk, 1, 2)]
    moves.play_computer_turn(game_id=game.pk, turn=1, seat_number=2)
    assert computer_seats.stalled_computer_seats(older_than=timedelta(seconds=30)) == []


def test_people_cannot_take_a_computer_players_name(db):
    from roboracer.accounts.services import sign_up

    with pytest.raises(Conflict):
        sign_up(username="computer-normal-9", password="a long enough password 123")
    with pytest.raises(Conflict):
        sign_up(username="Computer-Hard-1", password="a long enough password 123")


def test_a_person_takes_their_robot_back_at_once(courses, alice, bob):
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=2, timeout_policy="computer")
    lobby.join_game(user=bob, game_id=game.pk)
    game.refresh_from_db()
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice))
    timeouts.enforce_deadline(game_id=game.pk, now=timezone.now() + timedelta(hours=1))
    with pytest.raises(Conflict):
        computer_seats.take_back(user=alice, game_id=game.pk)  # nobody plays for alice
    answer = _client(bob).post(f"/api/games/{game.pk}/take-back/")
    assert answer.status_code == 200 and answer.json()["me"]["autopilot"] is False
    seat = Seat.objects.get(game=game, user=bob)
    assert not seat.autopilot and seat.clock_started_at is not None  # his clock runs again this turn
    assert moves.play_computer_turn(game_id=game.pk, turn=1, seat_number=seat.number) is None
    assert GameEvent.objects.filter(game=game, kind="seat_autopilot").last().data == {"seat": seat.number, "on": False}


def test_the_creator_picks_the_seat_and_computers_show_no_rating(courses, alice):
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=4)
    client = _client(alice)
    added = client.post(f"/api/games/{game.pk}/computers/", {"strength": "easy", "seat": 3}, format="json")
    assert added.status_code == 201 and added.json()["seat"] == 3
    taken = client.post(f"/api/games/{game.pk}/computers/", {"strength": "easy", "seat": 3}, format="json")
    assert taken.status_code == 409
    seats = client.get(f"/api/games/{game.pk}/").json()["seats"]
    assert [(s["number"], s["rating"] is None) for s in seats] == [(1, False), (3, True)]
    joined = GameEvent.objects.filter(game=game, kind="seat_joined").last().data
    assert joined["display_name"] == "Easy Computer 1"


def test_a_practice_game_hands_a_walked_away_player_to_a_computer(courses, alice):
    game = roboracer_services.practice_game(user=alice, course=courses["bolt-bay"], opponents=1)
    assert game.timeout_policy == Game.TimeoutPolicy.COMPUTER


def test_play_again_brings_the_computers_back(courses, alice):
    game = roboracer_services.practice_game(user=alice, course=courses["tiny-yard"], opponents=2, strength="hard")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    new, created = rematch.play_again(user=alice, game_id=game.pk)
    new.refresh_from_db()
    assert created and new.status == Game.Status.PROGRAMMING and not new.rated
    assert [(s.number, s.user.username, s.computer) for s in new.seats.order_by("number")] == [
        (1, "alice", ""), (2, "computer-hard-1", "hard"), (3, "computer-hard-2", "hard")]
