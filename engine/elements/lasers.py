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

Bot modules take part through two bot hooks (engine.hooks): `fire` lets an activated weapon module (blaster,
turret, repeller, shield) fire in place of the bot's forward laser, with `bot_shot`; `hit` lets the module of
a bot a shot hits (reflector, shield) take the shot, described by a `Strike`, before `hit_bot` applies it.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..geometry import opposite
from ..steps import runs_in
from . import Element, choice, direction, optional, register, whole

if TYPE_CHECKING:
    from ..turn import Mover, Shot, Turn


@dataclass(frozen=True)
class Laser(Element):
    type: ClassVar[str] = "laser"
    title: ClassVar[str] = "Wall laser"
    help: ClassVar[str] = (
        "Fires every phase from its wall across the course. The first square with a robot stops the beam,"
        " and every robot there takes 1 damage per beam. Wall lasers hit virtual robots too."
    )
    short: ClassVar[str] = "Wall laser: fires away from its side; the number is its beams"
    noun: ClassVar[str] = "wall laser"
    side: str
    beams: int
    colour: str | None = None  # fused (001): a "blue" turret is blocked by robots, the others are not


@dataclass(frozen=True)
class Blaster(Element):
    type: ClassVar[str] = "blaster"
    title: ClassVar[str] = "Wall blaster"
    help: ClassVar[str] = (
        "Like a wall laser, but each beam does 2 damage, and only to real robots: virtual ones are "
        "neither hit nor stop it."
    )
    short: ClassVar[str] = "Wall blaster: 2 damage per beam to real robots"
    noun: ClassVar[str] = "wall blaster"
    side: str
    beams: int


@dataclass(frozen=True)
class Repeller(Element):
    type: ClassVar[str] = "repeller"
    title: ClassVar[str] = "Wall repeller"
    help: ClassVar[str] = (
        "Fires like a wall laser but does no damage: it pushes the first real robot in its beam one "
        "square along the beam."
    )
    short: ClassVar[str] = "Wall repeller: pushes the first real robot one square, no damage"
    side: str


register(
    Laser,
    layer="mount",
    fields={"side": direction("side"), "beams": whole("beams", 1, 3), "colour": optional(choice("colour", ("blue",)), None)},
)
register(Blaster, layer="mount", fields={"side": direction("side"), "beams": whole("beams", 1, 3)})
register(Repeller, layer="mount", fields={"side": direction("side")})

BLAST_DAMAGE = 2


@dataclass(frozen=True)
class Strike:
    """What one shot does to a bot it hits: `damage` points (`cause` names them), or, when `push`, a push one
    square toward `heading` (the way the shot travels when it hits; `by` names the pusher). `source` is the
    shot event's source, `shooter` the bot that fired it (None for wall weapons) and `fired` the heading it
    was fired in."""

    source: str
    shooter: Mover | None
    fired: str
    heading: str
    damage: int = 0
    cause: str = "bot laser"
    push: bool = False
    by: str | None = None


def hit_bot(turn: Turn, bot: Mover, strike: Strike, *, ask: bool = True) -> None:
    """A shot hits the bot: its module may take the shot first (`hit` hook: a reflector, a shield), unless
    `ask` is False (a reflected shot is not reflected again); else it damages or pushes the bot."""
    if ask and turn.activations:
        hook = turn.bot_unit(bot, "hit")
        if hook is not None and hook(turn, bot, strike):
            return
    if strike.push:
        turn.advance(bot, strike.heading, by=strike.by, mode="push")
    else:
        turn.damage(bot, strike.damage, strike.cause)


def bot_shot(
    turn: Turn,
    shooter: Mover,
    heading: str,
    *,
    damage: int = 1,
    push: bool = False,
    targets: dict | None = None,
) -> Shot | None:
    """A real bot fires one shot toward `heading`: it damages an intact force field it reaches by one point
    and hits the first real bot with `damage` points, or pushes it one square when `push` (a repeller, which
    does not fire at force fields: then nothing is fired). Returns the shot, or None when nothing was fired
    (facing a wall or the course edge)."""
    if targets is None:
        targets = turn.shot_targets()
    shot = turn.trace(shooter.at, heading, skip_first=True, hits_virtual=False, shooter=shooter, targets=targets)
    if shot is None or (push and shot.field is not None):
        return None
    target = shot.hit[0] if shot.hit else None
    turn.emit("shot", shooter.id, source="bot", dir=heading, beams=1,
              target=target.id if target else None, **shot.fields())  # fmt: skip
    if shot.field is not None:
        turn.shot_stopped(shot.field)
    if target is not None:
        strike = Strike("bot", shooter, heading, shot.heading, damage=damage, push=push, by=shooter.id)
        hit_bot(turn, target, strike)
    return shot


