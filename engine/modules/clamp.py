"""003 "Clamp": "Phase based. You cannot move or be moved, except by a belt. You WILL rotate normally if you
play a turn card and clamp on that phase."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Clamp(Module):
    name = "clamp"
    activation = "phase"
