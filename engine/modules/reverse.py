"""003 "Reverse": "Phase based. The chip in the selected phase is reversed. Left and Right turns are swapped.
Move chips go in the opposite direction."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Reverse(Module):
    name = "reverse"
    activation = "phase"
