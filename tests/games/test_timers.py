"""Move and game timers in the services: clocks start on the deal, reload on submit, and the beat task
applies the game's timeout policy."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, GameEvent, Program, Seat
from games.services import chat, lobby, moves, timeouts, turns
from roboracer.common.errors import InvalidInput
from tests.games.factories import legal_program, started_game


@pytest.fixture
def trio(make_user):
    return make_user("alice"), make_user("bob"), make_user("carol")


def _seat(game, user) -> Seat:
    return Seat.objects.get(game=game, user=user)


def test_deal_starts_every_clock_at_the_preset(courses, trio):
    game = started_game(users=trio, course=courses["bolt-bay"])
    assert (game.move_time, game.game_time) == (120, 600)
    for user in trio:
        seat = _seat(game, user)
        assert seat.clock_started_at is not None and (seat.move_left, seat.game_left) == (120, 600)
        assert seat.deadline == seat.clock_started_at + timedelta(seconds=720)
    clocks = GameEvent.objects.filter(game=game, kind="clocks").last()
    assert [s["clock_running"] for s in clocks.data["seats"]] == [True, True, True]


def test_submit_stops_the_clock_and_reloads(courses, trio):
    alice, bob, carol = trio
    game = started_game(users=trio, course=courses["bolt-bay"])
    # Alice has used 100 s of her move time; bob and carol still think, so she reloads to the maximum.
    Seat.objects.filter(game=game, user=alice).update(clock_started_at=timezone.now() - timedelta(seconds=100))
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice))
    seat = _seat(game, alice)
    assert seat.clock_started_at is None and seat.deadline is None
    assert seat.move_left == 120 and seat.game_left == 600
    # Bob spends 150 s: all of his move time and 30 s of game time.
    Seat.objects.filter(game=game, user=bob).update(clock_started_at=timezone.now() - timedelta(seconds=150))
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob))
    seat = _seat(game, bob)
    assert seat.move_left == 120 and 569 <= seat.game_left <= 570.5
    # Carol is last: everyone else is ready, so her move time grows by half the maximum (from 20 s to 80 s).
    Seat.objects.filter(game=game, user=carol).update(clock_started_at=timezone.now() - timedelta(seconds=100))
    moves.submit_program(user=carol, game_id=game.pk, turn=1, chips=legal_program(game, carol))
    seat = _seat(game, carol)
    assert 79 <= seat.move_left <= 80.5 and seat.game_left == 600


def test_the_next_deal_starts_each_clock_from_what_that_seat_has_left(courses, trio):
    alice, bob, carol = trio
    game = started_game(users=trio, course=courses["bolt-bay"])
    # Bob and carol each spend some game time; alice does not. Move times reload on submit.
    for user, spent in ((alice, 0), (bob, 150), (carol, 200)):
        Seat.objects.filter(game=game, user=user).update(clock_started_at=timezone.now() - timedelta(seconds=spent))
        moves.submit_program(user=user, game_id=game.pk, turn=1, chips=legal_program(game, user))
    left = {user.pk: _seat(game, user).move_left + _seat(game, user).game_left for user in trio}
    assert len({round(total) for total in left.values()}) == 3  # three different deadlines to come
    turns.resolve_turn(game_id=game.pk, turn=1)
    for user in trio:
        seat = _seat(game, user)
        assert seat.clock_started_at is not None
        assert seat.deadline == seat.clock_started_at + timedelta(seconds=left[user.pk])
        assert not seat.expired
    clocks = GameEvent.objects.filter(game=game, kind="clocks").last()
    assert [s["clock_running"] for s in clocks.data["seats"]] == [True, True, True]


def test_changing_a_program_does_not_reload_again(courses, trio):
    alice = trio[0]
    game = started_game(users=trio, course=courses["bolt-bay"])
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice))
    Seat.objects.filter(game=game, user=alice).update(move_left=5)
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice, seed=1))
    assert _seat(game, alice).move_left == 5


def _expire(game, user):
    Seat.objects.filter(game=game, user=user).update(deadline=timezone.now() - timedelta(seconds=1))


def test_wait_policy_marks_expired_once_and_waits_for_eject(courses, trio):
    alice, bob, carol = trio
    game = started_game(users=trio, course=courses["bolt-bay"])
    _expire(game, carol)
    assert timeouts.due_games() == [game.pk]
    assert timeouts.enforce_deadline(game_id=game.pk) == "expired"
    assert _seat(game, carol).expired and _seat(game, carol).ejected_at is None
    assert timeouts.due_games() == []  # nothing more to do for a waiting game
    assert timeouts.enforce_deadline(game_id=game.pk) is None
    assert GameEvent.objects.filter(game=game, kind="timer_expired").count() == 1
    # Only carol's timer ran out: !eject ejects her and nobody else.
    answer = chat.post_chat(user=alice, game_id=game.pk, text="!eject")
    assert answer == {"command": "eject", "ejected": [3]}
    assert _seat(game, carol).ejected_at is not None and _seat(game, bob).ejected_at is None


def test_eject_policy_ejects_at_once(courses, trio):
    game = started_game(users=trio, course=courses["bolt-bay"])
    Game.objects.filter(pk=game.pk).update(timeout_policy="eject")
    _expire(game, trio[1])
    assert timeouts.enforce_deadline(game_id=game.pk) == "ejected"
    game.refresh_from_db()
    assert _seat(game, trio[1]).ejected_by == "timer"
    assert not any(b["lives"] for b in game.state["bots"] if b["id"] == "2")


def test_random_policy_plays_a_legal_program_for_the_seat(courses, trio):
    alice, bob, carol = trio
    game = started_game(users=trio, course=courses["bolt-bay"])
    Game.objects.filter(pk=game.pk).update(timeout_policy="random")
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice))
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob))
    _expire(game, carol)
    assert timeouts.enforce_deadline(game_id=game.pk) == "random"
    program = Program.objects.get(seat__game=game, seat__user=carol, turn=1)
    assert len(program.chips) == 5
    game.refresh_from_db()
    assert game.status == Game.Status.RESOLVING  # the random program was the last one in
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    assert game.turn == 2 and game.status == Game.Status.PROGRAMMING


def test_eject_before_any_timer_runs_out_ejects_nobody(courses, trio):
    game = started_game(users=trio, course=courses["bolt-bay"])
    assert chat.post_chat(user=trio[0], game_id=game.pk, text="!eject") == {"command": "eject", "ejected": []}
    assert not Seat.objects.filter(game=game, ejected_at__isnull=False).exists()


def test_custom_timers_are_checked(courses, make_user):
    alice = make_user("alice")
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], timer_preset="custom", move_time=300,
                                game_time=0)
    assert (game.move_time, game.game_time) == (300, 0)
    with pytest.raises(InvalidInput, match="move_time"):
        lobby.create_game(user=alice, course=courses["bolt-bay"], timer_preset="custom", move_time=1,
                             game_time=10)
    with pytest.raises(InvalidInput, match="need move_time"):
        lobby.create_game(user=alice, course=courses["bolt-bay"], timer_preset="custom")
    daily = lobby.create_game(user=alice, course=courses["bolt-bay"], timer_preset="tournament")
    assert (daily.move_time, daily.game_time) == (3 * 86400, 15 * 86400)
