"""RoboRacer rules: a pure library (standard library only, no I/O, no clock, no global random).

resolve_turn(state, programs, seed) -> (new_state, events) never mutates its input.
scan(state, programs, owner) -> what a Scanner shows its owner (bot modules, engine.modules).
"""

from . import (
    budget,
    players,
    reports,
    rulesets,
)
from .budget import StepBudget, TooComplex
from .builder import element_catalog, validate_course
from .bundled import bundled_course, bundled_course_data, bundled_slugs
from .chips import CHIP_NAMES, CHIPS, PROGRAM_LENGTH
from .course import Course, parse_course
from .eject import eject
from .errors import CourseError, InputError, ProgramError, ScenarioError
from .modules import MODULE_NAMES
from .modules.actions import scan
from .program import (
    check_program,
    deal,
    derive_seed,
    frozen_registers,
    hand_size,
    is_safe_mix,
    random_program,
    required_program,
)
from .resolve import resolve_turn
from .scenario import simulate
from .state import Bot, State, bot_from_dict, new_game, public_board, state_from_dict, state_to_dict

__all__ = [
    "CHIPS",
    "CHIP_NAMES",
    "MODULE_NAMES",
    "PROGRAM_LENGTH",
    "Bot",
    "Course",
    "CourseError",
    "InputError",
    "ProgramError",
    "ScenarioError",
    "State",
    "StepBudget",
    "TooComplex",
    "bot_from_dict",
    "budget",
    "bundled_course",
    "bundled_course_data",
    "bundled_slugs",
    "check_program",
    "deal",
    "element_catalog",
    "eject",
    "derive_seed",
    "frozen_registers",
    "hand_size",
    "is_safe_mix",
    "new_game",
    "parse_course",
    "players",
    "public_board",
    "random_program",
    "required_program",
    "resolve_turn",
    "reports",
    "rulesets",
    "scan",
    "simulate",
    "state_from_dict",
    "state_to_dict",
    "validate_course",
]
