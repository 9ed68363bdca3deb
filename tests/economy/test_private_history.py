"""Public histories never name a private game (issue 33, item 2): a price point or a rating-history point that
a private game caused carries no game id and no time finer than the day."""

import datetime as dt

import pytest
from rest_framework.test import APIClient

from games.models import Game
from games.selectors import history
from roboracer.economy import services
from roboracer.ratings.models import RatingChange
from tests.ratings.helpers import played

pytestmark = pytest.mark.django_db
AFTERNOON = dt.datetime(2026, 5, 17, 15, 42, 9, 123456, tzinfo=dt.UTC)


def _game(make_user, courses, *, visibility, names):
    users = [make_user(name) for name in names]
    return played(users=users, course=courses["tiny-yard"], visibility=visibility), users


def test_a_price_point_of_a_private_game_names_no_game_and_only_its_day(courses, make_user):
    course = courses["tiny-yard"]
    public, _ = _game(make_user, courses, visibility=Game.Visibility.PUBLIC, names=("ann", "ben"))
    private, _ = _game(make_user, courses, visibility=Game.Visibility.PRIVATE, names=("cat", "dan"))
    before = course.price_points.count()
    for game in (public, private):
        point = services.apply_purchases(course_id=course.pk, modules=["turbo", "shield"], purchases=[("turbo", 1)],
                                         game_id=game.pk, turn=1)
        type(point).objects.filter(pk=point.pk).update(at=AFTERNOON)
    history = APIClient().get(f"/api/courses/{course.slug}/prices/").json()["history"][before:]
    assert history[0]["game"] == public.pk and history[0]["at"] == AFTERNOON.isoformat()
    assert history[1]["game"] is None
    assert history[1]["at"] == "2026-05-17T00:00:00+00:00"
    assert set(history[1]) == {"at", "game", "prices"}


def test_a_rating_point_of_a_private_game_names_no_game_and_only_its_day(courses, make_user):
    public, (ann, _) = _game(make_user, courses, visibility=Game.Visibility.PUBLIC, names=("ann", "ben"))
    private = played(users=[ann, make_user("cat")], course=courses["tiny-yard"], visibility=Game.Visibility.PRIVATE)
    assert RatingChange.objects.filter(user=ann).count() == 2  # both rated
    RatingChange.objects.filter(user=ann).update(created_at=AFTERNOON)
    stranger = APIClient()
    stranger.force_authenticate(make_user("eve"))
    body = stranger.get(f"/api/players/{ann.username}/").json()
    public_point, private_point = body["history"]
    assert public_point["at"] == AFTERNOON.isoformat()
    assert private_point["at"] == "2026-05-17T00:00:00+00:00"
    assert set(private_point) == {"at", "rating"}
    points = history.rating_history(user=ann, kind="roboracer")
    assert [p["game"] for p in points] == [public.pk, None]
    assert private.pk not in [p["game"] for p in points]
