"""Conveyors of the play-by-mail rulesets (000 "Conveyor belts move", 001 "Conveyor"): every robot on a
moving belt moves one square at once, and belts never push.

- A robot blocked by a wall (or fused's fence) stays; so does one whose square ahead holds a robot that is
  not itself carried away, and two robots swapping squares.
- Two robots carried onto one square: neither moves (000); in 001 the one carried the way a belt on that
  square runs moves, the other stays (`same_way_wins`).
- A robot carried onto a belt is turned by it: in 001 by any belt running across its travel, in 000 only
  by a rotating section (`curves_from`) (`turns`).
- Virtual robots (001) are carried past and onto other robots: only walls and the fence stop them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..elements.belts import Belt, _turn_towards
from ..geometry import Square, neighbour, opposite

if TYPE_CHECKING:
    from ..turn import Mover, Turn


def convey(turn: Turn, speeds: tuple[int, ...], *, same_way_wins: bool, turns: str, sub: int, steady=None) -> None:
    """`steady(bot)`: the robot is not turned by belts (000's Gyroscopic Stabilizer)."""
    tiles = turn.course.tiles
    riders: dict[str, tuple[Mover, Belt, Square]] = {}
    for bot in turn.in_order():
        belt = tiles.get(bot.at)
        if belt is not None and belt.conveys and belt.speed in speeds:
            riders[bot.id] = (bot, belt, neighbour(bot.at, belt.dir))
    if not riders:
        return
    blocked: dict[str, str] = {}
    for bot_id, (bot, belt, target) in riders.items():
        reason = turn.edge_blocker(bot.at, belt.dir)
        if reason is None and not turn.course.on_course(target) and turn.fence is not None:
            reason = "fence"
        if reason is not None:
            blocked[bot_id] = reason
    changed = True
    while changed:
        changed = False
        moving = {bot.at: target for bot_id, (bot, _, target) in riders.items()
                  if bot_id not in blocked and not bot.virtual}  # fmt: skip
        claims: dict[Square, list[str]] = {}
        for bot_id, (bot, _, target) in riders.items():
            if bot_id not in blocked and not bot.virtual:
                claims.setdefault(target, []).append(bot_id)
        for bot_id, (bot, _belt, target) in riders.items():
            if bot_id in blocked or bot.virtual:
                continue
            reason = None
            rivals = claims.get(target, [])
            if len(rivals) > 1:
                landing = tiles.get(target)
                winner = None
                if same_way_wins and landing is not None and landing.conveys:
                    same = [rid for rid in rivals if riders[rid][1].dir == landing.dir]
                    winner = same[0] if len(same) == 1 else None
                if winner != bot_id:
                    reason = "bot"
            ahead = turn.real_bot_at(target) if reason is None else None
            if ahead is not None and (moving.get(target) is None or moving.get(target) == bot.at):
                reason = "bot"  # a robot standing still ahead, or a swap
            if reason is not None:
                blocked[bot_id] = reason
                changed = True
    for bot_id, (bot, belt, _target) in riders.items():
        if bot_id in blocked:
            if blocked[bot_id] == "fence":
                turn.damage(bot, turn.fence, "fence")
            if bot.at is not None:
                turn.emit("blocked", bot_id, at=list(bot.at), dir=belt.dir, by=blocked[bot_id])
    for bot_id, (bot, belt, target) in riders.items():
        if bot_id in blocked or bot.at is None:
            continue
        turn.emit("carried", bot_id, sub=sub, **{"from": list(bot.at), "to": list(target)})
        if turn.place(bot, target):
            landing = tiles.get(target)
            if landing is not None and landing.conveys and landing.dir not in (belt.dir, opposite(belt.dir)) and not (
                steady is not None and steady(bot)
            ):
                if turns == "across" or opposite(belt.dir) in landing.curves_from:
                    turn.rotate(bot, _turn_towards(belt.dir, landing.dir), "belt")
