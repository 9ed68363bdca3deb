"""The book as the purchases applied one after another (engine.modules.economy's rule), for checks."""

from engine import MODULE_NAMES
from engine.modules.economy import after_purchase


def apply_in_order(start: dict[str, int], purchases) -> dict[str, int]:
    """`purchases`: (module, charges, the game's available modules), in order; each charge moves the book by
    003's rule applied to those modules (the engine's own after_purchase), the others untouched."""
    book = dict(start)
    for module, charges, modules in purchases:
        for _ in range(charges):
            book.update(after_purchase({name: book[name] for name in modules}, module))
    return {name: book[name] for name in MODULE_NAMES}
