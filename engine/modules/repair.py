"""003 "Repair": "At the end of turn, 1 damage point is repaired."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Repair(Module):
    name = "repair"
    activation = "turn"
