"""Check points (003 "Check Point", "Spawning"): tagged in order, in priority order, at the end of a phase."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..steps import runs_in
from . import Element, register, whole
from .basic import shielded_by_radiation

if TYPE_CHECKING:
    from ..turn import Turn


@dataclass(frozen=True)
class Checkpoint(Element):
    type: ClassVar[str] = "checkpoint"
    title: ClassVar[str] = "Check point"
    help: ClassVar[str] = (
        "Tag the check points in their numbered order by ending a phase on your next one; tagging the "
        "last one wins the race. Each one you tag becomes your restart square. Ending a turn on any check"
        " point repairs 1 damage. On the game screen your next one is green, the leader's black."
    )
    short: ClassVar[str] = (
        "Check point, tagged in order: green = your next, black = the leading opponent's next, red = others"
    )
    numbered: ClassVar[bool] = True
    archives: ClassVar[bool] = True  # 000 flags, 001 flags
    noun: ClassVar[str] = "check point"
    number: int

    @property
    def flag_number(self) -> int:
        return self.number


register(Checkpoint, layer="marker", fields={"number": whole("number", 1, 99)})


@runs_in("checkpoints")
def tag_checkpoints(turn: Turn) -> None:
    """A bot ending a phase on its next check point tags it and stores its position and heading there.

    The first bot to tag the last check point wins; bots tag in priority order, so in a shared phase the
    earlier priority wins (003 "Check Point", "Priority"). A drone tags for its owner: the two share their
    next check point, so they tag successive ones in one phase only in priority order, and a drone
    completing the course makes its owner the winner (003 "Drone").
    """
    last = len(turn.course.checkpoints)
    for bot in turn.in_order():
        marker = turn.course.markers.get(bot.at)
        if not isinstance(marker, Checkpoint) or marker.number != bot.next_checkpoint or bot.target:
            continue  # a puzzle's target bot races nobody (engine.puzzle)
        bot.next_checkpoint += 1
        for mate in turn.mates(bot):
            mate.next_checkpoint = bot.next_checkpoint
        bot.spawn_at, bot.spawn_dir = bot.at, bot.dir
        turn.emit("checkpoint", bot.id, number=marker.number, at=list(bot.at))
        if marker.number == last and turn.winner is None:
            if bot.drone_of is not None:
                turn.winner = bot.drone_of
                turn.emit("winner", bot.drone_of, reason="course", drone=bot.id, **turn.team_of(bot.drone_of))
            else:
                turn.winner = bot.id
                turn.emit("winner", bot.id, reason="course", **turn.team_of(bot.id))


@runs_in("repairs")
def checkpoint_repairs(turn: Turn) -> None:
    for bot in turn.in_order():
        if bot.drone_of is not None:
            continue  # a drone is not repaired (003 "Drone")
        if isinstance(turn.course.markers.get(bot.at), Checkpoint) and not shielded_by_radiation(turn, bot):
            turn.repair(bot, 1, "checkpoint")
