"""Module prices (003 "The Economy"). Pure functions over a {module: price} mapping of the AVAILABLE
modules; a module that is not available has no price."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..errors import InputError
from . import MODULE_NAMES, MODULES

PRICE_FLOOR = 10  # no price falls below this (docs/rules.md "Bot modules")
PRICE_MAX = 1_000_000
STEP = 2  # 003: +2 per other available module for the bought one, -2 for every other

# A brand-new site's price of one charge (docs/rules.md "Bot modules" gives the reasoning), each module's own
# `base_price`. Turbo, Shield and Repair are 003's example prices.
BASE_PRICES: dict[str, int] = {name: MODULES[name].base_price for name in MODULE_NAMES}


def initial_prices(modules: Iterable[str], prices: Mapping[str, int] | None = None) -> dict[str, int]:
    """The starting prices of the available `modules`: `prices` where given, else the base price."""
    available = list(modules)
    for name in available:
        if name not in MODULE_NAMES:
            raise InputError(f"modules: unknown module {name!r} (known: {', '.join(MODULE_NAMES)})")
    if len(set(available)) != len(available):
        raise InputError(f"modules: each module is listed once, got {available!r}")
    given = dict(prices or {})
    for name, price in given.items():
        if name not in available:
            raise InputError(f"prices: {name!r} is not an available module of this game")
        check_price(name, price)
    return {name: given.get(name, BASE_PRICES[name]) for name in MODULE_NAMES if name in available}


def check_price(name: str, price: object) -> int:
    if not isinstance(price, int) or isinstance(price, bool) or not PRICE_FLOOR <= price <= PRICE_MAX:
        raise InputError(
            f"prices: {name!r} must be a whole number from {PRICE_FLOOR} to {PRICE_MAX}, got {price!r}"
        )
    return price


def after_purchase(prices: Mapping[str, int], module: str) -> dict[str, int]:
    """Prices after one charge of `module` was bought: it rises by 2 for every other available module,
    every other one falls by 2, none below the floor (nor above PRICE_MAX)."""
    others = len(prices) - 1
    return {
        name: min(PRICE_MAX, price + STEP * others)
        if name == module
        else max(PRICE_FLOOR, price - STEP)
        for name, price in prices.items()
    }


def charge_cost(prices: Mapping[str, int], module: str, count: int) -> tuple[int, dict[str, int]]:
    """What `count` charges of `module` cost bought one after another, and the prices after them."""
    if module not in prices:
        raise InputError(f"{module!r} is not available in this game")
    total, current = 0, dict(prices)
    for _ in range(count):
        total += current[module]
        current = after_purchase(current, module)
    return total, current
