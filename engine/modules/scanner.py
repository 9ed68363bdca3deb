"""003 "Scanner": "Scans opponents' chips. You can see all opponents' chips for the current turn, but not their
play order. ... Once you have activated the scanner, a charge will be deducted during the next turn - but
you can rescan during the current turn at no additional cost."

Its timing (no charge the turn it is activated, one charge at the start of the next) is in
`engine.modules.actions`; what it shows is `engine.scan`.
Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Scanner(Module):
    name = "scanner"
    title = "Scanner"
    help = (
        "Shows you the chips your opponents have submitted so far, sorted, not in their order. Rescan as "
        "often as you like until the turn is played; the charge is taken at the start of the next turn."
    )
    short = "see the chips the others have submitted (not their order)"
    base_price = 100
    activation = "scanner"
    scans = True
