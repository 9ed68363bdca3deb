"""Lasers (003 "Wall Lasers", "Phase Steps": bots fire, then wall lasers and blasters in reading order,
then wall repellers in reading order).

Bot lasers: every real bot on the course that is not sitting a reboot out fires forward; the beam starts
in the square ahead and stops at a wall, the course edge, an intact force field (which it damages) or the
first real bot, which takes 1 damage. Mirrors turn it, curtains stop it, windows and red portals let it
through (`Turn.trace`). Virtual bots neither fire, nor are shot by bots, nor stop a bot's beam (003
"Virtuality").

Wall lasers: mounted on one side of their square, they fire away from it, their own square included. The
first square holding any bot stops the beam and every bot on it takes one damage per beam; wall lasers hit
virtual bots too (docs/rules.md). Wall blasters deal 2 damage per beam; wall repellers push the first real
bot one square along the beam and deal none. Blasters and repellers don't touch virtual bots (003
"Virtuality"); no wall weapon damages force fields (003 "Wall Lasers"), but they stop its beam.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..geometry import opposite
from ..steps import runs_in
from . import Element, direction, register, whole

if TYPE_CHECKING:
    from ..turn import Turn


@dataclass(frozen=True)
class Laser(Element):
    type: ClassVar[str] = "laser"
    side: str
    beams: int


@dataclass(frozen=True)
class Blaster(Element):
    type: ClassVar[str] = "blaster"
    side: str
    beams: int


@dataclass(frozen=True)
class Repeller(Element):
    type: ClassVar[str] = "repeller"
    side: str


register(Laser, layer="mount", fields={"side": direction("side"), "beams": whole("beams", 1, 3)})
register(Blaster, layer="mount", fields={"side": direction("side"), "beams": whole("beams", 1, 3)})
register(Repeller, layer="mount", fields={"side": direction("side")})

BLAST_DAMAGE = 2


@runs_in("bot_lasers")
def bots_fire(turn: Turn) -> None:
    targets = turn.targets(hits_virtual=False)
    real_bots = [bot for bot in turn.in_order() if not bot.virtual]
    for shooter in real_bots:
        if shooter.at is None or shooter.rebooting or shooter.drone_of is not None:
            continue  # a drone does not shoot (003 "Drone")
        shot = turn.trace(shooter.at, shooter.dir, skip_first=True, hits_virtual=False, shooter=shooter, targets=targets)
        if shot is None:
            continue  # facing a wall or the edge: nothing to fire into
        target = shot.hit[0] if shot.hit else None
        turn.emit("shot", shooter.id, source="bot", dir=shooter.dir, beams=1,
                  target=target.id if target else None, **shot.fields())  # fmt: skip
        if shot.field is not None:
            turn.shot_stopped(shot.field)
        if target is not None:
            turn.damage(target, 1, "bot laser")


@runs_in("wall_lasers")
def wall_lasers_fire(turn: Turn) -> None:
    weapons = turn.course.wall_weapons
    if not weapons:
        return
    for weapon in weapons:
        heading = opposite(weapon.side)
        blaster = weapon.type == "blaster"
        shot = turn.trace(weapon.at, heading, skip_first=False, hits_virtual=not blaster)
        if shot is None or not shot.hit:
            continue  # the beam is drawn with the course; only a hit is an event
        turn.emit("shot", None, source=weapon.type, dir=heading, beams=weapon.beams,
                  target=shot.hit[0].id, **shot.fields())  # fmt: skip
        for bot in shot.hit:
            if blaster:
                turn.damage(bot, BLAST_DAMAGE * weapon.beams, "blaster")
            else:
                turn.damage(bot, weapon.beams, "laser")


@runs_in("wall_repellers")
def wall_repellers_fire(turn: Turn) -> None:
    for repeller in turn.course.of_type("repeller"):
        heading = opposite(repeller.side)
        shot = turn.trace(repeller.at, heading, skip_first=False, hits_virtual=False)
        if shot is None or not shot.hit:
            continue
        target = shot.hit[0]
        turn.emit("shot", None, source="repeller", dir=heading, beams=1, target=target.id, **shot.fields())
        turn.advance(target, shot.heading, by="repeller", mode="push")
