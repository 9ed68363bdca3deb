"""Pushers (003 "Pusher"): mounted on one side of a square, they push a bot there one square away from
that side in the phases they are active. A pushed real bot pushes the real bots in its way, as a
bot's own move does; a wall in the line blocks the push."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..geometry import opposite
from ..steps import runs_in
from . import Element, direction, phases, register

if TYPE_CHECKING:
    from ..turn import Turn


@dataclass(frozen=True)
class Pusher(Element):
    type: ClassVar[str] = "pusher"
    title: ClassVar[str] = "Pusher"
    help: ClassVar[str] = (
        "In the phases it shows, a pusher shoves the robot on its square one square away from its wall, "
        "and any robots in front of it too."
    )
    short: ClassVar[str] = "Pusher: pushes a robot away from its side in the phases shown"
    side: str
    phases: frozenset[int]


register(Pusher, layer="mount", fields={"side": direction("side"), "phases": phases()})


@runs_in("pushers")
def run_pushers(turn: Turn) -> None:
    pushers = turn.course.mounted.get("pusher", {})
    if not pushers:
        return
    # Who stands on an active pusher is fixed when the step starts; each is pushed once, in priority order,
    # if an earlier push has not already moved it off that square.
    targets = []
    for bot in turn.in_order(actors=True):  # bombs are pushed too (003 "Bomb")
        for pusher in pushers.get(bot.at, ()):
            if turn.phase in pusher.phases:
                targets.append((bot, pusher))
                break
    for bot, pusher in targets:
        if bot.at == pusher.at:
            turn.advance(bot, opposite(pusher.side), by="pusher", mode="push")
