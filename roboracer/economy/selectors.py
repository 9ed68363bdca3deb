"""Reads of the module price book (docs/rules.md "The module economy on the site")."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Avg

from engine import MODULE_NAMES
from engine.modules.economy import BASE_PRICES, PRICE_FLOOR, PRICE_MAX
from roboracer.courses.models import Course
from roboracer.economy.models import ModulePrice

# A course's own book prices its new games once this many games on it have finished; before that, new games
# start from the all-course average (003 "The Economy": "if the board is relatively new, on the overall
# economy across all boards").
MIN_FINISHED_GAMES = 5


def _whole(value) -> int:
    """A price as a whole number: rounded half up, within the floor and the maximum."""
    rounded = int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return max(PRICE_FLOOR, min(PRICE_MAX, rounded))


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


def price_source(*, finished: int) -> str:
    """Where a new game on a course with `finished` finished games takes its prices from: "course" (its own
    book) or "site"."""
    return "course" if finished >= MIN_FINISHED_GAMES else "site"


def starting_prices(*, course: Course, modules, finished: int) -> dict[str, int]:
    """The prices a new game on `course` with these available `modules` starts from; `finished`: how many games
    on the course finished (games.selectors.prices counts them)."""
    modules = list(modules)
    if not modules:
        return {}
    prices = book(course=course) if price_source(finished=finished) == "course" else site_average()
    return {name: prices[name] for name in MODULE_NAMES if name in modules}
