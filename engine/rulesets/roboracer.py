"""`roboracer`: the online game's rules (003), the primary ruleset. Its turn's core rules are `engine.resolve`'s
and its phase steps 003's order (`engine.steps`), its deck, hands and frozen registers `engine.program`'s."""

from __future__ import annotations

from ..chips import CHIPS
from ..errors import CourseError
from ..plans import WON, Condition, Plan, step, winning
from ..program import roboracer_deal, roboracer_frozen, roboracer_hand_size
from ..resolve import (
    decide_puzzle_turn,
    puzzle_goal_met,
    roboracer_end_of_turn,
    roboracer_prepare,
    start_turn,
)
from ..steps import phase_plan
from ..turn import MAX_DAMAGE
from . import Ruleset, register


def _check_course(course) -> None:
    for repair in course.of_type("repair"):
        if repair.upgrade:
            raise CourseError("course: a repair's 'upgrade' is classic's (000 hammers); roboracer's have none",
                              squares=[repair.at])  # fmt: skip
    for laser in course.of_type("laser"):
        if laser.colour is not None:
            raise CourseError(
                "course: a laser's 'colour' is fused's (001 turrets); roboracer's wall lasers have none",
                squares=[laser.at],
            )


PUZZLE = Condition("a puzzle", lambda turn: turn.local.puzzle)
PLAN = Plan(
    ruleset="roboracer",
    prepare=roboracer_prepare,
    begin=(step("start", start_turn),),
    phase=phase_plan,  # 003 "Phase Steps": respawn in phase 5, before the winning check after the phases
    stops=(WON, Condition("a puzzle's goal is met", puzzle_goal_met)),
    end=(step("puzzle", decide_puzzle_turn, when=PUZZLE), winning(unless=WON)),
    finish=roboracer_end_of_turn,
)


def _card_problem(card: object) -> str | None:
    return None if card in CHIPS else f"{card!r} is not a chip ({', '.join(CHIPS)})"


RULESET = register(
    Ruleset(
        name="roboracer",
        document="003",
        title="RoboRacer",
        help="the full game (chips, damage, modules)",
        max_damage=MAX_DAMAGE,
        counts_lives=True,
        numbered=False,
        modes=("race", "arena", "puzzle"),
        players=(1, 8),
        reboots=True,
        modules=True,
        teams=True,
        hand_size=roboracer_hand_size,
        locked=roboracer_frozen,
        deal=roboracer_deal,
        card_problem=_card_problem,
        plan=PLAN,
        check_course=_check_course,
    )
)
