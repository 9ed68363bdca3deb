"""003 "Reflector": "Phase based - two consecutive phases. Reflects shots (including blaster and repeller) back
to hit the shooter."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Reflector(Module):
    name = "reflector"
    activation = "two_phases"
