"""A course as Hard and the puzzle solver see it: what one register does to a lone robot, and how many registers
each square and heading is from each check point. Built once per course and ruleset and cached.

- **The drift.** Where the course carries a robot that stands on a square during one phase (belts, gears,
  pushers, crushers, wall lasers, pits), found by asking the engine: a lone robot stands idle on each square for
  a turn, and the turn's events say where each phase left it (`_probe`). A phase in which the probe stood
  somewhere else is taken to act as the first phase does.
- **A register.** The chip moves the robot on the bare course (walls stop it, a hole or the edge destroys it),
  then the phase's drift acts on it (`CourseModel.step`). Other robots are not in this model: the engine's
  replays are the truth, the model only ranks.
- **The register map.** `registers(number)`: the registers from each (square, heading) to tag check point
  `number`, each register costing what its chip is worth (a rare Move 3 or U-turn a little more), belts and
  gears included: a robot on an express belt toward the flag is near it. A backward search over the register
  graph of the first phase's drift.

The cache key is the course's canonical text and the ruleset, so a course parsed again for another game (the
site parses each game's state) finds its model. Pure code over the engine: no clock, no random.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections import OrderedDict
from typing import Any

from .. import rulesets
from ..chips import BACK_UP, IDLE, MOVES, PROGRAM_LENGTH, TURNS
from ..errors import InputError
from ..geometry import DIRECTIONS, Square, neighbour, opposite, rotate
from . import distance
from .programs import kind

FAR = 999.0
# What a register with each chip costs in the register map: the rarer chips (003's deck: 6 each of Move 3,
# Back up and U-turn against 12-18 of the others) are less often in hand when wanted.
CHIP_COST = {"1": 1.0, "2": 1.0, "3": 1.15, "B": 1.25, "L": 1.0, "R": 1.0, "U": 1.2}
DAMAGE_COST = 0.3  # registers a point of damage taken on the way is worth in the map
CACHE_SIZE = 32
_CACHE: OrderedDict[tuple[str, str], CourseModel] = OrderedDict()

# One phase's drift of a square: (square after, quarter turns, damage taken, destroyed).
Drift = tuple[Square, int, int, bool]
_STAY: Drift = ((0, 0), 0, 0, False)


def model(state: Any) -> CourseModel:
    """The model of the state's course under its ruleset (built on first use, then cached)."""
    key = (state.course.source, state.ruleset)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = CourseModel(state)
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return found


