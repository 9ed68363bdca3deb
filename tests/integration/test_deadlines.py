"""Deadlines are enforced by the real beat task in a real worker: a seat whose game time has run out is
ejected (policy "eject") or played for (policy "random") without anyone asking."""

import pytest
from django.utils import timezone

from games.models import Game, GameEvent, Program, Seat
from tests.conftest import launch
from tests.helpers import wait_until
from tests.integration.client import Player

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("policy", ["eject", "random"])
def test_the_beat_task_applies_the_timeout_policy(private_redis, courses, policy):
    stack = launch(f"deadline-{policy}", private_redis["url"], beat=True)
    try:
        players = [Player(stack.base_url, name) for name in ("ann", "ben", "cat")]
        created = players[0].post("/api/games/", {"course": "bolt-bay", "max_seats": 3, "timeout_policy": policy})
        game_id = created.json()["id"]
        for player in players[1:]:
            assert player.post(f"/api/games/{game_id}/join/").status_code == 200
        # Cat's clocks run out now (rather than in twelve minutes).
        Seat.objects.filter(game_id=game_id, number=3).update(deadline=timezone.now())
        if policy == "eject":
            wait_until(lambda: Seat.objects.get(game_id=game_id, number=3).ejected_at is not None, "the ejection")
            assert Seat.objects.get(game_id=game_id, number=3).ejected_by == "timer"
            assert GameEvent.objects.filter(game_id=game_id, kind="seats_ejected").count() == 1
        else:
            wait_until(lambda: Program.objects.filter(seat__game_id=game_id, seat__number=3).exists(), "a program")
            assert GameEvent.objects.get(game_id=game_id, kind="seat_ready").data == {"seat": 3, "random": True}
        assert GameEvent.objects.filter(game_id=game_id, kind="timer_expired").count() == 1
        assert Game.objects.get(pk=game_id).status == Game.Status.PROGRAMMING  # ann and ben still think
    finally:
        stack.stop()
