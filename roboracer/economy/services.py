"""Writes to the module price book. Every charge bought in a game moves its course's book by 003's rule,
applied to the game's available modules, in the transaction that stores the turn (games.services.resolve_turn).

Concurrency: each purchase is one UPDATE with F() expressions and the floor (or the maximum) in the same
statement, so concurrent turns on one course never lose an update. The rows a turn moves are first locked in
module order (one short SELECT ... FOR UPDATE at the very end of the turn's transaction), so two turns
moving overlapping sets of rows never deadlock; nothing is locked while the turn itself is computed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import Case, F, Value, When
from django.db.models.functions import Greatest, Least

from engine import MODULE_NAMES
from engine.modules.economy import BASE_PRICES, PRICE_FLOOR, PRICE_MAX, STEP
from roboracer.economy.models import ModulePrice, PricePoint


def ensure_book(*, course_id: int) -> None:
    """The course's 17 rows, created at the base prices where missing (a no-op once they exist)."""
    have = set(ModulePrice.objects.filter(course_id=course_id).values_list("module", flat=True))
    missing = [name for name in MODULE_NAMES if name not in have]
    if missing:
        ModulePrice.objects.bulk_create(
            [ModulePrice(course_id=course_id, module=name, price=BASE_PRICES[name]) for name in missing],
            ignore_conflicts=True,  # another transaction created them meanwhile: theirs stand
        )


def purchases_of(events: Iterable[dict]) -> list[tuple[str, int]]:
    """(module, charges bought) of a turn's `module_charged` events, in the order they happened."""
    return [(event["module"], event["charges"]) for event in events if event.get("type") == "module_charged"]


def apply_purchases(
    *, course_id: int, modules: Sequence[str], purchases: Sequence[tuple[str, int]], game_id: int | None = None,
    turn: int | None = None,
) -> PricePoint | None:
    """Move the course's book by each purchase, in order: the bought module rises by 2 for each other module
    of `modules` (the game's available ones), those others fall by 2, never below the floor. Call it inside
    the transaction that stores the turn. Returns the history point written (None when nothing was bought)."""
    purchases = [(module, charges) for module, charges in purchases if charges > 0]
    if not purchases:
        return None
    modules = sorted(set(modules))
    rows = ModulePrice.objects.filter(course_id=course_id, module__in=modules)
    if len(list(rows.order_by("module").select_for_update().values_list("pk", flat=True))) < len(modules):
        ensure_book(course_id=course_id)
        list(rows.order_by("module").select_for_update().values_list("pk", flat=True))
    others = len(modules) - 1
    for module, charges in purchases:
        rows.update(price=Case(
            When(module=module, then=Least(F("price") + Value(STEP * others * charges), Value(PRICE_MAX))),
            default=Greatest(F("price") - Value(STEP * charges), Value(PRICE_FLOOR)),
        ))
    prices = dict(ModulePrice.objects.filter(course_id=course_id).values_list("module", "price"))
    return PricePoint.objects.create(
        course_id=course_id,
        game_id=game_id,
        turn=turn,
        purchases=[{"module": module, "charges": charges, "modules": modules} for module, charges in purchases],
        prices={name: prices.get(name, BASE_PRICES[name]) for name in MODULE_NAMES},
    )
