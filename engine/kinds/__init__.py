"""Game kinds other than RoboRacer, each a pure package (standard library only, no I/O, no clock, no
global random). `rambots`: RAMbots (seed 002, docs/rambots.md).

This is their registry for the command line (`python -m engine`, docs/formats.md): each kind's package
declares its scenario format (`FORMAT`, a scenario file's "format"), `parse_scenario(data)` and
`simulate(data)`. A new kind is one line in `_PACKAGES` (docs/game-kinds.md "Adding a kind")."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

# One line a kind: its package under engine/kinds/.
_PACKAGES = ("rambots",)


def packages() -> tuple[ModuleType, ...]:
    """Every kind's package, in `_PACKAGES`' order (imported on first use)."""
    return tuple(import_module(f"{__name__}.{name}") for name in _PACKAGES)


def by_format(format_: object) -> ModuleType | None:
    """The kind whose scenarios have this "format", or None (RoboRacer's scenarios and courses)."""
    return next((kind for kind in packages() if kind.FORMAT == format_), None)


def named_in(text: str) -> ModuleType | None:
    """The kind whose format a file's text names (`"rambots-scenario/1"`), for a file too deeply nested to
    parse; None if it names none."""
    return next((kind for kind in packages() if f'"{kind.FORMAT}"' in text), None)
