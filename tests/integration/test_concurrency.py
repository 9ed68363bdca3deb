"""Exactly-once under concurrency, on PostgreSQL (row locks and unique constraints do the work; SQLite
serialises every writer, so there is nothing to race there and these tests need PostgreSQL)."""

import threading

import pytest
from django.db import connection, transaction

from games.models import Game, GameEvent, Program, Turn
from games.services import moves, turns
from tests.games.factories import legal_program, started_game
from tests.helpers import wait_until
from tests.integration.client import Player
from tests.integration.conftest import needs_postgres

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    needs_postgres(),
]


def together(count: int, work) -> list:
    """Run work(i) in `count` threads released at the same moment; results (or exceptions) in order."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as error:  # noqa: BLE001 - reported to the test as a value
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_fifty_concurrent_submissions_for_one_seat_store_one_program(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    programs = [legal_program(game, alice, seed) for seed in range(50)]
    results = together(50, lambda i: moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=programs[i]))
    assert not [r for r in results if isinstance(r, Exception)]
    stored = Program.objects.filter(seat__game=game, seat__user=alice, turn=1)
    assert stored.count() == 1 and stored.get().chips in programs
    assert GameEvent.objects.filter(game=game, kind="seat_ready").count() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING  # bob has not moved


def test_concurrent_resolutions_store_the_turn_once(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    with transaction.atomic():
        for user in (alice, bob):
            moves.submit_program(user=user, game_id=game.pk, turn=1, chips=legal_program(game, user))
        # The turn is this test's eight threads' to race for: the resolution task the last program schedules
        # after the commit is dropped, or a live stack's worker (started by an earlier test of the session)
        # would resolve it first.
        connection.run_on_commit.clear()
    results = together(8, lambda i: turns.resolve_turn(game_id=game.pk, turn=1))
    assert sum(isinstance(r, Turn) for r in results) == 1 and results.count(None) == 7
    assert Turn.objects.filter(game=game).count() == 1
    assert GameEvent.objects.filter(game=game, kind="turn_resolved").count() == 1


def test_the_last_two_programs_arriving_together_resolve_the_turn_once(live_stack, courses):
    players = [Player(live_stack.base_url, name) for name in ("ann", "ben", "cat")]
    game_id = players[0].post("/api/games/", {"course": "bolt-bay", "max_seats": 3}).json()["id"]
    for player in players[1:]:
        assert player.post(f"/api/games/{game_id}/join/").status_code == 200
    game = Game.objects.get(pk=game_id)
    users = [seat.user for seat in game.seats.order_by("number")]
    chips = [legal_program(game, user) for user in users]
    assert players[0].post(f"/api/games/{game_id}/program/", {"turn": 1, "chips": chips[0]}).status_code == 200
    answers = together(2, lambda i: players[i + 1].post(f"/api/games/{game_id}/program/", {"turn": 1, "chips": chips[i + 1]}))
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
    wait_until(lambda: Game.objects.get(pk=game_id).turn >= 2, "the worker to resolve the turn", timeout=30)
    assert Game.objects.get(pk=game_id).turn == 2, "the worker did not resolve the turn"
    live_stack.caught_up()  # every resolution task queued has run: a second (wrong) execution would show now
    assert GameEvent.objects.filter(game_id=game_id, kind="turn_executing").count() == 1
    assert GameEvent.objects.filter(game_id=game_id, kind="turn_resolved").count() == 1
    assert Turn.objects.filter(game_id=game_id).count() == 1
