"""003 "Prioritizer": "You can choose to act either before or after bots without an active prioritizer"

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Prioritizer(Module):
    name = "prioritizer"
    activation = "prioritizer"
