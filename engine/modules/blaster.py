"""003 "Blaster": "All of your normal laser shots are replaced with larger blaster shots for one turn. Shots
fired do 2 points of damage to bots (but still only 1 point to force fields). You are pushed backward 1
space each time you fire your blaster."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Blaster(Module):
    name = "blaster"
    activation = "turn"
