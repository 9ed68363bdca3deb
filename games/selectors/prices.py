"""Module prices as games see them: the prices a new game starts from, and a course's prices with their history
(GET /api/courses/<slug>/prices/, games.api.prices). The book itself is roboracer.economy's; how many games on a
course finished, and which of them are private, are games' rows (docs/architecture.md "Layers")."""

from __future__ import annotations

from games.models import Game
from games.selectors.history import day_of
from roboracer.courses.models import Course
from roboracer.economy import selectors as economy
from roboracer.economy.models import PricePoint

HISTORY_POINTS = 300  # the most points GET /api/courses/<slug>/prices/ returns (the newest ones)


def finished_games(*, course: Course) -> int:
    return Game.objects.filter(course=course, status=Game.Status.FINISHED).count()


def starting_prices(*, course: Course, modules) -> dict[str, int]:
    """The prices a new game on `course` with these available `modules` starts from (economy.starting_prices,
    with the course's finished games counted here)."""
    modules = list(modules)
    if not modules:
        return {}
    return economy.starting_prices(course=course, modules=modules, finished=finished_games(course=course))


def course_prices(*, course: Course) -> dict:
    """GET /api/courses/<slug>/prices/: the book, where a new game would start from, and the history (oldest
    first, at most HISTORY_POINTS: the newest ones)."""
    finished = finished_games(course=course)
    points = list(
        PricePoint.objects.filter(course=course).order_by("-id")
        .values("at", "game_id", "game__visibility", "prices")[:HISTORY_POINTS]
    )
    return {
        "course": course.slug,
        "finished_games": finished,
        "source": economy.price_source(finished=finished),
        "prices": economy.book(course=course),
        # A point a private game caused names no game and no time finer than its day (docs/ratings.md "The history
        # names no private game"): its game is null and its `at` the day's start, 00:00 UTC.
        "history": [
            {"at": point["at"].isoformat(), "game": point["game_id"], "prices": point["prices"]}
            if point["game_id"] is None or point["game__visibility"] == Game.Visibility.PUBLIC else
            {"at": day_of(point["at"]).isoformat(), "game": None, "prices": point["prices"]}
            for point in reversed(points)
        ],
    }
