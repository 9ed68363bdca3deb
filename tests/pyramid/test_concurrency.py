"""Two challenge games finishing at the same moment, on PostgreSQL with real threads and connections: each
game's end locks its own game row and then the pyramid row, so the two swaps run one after the other and the
rows stay a pyramid (every place held once), whichever goes first."""

import threading

import pytest
from django.db import close_old_connections, connection

from games.models import Game
from games.services import turns
from roboracer.pyramid import services
from roboracer.pyramid.models import Challenge, Entry, Place
from tests.pyramid.factories import BACK_OFF, STAY, place, pyramid, submit_turn_one

pytestmark = pytest.mark.django_db(transaction=True)


def finish_together(games: list[Game]) -> list:
    """Resolve each game's turn 1 (both programs in) in its own thread, all released at once."""
    barrier = threading.Barrier(len(games))
    errors: list = []

    def run(game):
        try:
            barrier.wait()
            turns.resolve_turn(game_id=game.pk, turn=1)
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return errors


def ranks(pyr):
    return {p.user.username: p.rank for p in Place.objects.filter(pyramid=pyr).select_related("user")}


def assert_a_pyramid(pyr, count):
    taken = sorted(ranks(pyr).values())
    assert taken == sorted((row, pos) for row in range(1, 4) for pos in range(1, row + 1))[:count]


@pytest.fixture
def ladder(courses, make_user):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent row locks need PostgreSQL (set DATABASE_URL)")
    pyr = pyramid(courses=courses)
    names = ["ann", "ben", "cat", "dan", "eve", "fay"]
    spots = [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3)]
    users = {name: make_user(name) for name in names}
    for name, spot in zip(names, spots, strict=True):
        place(pyr, users[name], *spot)
    return pyr, users


def ready(challenge, winner):
    game = Game.objects.get(pk=challenge.game_id)
    submit_turn_one(game, {1: STAY if winner == 1 else BACK_OFF, 2: STAY if winner == 2 else BACK_OFF})
    return game


def test_two_unrelated_swaps_finishing_together(ladder):
    pyr, users = ladder
    a = services.create_challenge(user=users["eve"], slug=pyr.slug, player="ben")
    b = services.create_challenge(user=users["fay"], slug=pyr.slug, player="cat")
    assert finish_together([ready(a, 1), ready(b, 1)]) == []
    assert ranks(pyr) == {"ann": (1, 1), "eve": (2, 1), "fay": (2, 2), "dan": (3, 1), "ben": (3, 2), "cat": (3, 3)}
    assert set(Challenge.objects.values_list("status", flat=True)) == {Challenge.Status.CHALLENGER_WON}
    assert Entry.objects.filter(kind=Entry.Kind.SWAPPED).count() == 2


def test_two_swaps_sharing_a_player_finishing_together(ladder):
    # dan (3,1) challenges ben (2,1) while eve (3,2) challenges dan: both challengers win at the same moment.
    pyr, users = ladder
    by_dan = services.create_challenge(user=users["dan"], slug=pyr.slug, player="ben")
    by_eve = services.create_challenge(user=users["eve"], slug=pyr.slug, player="dan")
    assert finish_together([ready(by_dan, 1), ready(by_eve, 1)]) == []
    got = ranks(pyr)
    dan_first = {"ann": (1, 1), "eve": (2, 1), "cat": (2, 2), "ben": (3, 1), "dan": (3, 2), "fay": (3, 3)}
    eve_first = {"ann": (1, 1), "dan": (2, 1), "cat": (2, 2), "eve": (3, 1), "ben": (3, 2), "fay": (3, 3)}
    assert got in (dan_first, eve_first)
    assert_a_pyramid(pyr, 6)
    assert Entry.objects.filter(kind=Entry.Kind.SWAPPED).count() == 2


def test_a_swap_and_a_defence_of_the_same_defender_finishing_together(ladder):
    pyr, users = ladder
    a = services.create_challenge(user=users["ben"], slug=pyr.slug, player="ann")
    b = services.create_challenge(user=users["cat"], slug=pyr.slug, player="ann")
    assert finish_together([ready(a, 1), ready(b, 2)]) == []
    got = ranks(pyr)
    # ben took ann's place; cat lost to ann, so ann earned a point, wherever she is now.
    assert got["ben"] == (1, 1) and got["ann"] == (2, 1) and got["cat"] == (2, 2)
    assert Place.objects.get(user=users["ann"]).points == 3
    assert_a_pyramid(pyr, 6)
