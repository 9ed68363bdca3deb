"""Crushers (003 "Crusher"): ceiling elements that deal 10 damage to a bot below in their phases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..steps import runs_in
from . import Element, phases, register

if TYPE_CHECKING:
    from ..turn import Turn

CRUSH_DAMAGE = 10


@dataclass(frozen=True)
class Crusher(Element):
    type: ClassVar[str] = "crusher"
    title: ClassVar[str] = "Crusher"
    help: ClassVar[str] = (
        "Hangs from the ceiling. In the phases marked by its red dots it crushes whatever is below it for"
        " 10 damage: the robot is destroyed."
    )
    short: ClassVar[str] = "Crusher: 10 damage in the phases shown (red dots)"
    phases: frozenset[int]

    def crushes(self, phase: int) -> bool:
        return phase in self.phases


register(Crusher, layer="ceiling", fields={"phases": phases()})


@runs_in("crushers")
def run_crushers(turn: Turn) -> None:
    ceiling = turn.course.ceiling
    for bot in turn.in_order(actors=True):  # a crushed bomb is destroyed (003 "Bomb")
        crusher = ceiling.get(bot.at)
        if isinstance(crusher, Crusher) and turn.phase in crusher.phases:
            turn.damage(bot, CRUSH_DAMAGE, "crusher")
