"""Bot modules (003 "Bot Modules"): one file per module, each registering its `Module` subclass.

`MODULE_NAMES` is the order modules are listed in everywhere (formats, prices). Actions on modules
(install, charge, activate), the battery and the stored chip are in `engine.modules.actions`; prices in
`engine.modules.economy`.
"""

# ruff: noqa: E402, I001  (the module files import register_module from here, so they come last)

from __future__ import annotations

from .base import Activation, Module

MODULE_NAMES = (
    "blaster", "bomb", "clamp", "crab_legs", "drone", "prioritizer", "repair", "repeller", "reflector",
    "reverse", "scanner", "shield", "shocker", "storage", "turbo", "turret", "virtualizer",
)  # fmt: skip

MODULES: dict[str, type[Module]] = {}


def register_module(cls: type[Module]) -> type[Module]:
    """Class decorator: list a module under its name (once)."""
    if cls.name not in MODULE_NAMES:
        raise ValueError(f"unknown module name {cls.name!r}")
    if cls.name in MODULES:
        raise ValueError(f"module {cls.name!r} registered twice")
    MODULES[cls.name] = cls
    return cls


_UNITS: dict[str, Module] = {}


def unit(name: str) -> Module:
    """The one instance of a module whose hook methods a turn calls."""
    found = _UNITS.get(name)
    if found is None:
        found = _UNITS[name] = MODULES[name]()
    return found


def scanning(names) -> bool:
    """Whether a game offering the modules `names` (or a bot with the module `names[0]`) has one that scans the
    others' submitted chips (the Scanner: its `scans`), asked of the units instead of by name."""
    return any(MODULES[name].scans for name in names if name in MODULES)


# One registration line per module (each file registers its class with @register_module).
from . import blaster  # noqa: F401
from . import bomb  # noqa: F401
from . import clamp  # noqa: F401
from . import crab_legs  # noqa: F401
from . import drone  # noqa: F401
from . import prioritizer  # noqa: F401
from . import repair  # noqa: F401
from . import repeller  # noqa: F401
from . import reflector  # noqa: F401
from . import reverse  # noqa: F401
from . import scanner  # noqa: F401
from . import shield  # noqa: F401
from . import shocker  # noqa: F401
from . import storage  # noqa: F401
from . import turbo  # noqa: F401
from . import turret  # noqa: F401
from . import virtualizer  # noqa: F401

__all__ = ["MODULES", "MODULE_NAMES", "Activation", "Module", "register_module", "scanning", "unit"]
