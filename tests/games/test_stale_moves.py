"""A move sent from an old view may not replace one stored after it (docs/api.md, "Programs over the socket"):
the defect make test-cluster's partition-web-db found, a program held up on its way to the database stored
over the one its sender had sent again, and acknowledged, through another web host."""

import pytest

from games.models import Game, Program
from games.services import moves
from roboracer.common.errors import Conflict
from tests.games.factories import legal_program, started_game


@pytest.fixture
def game(courses, make_user):
    alice, bob, carol = (make_user(name) for name in ("alice", "bob", "carol"))
    return started_game(users=[alice, bob, carol], course=courses["tiny-yard"]), alice


def _program_of(game, user):
    return Program.objects.get(seat__game=game, seat__user=user, turn=game.turn).chips


@pytest.mark.django_db
def test_a_program_from_a_view_older_than_the_stored_one_is_refused_and_changes_nothing(game):
    game, alice = game
    seen = Game.objects.get(pk=game.pk).version  # both requests were sent from this view
    first, second = legal_program(game, alice, seed=1), legal_program(game, alice, seed=2)
    assert first != second
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=second, version=seen)  # the retry, acked
    version = Game.objects.get(pk=game.pk).version
    with pytest.raises(Conflict, match=f"changed after version {seen}"):
        moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=first, version=seen)  # the late one
    assert _program_of(game, alice) == second
    assert Game.objects.get(pk=game.pk).version == version  # no event either


@pytest.mark.django_db
def test_a_program_from_a_view_that_saw_the_stored_one_replaces_it(game):
    game, alice = game
    first, second = legal_program(game, alice, seed=1), legal_program(game, alice, seed=2)
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=first,
                         version=Game.objects.get(pk=game.pk).version)
    seen = Game.objects.get(pk=game.pk).version  # the view now includes the seat_ready of the first
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=second, version=seen)
    assert _program_of(game, alice) == second


@pytest.mark.django_db
def test_another_seats_program_does_not_make_a_view_stale(game, make_user):
    game, alice = game
    seen = Game.objects.get(pk=game.pk).version
    bob = game.seats.get(number=2).user
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice, seed=1), version=seen)
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob, seed=1), version=seen)
    assert len(_program_of(game, bob)) == 5


@pytest.mark.django_db
def test_without_a_version_the_last_program_sent_wins(game):
    game, alice = game
    seen = Game.objects.get(pk=game.pk).version
    first, second = legal_program(game, alice, seed=1), legal_program(game, alice, seed=2)
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=second, version=seen)
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=first)
    assert _program_of(game, alice) == first
