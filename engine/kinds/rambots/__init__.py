"""RAMbots (seed 002): a second game kind, as a pure rules package. See docs/rambots.md (the rules
decisions, events and state) and docs/formats.md "RAMbots scenarios (`rambots-scenario/1`)"."""

from . import players
from .rules import (
    BOARD_SIZE,
    COLOURS,
    DIRS,
    FORMAT,
    KIND,
    MAX_PLAYERS,
    MAX_PROGRAM,
    MIN_PLAYERS,
    PIECES,
    PROGRAM_DIRS,
    SIZES,
    UP,
    all_goals_built,
    colour_of,
    execute_instruction,
    execution_key,
    goal_maker,
    goal_recipient,
    goal_stack_problem,
    new_game,
    options_problem,
    program_problem,
    public_view,
    random_goal_stack,
    remove_players,
    resolve_round,
    set_goal_stacks,
    size_of,
    sort_pieces,
    winner,
)
from .scenario import parse_scenario, simulate

__all__ = [
    "BOARD_SIZE", "COLOURS", "DIRS", "FORMAT", "KIND", "MAX_PLAYERS", "MAX_PROGRAM", "MIN_PLAYERS", "PIECES",
    "PROGRAM_DIRS", "SIZES", "UP", "all_goals_built", "colour_of", "execute_instruction", "execution_key",
    "goal_maker", "goal_recipient", "goal_stack_problem", "new_game", "options_problem", "parse_scenario",
    "players", "program_problem", "public_view", "random_goal_stack", "remove_players", "resolve_round",
    "set_goal_stacks", "simulate", "size_of", "sort_pieces", "winner",
]
