"""Two challenge games ending at the same moment on the real stack: players on HTTP, a Celery worker with two
processes resolving both last turns at once, PostgreSQL. The places change once per game and stay a pyramid."""

import threading

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Hand
from roboracer.pyramid.models import Challenge, Entry, Place
from tests import live
from tests.conftest import LOG_DIR, _database_url
from tests.helpers import wait_until
from tests.integration.client import Player
from tests.pyramid.factories import BACK_OFF, HAND, STAY, pyramid

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def stack():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")
    running = live.start(env={"DATABASE_URL": _database_url(), "REDIS_URL": settings.REDIS_URL},
                         log_dir=LOG_DIR / "pyramid", worker_concurrency=2, name="pyramid")
    yield running
    running.stop()


def test_two_challenges_sharing_a_player_end_together_on_the_real_stack(stack, courses):
    base = stack.base_url
    pyr = pyramid(courses=courses)
    players = {name: Player(base, name) for name in ("ann", "ben", "cat", "dan", "eve")}
    spots = {"ann": (1, 1), "ben": (2, 1), "cat": (2, 2), "dan": (3, 1), "eve": (3, 2)}
    users = {u.username: u for u in get_user_model().objects.filter(username__in=players)}
    for name, (row, position) in spots.items():
        Place.objects.create(pyramid=pyr, user=users[name], row=row, position=position, points=2)

    made = {}
    for challenger, defender in (("dan", "ben"), ("eve", "dan")):
        answer = players[challenger].post(f"/api/pyramids/{pyr.slug}/challenges/", {"player": defender})
        assert answer.status_code == 201, answer.text
        made[challenger] = answer.json()
    for challenge in made.values():
        Hand.objects.filter(seat__game_id=challenge["game"], turn=1).update(chips=HAND)
        # The challengers keep to the course; their programs go in first.
        assert players[challenge["challenger"]].post(
            f"/api/games/{challenge['game']}/program/", {"turn": 1, "chips": STAY}).status_code in (200, 201)

    barrier = threading.Barrier(2)
    answers = []

    def last_program(challenge):
        barrier.wait()
        answers.append(players[challenge["defender"]].post(
            f"/api/games/{challenge['game']}/program/", {"turn": 1, "chips": BACK_OFF}).status_code)

    threads = [threading.Thread(target=last_program, args=(c,)) for c in made.values()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) in ([200, 200], [201, 201], [200, 201])

    wait_until(lambda: not Challenge.objects.filter(pyramid=pyr, status=Challenge.Status.OPEN).exists(),
               "the worker to finish both games", timeout=60)
    assert set(Challenge.objects.filter(pyramid=pyr).values_list("status", flat=True)) == {
        Challenge.Status.CHALLENGER_WON}
    got = {p.user.username: p.rank for p in Place.objects.filter(pyramid=pyr).select_related("user")}
    dan_first = {"ann": (1, 1), "eve": (2, 1), "cat": (2, 2), "ben": (3, 1), "dan": (3, 2)}
    eve_first = {"ann": (1, 1), "dan": (2, 1), "cat": (2, 2), "eve": (3, 1), "ben": (3, 2)}
    assert got in (dan_first, eve_first)
    assert Entry.objects.filter(pyramid=pyr, kind=Entry.Kind.SWAPPED).count() == 2
    # The page and the API agree with the database.
    state = players["ann"].get(f"/api/pyramids/{pyr.slug}/")
    assert {p["username"]: (p["row"], p["position"]) for row in state["rows"] for p in row if p} == got