@runs_in("bot_lasers")
def bots_fire(turn: Turn) -> None:
    """Live, real bots fire forward in priority order (003 "Phase Steps"); an activated weapon module fires
    in place of the laser (`fire` hook). The bots a shot may hit are found once, and again after a module
    moved a bot in the step (`Turn.shot_targets`)."""
    real_bots = [bot for bot in turn.in_order() if not bot.virtual]
    targets = turn.shot_targets()
    for shooter in real_bots:
        if shooter.at is None or shooter.rebooting or shooter.drone_of is not None:
            continue  # a drone does not shoot (003 "Drone")
        if turn.activations:
            hook = turn.bot_unit(shooter, "fire", whole_turn=True)
            if hook is not None:
                hook(turn, shooter)
                continue
            targets = turn.shot_targets()  # a module's shot may have moved a bot
        bot_shot(turn, shooter, shooter.dir, targets=targets)


_BEAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # course -> {weapon: squares of its beam}


def _beam_squares(course, weapon) -> frozenset:
    """The squares a wall weapon's beam crosses on a course where only walls stop shots (`Course.ray`)."""
    beams = _BEAMS.get(course)
    if beams is None:
        beams = _BEAMS[course] = {}
    squares = beams.get(weapon)
    if squares is None:
        squares = beams[weapon] = frozenset(course.ray(weapon.at, opposite(weapon.side)))
    return squares


@runs_in("wall_lasers")
def wall_lasers_fire(turn: Turn) -> None:
    weapons = turn.course.wall_weapons
    if not weapons:
        return
    # The bots each kind of beam may hit (`Turn.targets`), found once for the step: wall weapons only damage,
    # so no bot moves during it, and `trace` skips a bot destroyed meanwhile. The bots' lookahead runs this
    # step for every candidate program (engine.players), mostly with no bot in any beam.
    found: dict[bool, dict] = {}
    for weapon in weapons:
        heading = opposite(weapon.side)
        blaster = weapon.type == "blaster"
        hits_virtual = not blaster
        if hits_virtual not in found:
            found[hits_virtual] = turn.targets(hits_virtual)
        occupied = found[hits_virtual]
        if not occupied:
            continue
        if turn.course.plain_shots and not _beam_squares(turn.course, weapon).intersection(occupied):
            continue  # only walls stop this beam, and no bot stands on it: it hits nothing
        shot = turn.trace(weapon.at, heading, skip_first=False, hits_virtual=hits_virtual,
                          targets=found[hits_virtual])
        if shot is None or not shot.hit:
            continue  # the beam is drawn with the course; only a hit is an event
        turn.emit("shot", None, source=weapon.type, dir=heading, beams=weapon.beams,
                  target=shot.hit[0].id, **shot.fields())  # fmt: skip
        amount, cause = (BLAST_DAMAGE * weapon.beams, "blaster") if blaster else (weapon.beams, "laser")
        strike = Strike(weapon.type, None, heading, shot.heading, damage=amount, cause=cause)
        for bot in shot.hit:
            hit_bot(turn, bot, strike)


@runs_in("wall_repellers")
def wall_repellers_fire(turn: Turn) -> None:
    for repeller in turn.course.of_type("repeller"):
        heading = opposite(repeller.side)
        shot = turn.trace(repeller.at, heading, skip_first=False, hits_virtual=False)
        if shot is None or not shot.hit:
            continue
        target = shot.hit[0]
        turn.emit("shot", None, source="repeller", dir=heading, beams=1, target=target.id, **shot.fields())
        hit_bot(turn, target, Strike("repeller", None, heading, shot.heading, push=True, by="repeller"))
