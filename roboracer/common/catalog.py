"""The engine's catalog as the site reads it (issue 36): every element's, module's and ruleset's display name
and help come from the unit's own file in engine/ (`engine.catalog`), never from a copy here. Loaded once."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.catalog import catalog


@cache
def _by_key() -> dict[str, dict[str, dict[str, Any]]]:
    found = catalog()
    return {
        "elements": {entry["type"]: entry for entry in found["elements"]},
        "modules": {entry["type"]: entry for entry in found["modules"]},
        "rulesets": {entry["name"]: entry for entry in found["rulesets"]},
    }


def element(kind: str) -> dict[str, Any]:
    """{"type", "name", "help", "layer", ...} of a registered element type (KeyError for another)."""
    return _by_key()["elements"][kind]


def element_name(kind: str) -> str:
    """"belt" → "Conveyor belt"; an unknown type by its own words ("laser_x" → "laser x")."""
    entry = _by_key()["elements"].get(kind)
    return entry["name"] if entry else kind.replace("_", " ")


def modules() -> list[dict[str, Any]]:
    """Every module, in the engine's MODULE_NAMES order: {"type", "name", "help", "activation", "base_price"}."""
    return list(_by_key()["modules"].values())


def module_name(name: str) -> str:
    """"crab_legs" → "Crab Legs"; an unknown name by its own words."""
    entry = _by_key()["modules"].get(name)
    return entry["name"] if entry else name.replace("_", " ")


def ruleset_label(name: str) -> str:
    """The lobby's words for a ruleset ("Classic: " and its short help)."""
    return _by_key()["rulesets"][name]["label"]
