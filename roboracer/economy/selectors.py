"""Reads of the module price book (docs/rules.md "The module economy on the site")."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Avg

from engine import MODULE_NAMES
from engine.modules.economy import BASE_PRICES, PRICE_FLOOR, PRICE_MAX
from roboracer.courses.models import Course
from roboracer.economy.models import ModulePrice, PricePoint

# A course's own book prices its new games once this many games on it have finished; before that, new games
# start from the all-course average (003 "The Economy": "if the board is relatively new, on the overall
# economy across all boards").
MIN_FINISHED_GAMES = 5
HISTORY_POINTS = 300  # the most points GET /api/courses/<slug>/prices/ returns (the newest ones)


def _whole(value) -> int:
    """A price as a whole number: rounded half up, within the floor and the maximum."""
    rounded = int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return max(PRICE_FLOOR, min(PRICE_MAX, rounded))


def day_of(at: dt.datetime) -> dt.datetime:
    """The start (00:00 UTC) of the day of the aware datetime `at`."""
    return at.astimezone(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def book(*, course: Course) -> dict[str, int]:
    """The course's book for all 17 modules: its rows, the base price for a module without one."""
    rows = dict(ModulePrice.objects.filter(course=course).values_list("module", "price"))
    return {name: rows.get(name, BASE_PRICES[name]) for name in MODULE_NAMES}


def site_average() -> dict[str, int]:
    """Each module's price averaged over every course's book (rounded half up), the base price for a module no
    course has a row for."""
    averages = {
        row["module"]: row["average"]
        for row in ModulePrice.objects.values("module").annotate(average=Avg("price"))
    }
    return {
        name: _whole(averages[name]) if averages.get(name) is not None else BASE_PRICES[name]
        for name in MODULE_NAMES
    }


def finished_games(*, course: Course) -> int:
    from games.models import Game

    return Game.objects.filter(course=course, status=Game.Status.FINISHED).count()


def price_source(*, course: Course, finished: int | None = None) -> str:
    """Where a new game on this course takes its prices from: "course" (its own book) or "site"."""
    finished = finished_games(course=course) if finished is None else finished
    return "course" if finished >= MIN_FINISHED_GAMES else "site"


def starting_prices(*, course: Course, modules) -> dict[str, int]:
    """The prices a new game on `course` with these available `modules` starts from."""
    modules = list(modules)
    if not modules:
        return {}
    prices = book(course=course) if price_source(course=course) == "course" else site_average()
    return {name: prices[name] for name in MODULE_NAMES if name in modules}


def course_prices(*, course: Course) -> dict:
    """GET /api/courses/<slug>/prices/: the book, where a new game would start from, and the history (oldest
    first, at most HISTORY_POINTS: the newest ones)."""
    finished = finished_games(course=course)
    from games.models import Game

    points = list(
        PricePoint.objects.filter(course=course).order_by("-id")
        .values("at", "game_id", "game__visibility", "prices")[:HISTORY_POINTS]
    )
    return {
        "course": course.slug,
        "finished_games": finished,
        "source": price_source(course=course, finished=finished),
        "prices": book(course=course),
        # A point a private game caused names no game and no time finer than its day (docs/ratings.md "The history
        # names no private game"): its game is null and its `at` the day's start, 00:00 UTC.
        "history": [
            {"at": point["at"].isoformat(), "game": point["game_id"], "prices": point["prices"]}
            if point["game_id"] is None or point["game__visibility"] == Game.Visibility.PUBLIC else
            {"at": day_of(point["at"]).isoformat(), "game": None, "prices": point["prices"]}
            for point in reversed(points)
        ],
    }
