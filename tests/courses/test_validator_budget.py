"""Issue 33, item 1: the course validator's cost is bounded. A reachability search is linear in the squares
(the teleporters of a colour are one hub, never every pair), and one request's check has a CPU budget: past
it the answer is a 422 saying the course is too complex, on validate, create and update, and nothing changes.
docs/course-builder.md "Validator: cost"."""

import pytest
from rest_framework.test import APIClient

import engine
from engine.builder import reachable
from roboracer.courses.models import Course
from tests.bench.course_validation import CHECKPOINTS, STARTS, worst_course


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def search_work(side: int) -> int:
    """The units one search from a corner counts on a side x side course all under red teleporters."""
    course = engine.parse_course(worst_course(side, checkpoints=1))
    budget = engine.StepBudget(10**12)
    found = reachable(course, (0, 0), budget=budget)
    assert len(found) == side * side  # every square leads to every other through the hub
    return budget.spent


def test_a_search_is_linear_in_the_squares_the_teleporters_of_a_colour_one_hub():
    small, big = search_work(16), search_work(32)
    # Four times the squares: about four times the work (every pair of teleporters would be sixteen).
    assert big <= 4.5 * small
    assert big <= 12 * 32 * 32


def test_the_worst_course_within_the_limits_takes_a_bounded_amount_of_work():
    data = worst_course()
    squares, searches = 64 * 64, STARTS + CHECKPOINTS - 1
    budget = engine.StepBudget(12 * squares * searches)
    assert engine.validate_course(data, budget=budget) == {"errors": [], "warnings": []}
    assert budget.spent <= 12 * squares * searches


def test_a_step_budget_that_runs_out_says_the_course_is_too_complex():
    with pytest.raises(engine.TooComplex, match="too complex to check"):
        engine.validate_course(worst_course(16), budget=engine.StepBudget(1000))


@pytest.mark.django_db
def test_the_worst_course_validates_on_the_site_within_its_budget(make_user):
    answer = api(make_user("ada")).post("/api/courses/validate/", worst_course(), format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"errors": [], "warnings": []}


@pytest.fixture
def no_cpu(settings):
    settings.COURSE_CHECK_CPU_SECONDS = 0  # every check runs out at its first reading of the clock


@pytest.mark.django_db
def test_past_the_budget_validate_is_a_422_that_says_too_complex(make_user, no_cpu):
    answer = api(make_user("ada")).post("/api/courses/validate/", worst_course(16), format="json")
    assert answer.status_code == 422, answer.content
    assert "too complex to check" in answer.json()["detail"]


@pytest.mark.django_db
def test_past_the_budget_create_is_a_422_and_makes_no_course(make_user, no_cpu):
    answer = api(make_user("ada")).post("/api/courses/", {"data": worst_course(16)}, format="json")
    assert answer.status_code == 422, answer.content
    assert "too complex to check" in answer.json()["detail"]
    assert not Course.objects.exists()


@pytest.mark.django_db
def test_past_the_budget_update_is_a_422_and_changes_nothing(make_user, settings):
    ada = make_user("ada")
    made = api(ada).post("/api/courses/", {"data": worst_course(8, checkpoints=20)}, format="json")
    assert made.status_code == 201, made.content
    slug = made.json()["slug"]
    before = Course.objects.get(slug=slug).data
    settings.COURSE_CHECK_CPU_SECONDS = 0
    answer = api(ada).put(f"/api/courses/{slug}/", {"data": worst_course(16)}, format="json")
    assert answer.status_code == 422, answer.content
    assert "too complex to check" in answer.json()["detail"]
    assert Course.objects.get(slug=slug).data == before and Course.objects.count() == 1
