"""003 "Bomb": "Drop a bomb at your location at the start of the current turn. The bomb explodes at the end of
the current turn, dealing 9 damage to any bot at the bomb's location and 2 damage point to all bots in the 8
tiles around the bomb. Bombs are virtual, and are affected by elements which affect virtual bots (belts,
pushers, teleporters, etc), except that they do not slide on oil. If a bomb takes any damage (for example,
from a vent or by riding a belt into a shocker) the bomb is destroyed without exploding."

A bomb lives within one turn: dropped in the `modules` step of phase 1, it is a turn-local actor
(`Turn.actors`, kind "bomb", id owner + ".bomb") that the elements asking `in_order(actors=True)` move and
hurt (belts, pushers, teleporters, vents, crushers, wall lasers, screens, trapdoors; pits and the edge);
any damage or fall destroys it (`bomb_destroyed`). It explodes in the `bombs` step of phase 5, breaking every
intact mirror in its blast (003 "Mirror": "An exploding bomb will destroy all mirrors in the bomb's explosion
area", and no Bad Luck for anybody: "you didn't destroy it yourself"). docs/rules.md "Modules".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import runs_in
from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Turn

BOMB_SUFFIX = ".bomb"
CENTRE_DAMAGE = 9
AROUND_DAMAGE = 2


@register_module
class Bomb(Module):
    name = "bomb"
    title = "Bomb"
    help = (
        "Drops a bomb where you stand at the start of the turn. At the end of the turn it explodes: 9 "
        "damage on its square, 2 on the eight around it. Belts, pushers and teleporters move it; any "
        "damage destroys it without a bang."
    )
    short = "drop a bomb: 9 damage on its square, 2 around it, at the end of the turn"
    base_price = 250
    activation = "turn"


@runs_in("modules")
def drop_bombs(turn: Turn) -> None:
    """Phase 1: each bot that activated its bomb drops it on its square (virtual, last in priority)."""
    if turn.phase != 1 or not turn.activations:
        return
    from ..state import Bot
    from ..turn import Mover

    for owner_id in tuple(turn.order):
        activation = turn.activations.get(owner_id)
        owner = turn.bots[owner_id]
        if activation is None or activation.module != Bomb.name or owner.at is None:
            continue
        bomb_id = owner_id + BOMB_SUFFIX
        bomb = Mover(
            Bot(id=bomb_id, at=owner.at, dir=owner.dir, spawn_at=owner.at, spawn_dir=owner.dir, lives=1,
                virtual=True, battery=0),
            kind="bomb", owner=owner_id,
        )  # fmt: skip
        turn.actors[bomb_id] = bomb
        turn.emit("bomb_dropped", bomb_id, owner=owner_id, at=list(owner.at))


@runs_in("bombs")
def explode_bombs(turn: Turn) -> None:
    """Phase 5: each bomb still on the course explodes, in the order they were dropped: 9 damage to every bot
    on its square, 2 to every bot on the 8 squares around it (walls do not shelter them); real and virtual
    bots and drones alike. Other bombs are not hurt by a blast. Every intact mirror on those squares breaks
    (`mirror_broken` with `bot` null and `cause` "bomb"); nobody gets Bad Luck for it."""

    if not turn.actors:
        return
    course = turn.course
    for bomb in list(turn.actors.values()):
        if bomb.kind != Bomb.name or bomb.at is None:
            continue
        x, y = bomb.at
        squares = [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        squares = [square for square in squares if course.on_course(square)]
        centre = bomb.at
        bomb.at = None
        turn.emit("bomb_exploded", bomb.id, owner=bomb.owner, at=list(centre),
                  squares=[list(square) for square in squares])  # fmt: skip
        for square in squares:  # in reading order
            cover = course.covers.get(square)
            if cover is not None:
                cover.blasted(turn, square)  # a mirror breaks
        for bot in turn.in_order():
            if bot.at in squares:
                amount = CENTRE_DAMAGE if bot.at == centre else AROUND_DAMAGE
                turn.damage(bot, amount, "bomb", module=Bomb.name)
