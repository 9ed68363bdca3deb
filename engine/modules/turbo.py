"""003 "Turbo": "Phase based. Moves forward 1 after a move chip is executed. (One forward move, even after a
reverse chip) An unplayed move chip is required to activate this module."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Turbo(Module):
    name = "turbo"
    activation = "phase"
    needs_spare = True  # an unplayed move chip (1 2 3 B) must be left in the hand
