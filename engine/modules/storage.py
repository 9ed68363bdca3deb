"""003 "Storage": "Allows you to store an unplayed chip for future use. When the storage option is activated,
the chip in the first position of your unused chips is what will be stored. The stored chip is kept until
you use it, even if you change to another module."

Its effect at the start of the turn (storing the first unused chip; "S" plays it) is in
`engine.modules.actions`.
Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Storage(Module):
    name = "storage"
    title = "Storage"
    help = (
        "Stores the first chip of your hand that your program does not play. Later you can play it from "
        'any free register (it shows in your hand as "stored"). One chip at a time: storing again '
        "replaces it."
    )
    short = "store the first chip you don't play, to play it later"
    base_price = 100
    activation = "turn"
    stores_chip = True
