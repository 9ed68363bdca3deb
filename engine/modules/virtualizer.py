"""003 "Virtualizer": "Phase based. Turns you virtual at the start of the phase where it is activated. Turns
you real at the end of the same phase, or any later phase of the turn, if at a location with no other real
bots."

Effects come later (hook methods on this class); the activation shape is checked here.
"""

from __future__ import annotations

from . import register_module
from .base import Module


@register_module
class Virtualizer(Module):
    name = "virtualizer"
    activation = "phase"