class CourseModel:
    def __init__(self, state: Any):
        course = self.course = state.course
        self.holes = distance.holes(course)
        self.checkpoints = {marker.number: marker.at for marker in course.checkpoints}
        self.last = max(self.checkpoints, default=0)
        # drift[phase - 1][square] -> Drift; a square missing from a phase acts as in the first phase.
        self.drift: list[dict[Square, Drift]] = [{} for _ in range(PROGRAM_LENGTH)]
        self._probe(state)
        self._maps: dict[int, dict[tuple[Square, str], float]] = {}
        self._tails: dict[int, float] = {}
        self._moves: dict[tuple[Square, str, str], tuple[Square, str, bool]] = {}
        self._steps: dict[tuple[Square, str, str, int], tuple[Square, str, int, bool]] = {}

    # -- what the course does to a lone robot ----------------------------------------------------------
    def _probe(self, state: Any) -> None:
        course = self.course
        resolve = rulesets.get(state.ruleset).resolve
        mine = next((bot for bot in state.bots if not bot.target and bot.drone_of is None), state.bots[0])
        programs = None
        for x in range(course.width):
            for y in range(course.height):
                at = (x, y)
                if at in self.holes:
                    continue
                bot = dataclasses.replace(
                    mine, at=at, dir="N", damage=0, virtual=False, rebooting=False, powered_down=False,
                    power_down_next=False, module=None, charges=0, stored_chip=None, saved_chip=None,
                    next_checkpoint=1, spawn_at=at, spawn_dir="N", lives=max(1, mine.lives), out=None,
                )  # fmt: skip
                alone = dataclasses.replace(state, bots=(bot,), priority=(bot.id,), winner=None,
                                            winning_team=None)  # fmt: skip
                for program in [programs] if programs is not None else _probe_programs(alone, bot.id):
                    try:
                        _, events = resolve(alone, {bot.id: program}, 0, hands=None if program[0] == IDLE else {bot.id: program})
                    except InputError:  # not a program this ruleset takes: the next one
                        continue
                    programs = program
                    self._read(at, bot.id, events)
                    break

    def _read(self, at: Square, bot_id: str, events: list) -> None:
        here, heading, phase, damage, dead = at, "N", 1, 0, False
        start = (at, "N")
        for event in events:
            p = event.get("phase", 0)
            if p != phase:
                if p < phase or p > PROGRAM_LENGTH:
                    continue
                self._record(phase, start, here, heading, damage, dead)
                if dead:
                    return
                phase, damage, start = p, 0, (here, heading)
            if event.get("bot") != bot_id:
                continue
            kind = event["type"]
            if kind == "destroyed":
                dead = True
            elif kind == "damaged":
                damage += int(event.get("amount", 1))
            elif kind == "rotated":
                if event.get("cause") != "chip":  # the probe's own turning chips are not the course's
                    quarter = DIRECTIONS.index(event["to"]) - DIRECTIONS.index(event["from"])
                    heading = rotate(heading, quarter)
            elif kind != "shot":
                to = event.get("to")
                if isinstance(to, list) and len(to) == 2:
                    here = (to[0], to[1])
        self._record(phase, start, here, heading, damage, dead)

    def _record(self, phase: int, start: tuple[Square, str], here: Square, heading: str, damage: int,
                dead: bool) -> None:  # fmt: skip
        origin, facing = start
        quarter = (DIRECTIONS.index(heading) - DIRECTIONS.index(facing)) % 4
        self.drift[phase - 1].setdefault(origin, (here, quarter, damage, dead))

    def drift_of(self, at: Square, phase: int) -> Drift:
        found = self.drift[phase - 1].get(at)
        if found is None:
            found = self.drift[0].get(at)
        if found is None:
            return (at, 0, 0, False)
        return found

    def move(self, at: Square, heading: str, chip: str) -> tuple[Square, str, bool]:
        """The chip on the bare course: (square, heading, destroyed)."""
        key = (at, heading, chip)
        found = self._moves.get(key)
        if found is not None:
            return found
        dead = False
        if chip in TURNS:
            heading = rotate(heading, TURNS[chip])
        elif chip in MOVES or chip == BACK_UP:
            way = heading if chip != BACK_UP else opposite(heading)
            for _ in range(MOVES.get(chip, 1)):
                if self.course.wall_between(at, way):
                    break
                at = neighbour(at, way)
                if not self.course.on_course(at) or at in self.holes:
                    dead = True
                    break
        found = self._moves[key] = (at, heading, dead)
        return found

    def step(self, at: Square, heading: str, chip: str, phase: int) -> tuple[Square, str, int, bool]:
        """One register: (square, heading, damage taken, destroyed). Remembered: the searches ask each many
        times."""
        key = (at, heading, chip, phase)
        found = self._steps.get(key)
        if found is None:
            to, facing, dead = self.move(at, heading, chip)
            if dead:
                found = (to, facing, 0, True)
            else:
                to, quarter, damage, dead = self.drift_of(to, phase)
                found = (to, rotate(facing, quarter) if quarter else facing, damage, dead)
            self._steps[key] = found
        return found

    # -- the register map ------------------------------------------------------------------------------
    def registers(self, number: int) -> dict[tuple[Square, str], float]:
        """Registers from each (square, heading), at the start of a register, to tag check point `number`."""
        found = self._maps.get(number)
        if found is None:
            found = self._maps[number] = self._search(self.checkpoints.get(number))
        return found

    def _search(self, target: Square | None) -> dict[tuple[Square, str], float]:
        if target is None:
            return {}
        back: dict[tuple[Square, str], list[tuple[tuple[Square, str], float]]] = {}
        goal = (target, "*")
        for x in range(self.course.width):
            for y in range(self.course.height):
                at = (x, y)
                if at in self.holes:
                    continue
                for heading in DIRECTIONS:
                    for chip, cost in CHIP_COST.items():
                        to, facing, damage, dead = self.step(at, heading, chip, 1)
                        if dead:
                            continue
                        cost += DAMAGE_COST * damage
                        node = goal if to == target else (to, facing)
                        back.setdefault(node, []).append(((at, heading), cost))
        found: dict[tuple[Square, str], float] = {}
        queue: list[tuple[float, tuple[Square, str]]] = [(0.0, goal)]
        done = set()
        while queue:
            cost, node = heapq.heappop(queue)
            if node in done:
                continue
            done.add(node)
            if node != goal:
                found[node] = cost
            for before, step in back.get(node, ()):
                if before not in done:
                    heapq.heappush(queue, (cost + step, before))
        return found

    def to_go(self, at: Square, heading: str, number: int) -> float:
        """Registers from (square, heading) to finish the course from check point `number` on."""
        if number > self.last:
            return 0.0
        return self.registers(number).get((at, heading), FAR) + self.tail(number)

    def tail(self, number: int) -> float:
        """Registers from check point `number` (reached, any heading) to the end of the course."""
        found = self._tails.get(number)
        if found is None:
            found = 0.0
            if number < self.last:
                at = self.checkpoints[number]
                ways = [self.registers(number + 1).get((at, d), FAR) for d in DIRECTIONS]
                found = sum(ways) / len(ways) + self.tail(number + 1)
            self._tails[number] = found
        return found


def _probe_programs(state: Any, bot_id: str) -> list[tuple[str, ...]]:
    """Programs that keep a lone robot where the course puts it: five idles where the ruleset takes them, else
    turning cards left and right (from the ruleset's own deck, numbered as it numbers them)."""
    programs = [(IDLE,) * PROGRAM_LENGTH]
    lefts: list[str] = []
    rights: list[str] = []
    for seed in range(64):
        for card in rulesets.get(state.ruleset).deal(state, seed).get(bot_id, ()):
            if kind(card) == "L" and card not in lefts:
                lefts.append(card)
            elif kind(card) == "R" and card not in rights:
                rights.append(card)
        if len(lefts) >= 3 and len(rights) >= 2:
            programs.append((lefts[0], rights[0], lefts[1], rights[1], lefts[2]))
            break
        if lefts and rights and "@" not in lefts[0]:  # unnumbered cards: one of each kind is enough
            programs.append((lefts[0], rights[0], lefts[0], rights[0], lefts[0]))
            break
    return programs
