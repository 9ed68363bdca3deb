"""003 "Bomb": "Drop a bomb at your location at the start of the current turn. The bomb explodes at the end of
the current turn, dealing 9 damage to any bot at the bomb's location and 2 damage point to all bots in the 8
tiles around the bomb."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Bomb(Module):
    name = "bomb"
    activation = "turn"
