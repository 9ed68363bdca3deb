"""003 "Turret": "You can aim your laser right, left, or back instead of, or in addition to, forward."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Turret(Module):
    name = "turret"
    activation = "turret"
