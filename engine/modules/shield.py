"""003 "Shield": "No damage is taken from incoming shots. You do not fire your weapon, whether it be at another
bot or at a force field."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Shield(Module):
    name = "shield"
    activation = "turn"
