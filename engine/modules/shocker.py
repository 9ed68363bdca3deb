"""003 "Shocker (Module)": "When a bot with an active shocker contacts another bot the other bot takes 1 point
of damage. A shocker module can not do more than 1 point of damage to a single bot during a single phase."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Shocker(Module):
    name = "shocker"
    activation = "turn"
