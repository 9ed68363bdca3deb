"""The engine's catalog (issue 36): every course element's, bot module's and ruleset's display name and short
help in a player's words, each unit's own (an element class's `title` and `help`, a module class's `title`,
`help` and `base_price`, a ruleset's `title` and `help`, in the unit's own file). `python -m engine catalog`
prints it as JSON. It is the one source of these words: the site reads it (roboracer/common/catalog.py), and the
browser reads the JSON the build emits from it (docs/frontend.md).
"""

from __future__ import annotations

from typing import Any


def catalog() -> dict[str, list[dict[str, Any]]]:
    """{"elements": [...], "modules": [...], "rulesets": [...]}: elements in registration order, modules in
    `MODULE_NAMES` order, rulesets in document order (the available ones)."""
    from . import rulesets
    from .elements import ELEMENT_TYPES
    from .modules import MODULE_NAMES, MODULES

    elements = [
        {"type": kind, "name": spec.cls.title, "help": spec.cls.help, "short": spec.cls.short, "layer": spec.layer}
        for kind, spec in ELEMENT_TYPES.items()
    ]
    modules = [
        {"type": name, "name": MODULES[name].title, "help": MODULES[name].help, "short": MODULES[name].short,
         "activation": MODULES[name].activation, "base_price": MODULES[name].base_price}
        for name in MODULE_NAMES
    ]  # fmt: skip
    found = []
    for name in rulesets.available():
        rules = rulesets.get(name)
        found.append({"name": name, "title": rules.title, "help": rules.help, "label": rules.label,
                      "document": rules.document, "site": rules.site})  # fmt: skip
    return {"elements": elements, "modules": modules, "rulesets": found}


def browser_catalog() -> dict[str, Any]:
    """What the game screen reads (the build writes it to frontend/src/generated/catalog.json; docs/frontend.md
    "The catalog"), in the catalog's orders, split by who needs what so that a page's bundle takes only its part
    (the bundler keeps the top-level keys a page imports): `legend`, type -> line of each element that has one;
    `modules`, type -> name (in MODULE_NAMES order); `module_hints`, type -> short help; `module_shapes`, type -> its activation, followed
    by " spare" when it needs a spare move chip."""
    from .modules import MODULES

    found = catalog()
    return {
        "legend": {entry["type"]: entry["short"] for entry in found["elements"] if entry["short"]},
        "modules": {entry["type"]: entry["name"] for entry in found["modules"]},
        "module_hints": {entry["type"]: entry["short"] for entry in found["modules"]},
        "module_shapes": {entry["type"]: entry["activation"] + (" spare" if MODULES[entry["type"]].needs_spare else "")
                          for entry in found["modules"]},
    }
