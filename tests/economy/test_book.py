"""The module price book (roboracer.economy): purchases move it by 003's rule with the floor, the starting
prices of a new game, the site average, and GET /api/courses/<slug>/prices/."""

import random

import pytest
from rest_framework.test import APIClient

from engine import MODULE_NAMES
from engine.modules.economy import BASE_PRICES
from roboracer.economy import selectors, services
from roboracer.economy.models import ModulePrice, PricePoint
from tests.economy.replay_book import apply_in_order

pytestmark = pytest.mark.django_db


def book_of(course) -> dict[str, int]:
    return dict(ModulePrice.objects.filter(course=course).values_list("module", "price"))


def test_purchases_move_the_book_like_the_engine_one_after_another(courses):
    course = courses["tiny-yard"]
    services.ensure_book(course_id=course.pk)
    ModulePrice.objects.filter(course=course, module__in=["repair", "shield"]).update(price=13)  # near the floor
    start = book_of(course)
    rng = random.Random(3)
    purchases = []
    for turn in range(40):
        modules = sorted(rng.sample(MODULE_NAMES, rng.randint(1, 6)) + ["repair", "shield"])
        modules = sorted(set(modules))
        bought = [(rng.choice(modules), rng.randint(1, 5)) for _ in range(rng.randint(1, 3))]
        services.apply_purchases(course_id=course.pk, modules=modules, purchases=bought, turn=turn)
        purchases += [(module, charges, modules) for module, charges in bought]
    assert book_of(course) == apply_in_order(start, purchases)
    assert min(book_of(course).values()) >= 10
    assert PricePoint.objects.filter(course=course).count() == 40
    assert PricePoint.objects.filter(course=course).last().prices == book_of(course)


def test_003s_example_moves_the_book(courses):
    course = courses["tiny-yard"]
    services.apply_purchases(course_id=course.pk, modules=["turbo", "shield", "repair"], purchases=[("turbo", 2)])
    book = book_of(course)
    assert (book["turbo"], book["shield"], book["repair"]) == (258, 196, 146)
    assert book["blaster"] == BASE_PRICES["blaster"]  # not available in that game: unmoved


def test_nothing_bought_writes_nothing(courses):
    assert services.apply_purchases(course_id=courses["tiny-yard"].pk, modules=["turbo"], purchases=[]) is None
    assert not PricePoint.objects.exists() and not ModulePrice.objects.exists()


def test_site_average_rounds_half_up_and_base_prices_fill_in(courses):
    ModulePrice.objects.create(course=courses["tiny-yard"], module="turbo", price=100)
    ModulePrice.objects.create(course=courses["bolt-bay"], module="turbo", price=101)
    average = selectors.site_average()
    assert average["turbo"] == 101 and average["drone"] == BASE_PRICES["drone"]
    assert selectors.starting_prices(course=courses["tiny-yard"], modules=["turbo", "drone"], finished=0) == \
        {"drone": 300, "turbo": 101}
    assert selectors.starting_prices(course=courses["tiny-yard"], modules=[], finished=0) == {}


def test_the_prices_endpoint(courses, make_user):
    course = courses["tiny-yard"]
    services.apply_purchases(course_id=course.pk, modules=["turbo", "shield"], purchases=[("turbo", 1)])
    services.apply_purchases(course_id=course.pk, modules=["turbo", "shield"], purchases=[("shield", 1)])
    body = APIClient().get(f"/api/courses/{course.slug}/prices/").json()
    assert body["course"] == course.slug and body["finished_games"] == 0 and body["source"] == "site"
    assert set(body["prices"]) == set(MODULE_NAMES) and body["prices"]["turbo"] == 250
    assert [point["prices"]["turbo"] for point in body["history"]] == [252, 250]  # oldest first
    assert body["history"][0]["game"] is None and body["history"][0]["at"]
    assert APIClient().get("/api/courses/no-such-course/prices/").status_code == 404
    fresh = APIClient().get(f"/api/courses/{courses['bolt-bay'].slug}/prices/").json()
    assert fresh["prices"] == {name: BASE_PRICES[name] for name in MODULE_NAMES} and fresh["history"] == []


def test_a_private_draft_course_is_missing_to_strangers(courses, make_user):
    from roboracer.courses.models import Course

    course = courses["tiny-yard"]
    Course.objects.filter(pk=course.pk).update(state="private")
    client = APIClient()
    client.force_authenticate(make_user("eve"))
    assert client.get(f"/api/courses/{course.slug}/prices/").status_code == 404
