"""003 "Crab Legs": "Phase based. An unplayed move chip is required to activate this module. Changes Right or
Left chips into sideways move-1's."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class CrabLegs(Module):
    name = "crab_legs"
    activation = "phase"
    needs_spare = True  # an unplayed move chip (1 2 3 B) must be left in the hand
