"""003 "Drone": "When the drone module is activated, you deploy a virtual drone at your current location. The
drone is deployed facing the opposite direction as you. The drone is given the latest priority at the time
of creation."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Drone(Module):
    name = "drone"
    activation = "turn"
