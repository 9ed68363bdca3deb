"""003 "Drone": "When the drone module is activated, you deploy a virtual drone at your current location. The
drone is deployed facing the opposite direction as you. The drone is given the latest priority at the time
of creation."

A drone is a bot of the state whose id is the owner's id + ".drone", with `drone_of` naming the owner. It is
deployed in the `modules` step of phase 1 (003 "Phase Steps": "(phase 1:) Bombs, Drones"), so it plays the
owner's five chips from phase 1 of that turn on. It shares the owner's next check point (engine.turn
`mates`), gets no hand, no actions, no battery, does not shoot and is not repaired; destroyed, it is gone
at the end of the turn. A new drone replaces the earlier one (the same id). docs/rules.md "Modules".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InputError
from ..geometry import opposite
from ..steps import runs_in
from . import register_module
from .base import Module

if TYPE_CHECKING:
    from ..turn import Turn

DRONE_SUFFIX = ".drone"


def drone_id(owner: str) -> str:
    return owner + DRONE_SUFFIX


@register_module
class Drone(Module):
    name = "drone"
    title = "Drone"
    help = (
        "Deploys a virtual drone on your square, facing the other way. It plays your chips (as printed: "
        "your modules don't affect it), can tag your check points, never shoots and is never repaired. A "
        "new drone replaces the old one."
    )
    short = "deploy a virtual drone that plays your chips and can tag check points for you"
    base_price = 300
    activation = "turn"


@runs_in("modules")
def deploy_drones(turn: Turn) -> None:
    """Phase 1: each bot that activated its drone deploys one on its square, facing the other way, virtual,
    last in priority; an earlier drone of the same owner is replaced (wherever it is, even destroyed)."""
    if turn.phase != 1 or not turn.activations:
        return
    from ..state import Bot
    from ..turn import Mover

    for owner_id in tuple(turn.order):
        activation = turn.activations.get(owner_id)
        owner = turn.bots.get(owner_id)  # None: a drone replaced a moment ago
        if activation is None or activation.module != Drone.name or owner is None or owner.at is None:
            continue
        did = drone_id(owner_id)
        taken = turn.bots.get(did)
        if taken is not None and taken.drone_of != owner_id:
            raise InputError(f"bot {owner_id!r} can't deploy a drone: the id {did!r} is another bot's")
        old = turn.drones.get(owner_id)  # its earlier drone (named otherwise in a hand-made state)
        replaced = old is not None
        if old is not None:
            turn.bots.pop(old, None)
            turn.order = tuple(bot_id for bot_id in turn.order if bot_id != old)
            turn.base_order = tuple(bot_id for bot_id in turn.base_order if bot_id != old)
        heading = opposite(owner.dir)
        drone = Mover(
            Bot(
                id=did, at=owner.at, dir=heading, spawn_at=owner.at, spawn_dir=heading, lives=1,
                next_checkpoint=owner.next_checkpoint, virtual=True, battery=0, drone_of=owner_id,
                team=owner.team,
            )
        )  # fmt: skip
        turn.bots.pop(did, None)
        turn.bots[did] = drone
        turn.order = (*(bot_id for bot_id in turn.order if bot_id != did), did)
        turn.base_order = (*(bot_id for bot_id in turn.base_order if bot_id != did), did)
        turn.programs[did] = turn.programs[owner_id]
        turn.drones[owner_id] = did
        extra = {"replaces": old} if old is not None and old != did else {}
        turn.emit("drone_deployed", did, owner=owner_id, at=list(owner.at), dir=heading, replaced=replaced, **extra)
