"""Ratings under concurrency, on PostgreSQL: two games with a common new player finish at the same moment,
and the same game's last turn is resolved twice at once. Row locks (in user id order) and the unique
constraint keep every update: no lost update, no second rating, no deadlock."""

import threading

import pytest
from django.db import connection
from django.db.models import Count

from games.models import Game, Hand
from games.services import moves, organisers, turns
from roboracer.ratings import services as rating_services
from roboracer.ratings.models import Rating, RatingChange
from tests.helpers import wait_until
from tests.integration.conftest import needs_postgres
from tests.integration.test_concurrency import together
from tests.ratings.helpers import BACK_OFF, HAND, STAY

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True), needs_postgres()]


def _ready(game, *, loser: int = 1) -> None:
    """Both programs in but the turn not resolved (submit_program would resolve it in the same thread: the
    last program schedules the resolution on commit, which this test runs itself in threads)."""
    for seat in game.seats.all():
        Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
        moves.submit_program(user=seat.user, game_id=game.pk, turn=1,
                                chips=BACK_OFF if seat.number == loser else STAY)


def _game(creator, users, course) -> Game:
    return organisers.create_seated_game(creator=creator, users=users, course=course, lives=1)


def waiting_for_a_lock() -> int:
    """Other sessions of the test database that wait for a lock (a row lock, or a conflicting insert)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # not the view as this transaction first read it
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
        return cursor.fetchone()[0]


class SlowModel:
    """OpenSkill's model, holding the first game's rating until the other game's rating has come as far as it
    can: waiting for a lock this one holds, or (were there none) in `rate` too. The two ratings overlap in time."""

    def __init__(self, model):
        self.model = model
        self.rating = model.rating
        self.calls = 0
        self.lock = threading.Lock()

    def rate(self, *args, **kwargs):
        with self.lock:
            self.calls += 1
        wait_until(lambda: self.calls >= 2 or waiting_for_a_lock(), "the other game's rating to wait or rate too",
                   timeout=30)
        return self.model.rate(*args, **kwargs)


@pytest.mark.parametrize("known", [False, True], ids=["new player", "rated player"])
def test_two_games_sharing_a_player_finish_at_once_and_both_count(courses, make_user, monkeypatch, known):
    """A new player's Rating row is inserted by both (the second insert waits for the first and is skipped);
    a rated player's row is locked by both (the second lock waits): either way nothing is lost."""
    monkeypatch.setattr(rating_services, "MODEL", SlowModel(rating_services.MODEL))
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    if known:
        Rating.objects.create(user=ann, mu=26.0, sigma=5.0, games=3)
    first = _game(ann, [ann, ben], courses["tiny-yard"])  # ann loses to ben
    second = _game(ann, [ann, cat], courses["tiny-yard"])  # ann loses to cat
    for game in (first, second):
        _ready(game)
    results = together(2, lambda i: turns.resolve_turn(game_id=(first, second)[i].pk, turn=1))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
    assert RatingChange.objects.count() == 4
    ann_rating = Rating.objects.get(user=ann)
    assert ann_rating.games == (5 if known else 2)
    # Serialised by the row lock: the second game started from the first game's result.
    changes = list(RatingChange.objects.filter(user=ann).order_by("id"))
    assert changes[1].mu_before == pytest.approx(changes[0].mu_after)
    assert changes[1].sigma_before == pytest.approx(changes[0].sigma_after)
    assert ann_rating.mu == pytest.approx(changes[1].mu_after)


def test_the_last_turn_resolved_twice_at_once_rates_once(courses, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    game = _game(ann, [ann, ben], courses["tiny-yard"])
    _ready(game)
    together(4, lambda i: turns.resolve_turn(game_id=game.pk, turn=1))
    assert RatingChange.objects.filter(game=game).count() == 2
    assert not RatingChange.objects.values("user", "game").annotate(n=Count("id")).filter(n__gt=1).exists()
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1]
