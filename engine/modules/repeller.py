"""003 "Repeller": "Phase based - two consecutive phases. Instead of firing your normal laser for the turn, you
fire your repeller during the 2 selected phases. Bots hit by the repeller are pushed 1 space."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Repeller(Module):
    name = "repeller"
    activation = "two_phases"
