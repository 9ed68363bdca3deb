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
from ..course import Course, parse_course
from ..elements import ELEMENT_TYPES
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
_HEADING = {heading: index for index, heading in enumerate(DIRECTIONS)}


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
        # drift[phase - 1][square] -> Drift, for every square that is not a hole.
        self.drift: list[dict[Square, Drift]] = [{} for _ in range(PROGRAM_LENGTH)]
        self._moves: dict[tuple[Square, str, str], tuple[Square, str, bool]] = {}
        self._steps: dict[tuple[Square, str, str, int], tuple[Square, str, int, bool]] = {}
        self._maps: dict[int, list[float]] = {}
        self._tails: dict[tuple[int, int], float] = {}
        seen = _probe(state)
        timed = _timed_squares(course)
        # Squares whose elements act only in some phases (crushers, pushers, trapdoors): in a phase the probe
        # did not see, they act as they did in a phase it saw with the same elements active, else as the same
        # course without those elements does.
        bare = _probe(dataclasses.replace(state, course=_without(course))) if timed else [{}]
        for at in seen[0]:
            for phase in range(1, PROGRAM_LENGTH + 1):
                found = seen[phase - 1].get(at)
                if found is None and at in timed:
                    active = phase in timed[at]
                    found = next((seen[p - 1][at] for p in range(1, PROGRAM_LENGTH + 1)
                                  if at in seen[p - 1] and (p in timed[at]) == active), None)  # fmt: skip
                    if found is None and not active:
                        found = bare[0].get(at)
                self.drift[phase - 1][at] = found if found is not None else seen[0][at]
        # The register map counts phases only where the course has timed elements.
        self.phases = PROGRAM_LENGTH if timed else 1
        self.squares = {at: index for index, at in enumerate(sorted(self.drift[0]))}
        self._back: list[list[tuple[int, float]]] | None = None

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
                to, quarter, damage, dead = self.drift[phase - 1].get(to, (to, 0, 0, False))
                found = (to, rotate(facing, quarter) if quarter else facing, damage, dead)
            self._steps[key] = found
        return found

    # -- the register map ------------------------------------------------------------------------------
    def _node(self, at: Square, heading: str, phase: int) -> int:
        return (self.squares[at] * 4 + _HEADING[heading]) * self.phases + (phase - 1) % self.phases

    def _graph(self) -> list[list[tuple[int, float]]]:
        """Every register's edge, backward: node -> [(the node before, the register's cost)]."""
        if self._back is None:
            back: list[list[tuple[int, float]]] = [[] for _ in range(len(self.squares) * 4 * self.phases)]
            for at in self.squares:
                for heading in DIRECTIONS:
                    for phase in range(1, self.phases + 1):
                        node = self._node(at, heading, phase)
                        for chip, cost in CHIP_COST.items():
                            to, facing, damage, dead = self.step(at, heading, chip, phase)
                            if not dead and to in self.squares:
                                back[self._node(to, facing, phase + 1)].append((node, cost + DAMAGE_COST * damage))
            self._back = back
        return self._back

    def registers(self, number: int) -> list[float]:
        """Registers from each node (square, heading, phase of the register about to be played) to tag check
        point `number` (`FAR`: no way there). Dijkstra over the register graph, backward from the check point."""
        found = self._maps.get(number)
        if found is not None:
            return found
        back = self._graph()
        found = self._maps[number] = [FAR] * len(back)
        target = self.checkpoints.get(number)
        if target not in self.squares:
            return found
        queue = [(0.0, self._node(target, heading, phase)) for heading in DIRECTIONS
                 for phase in range(1, self.phases + 1)]  # fmt: skip
        while queue:
            cost, node = heapq.heappop(queue)
            if cost >= found[node]:
                continue
            found[node] = cost
            for before, step in back[node]:
                if cost + step < found[before]:
                    heapq.heappush(queue, (cost + step, before))
        return found

    def to_go(self, at: Square, heading: str, number: int, until: int | None = None) -> float:
        """Registers from (square, heading), at the start of a turn, to tag check points `number` to `until`
        (the last one when None) in order."""
        until = self.last if until is None else until
        if number > until:
            return 0.0
        index = self.squares.get(at)
        if index is None:
            return FAR
        return self.registers(number)[(index * 4 + _HEADING[heading]) * self.phases] + self.tail(number, until)

    def tail(self, number: int, until: int) -> float:
        """Registers from check point `number` (just tagged, any heading) to check point `until`."""
        found = self._tails.get((number, until))
        if found is None:
            found = 0.0
            if number < until and self.checkpoints[number] in self.squares:
                ways = [self.to_go(self.checkpoints[number], d, number + 1, until) for d in DIRECTIONS]
                found = sum(ways) / len(ways)
            self._tails[(number, until)] = found
        return found


def _probe(state: Any) -> list[dict[Square, Drift]]:
    """What each phase did to a lone robot standing idle on each square (per phase: square -> Drift, for the
    squares where the robot stood when that phase began)."""
    course = state.course
    holes = distance.holes(course)
    resolve = rulesets.get(state.ruleset).resolve
    mine = next((bot for bot in state.bots if not bot.target and bot.drone_of is None), state.bots[0])
    seen: list[dict[Square, Drift]] = [{} for _ in range(PROGRAM_LENGTH)]
    programs = None
    for x in range(course.width):
        for y in range(course.height):
            at = (x, y)
            if at in holes:
                continue
            bot = dataclasses.replace(
                mine, at=at, dir="N", damage=0, virtual=False, rebooting=False, powered_down=False,
                power_down_next=False, module=None, charges=0, stored_chip=None, saved_chip=None,
                next_checkpoint=1, spawn_at=at, spawn_dir="N", lives=max(1, mine.lives), out=None,
            )  # fmt: skip
            alone = dataclasses.replace(state, bots=(bot,), priority=(bot.id,), winner=None, winning_team=None)
            for program in [programs] if programs is not None else _probe_programs(alone, bot.id):
                hands = None if program[0] == IDLE else {bot.id: program}
                try:
                    _, events = resolve(alone, {bot.id: program}, 0, hands=hands)
                except InputError:  # not a program this ruleset takes: the next one
                    continue
                programs = program
                _read(seen, at, bot.id, events)
                break
    return seen


def _read(seen: list[dict[Square, Drift]], at: Square, bot_id: str, events: list) -> None:
    """Each phase of a probe's events: where the robot began it, and where it ended, turned how far, hurt,
    destroyed."""
    here, heading, phase, damage, dead = at, "N", 1, 0, False
    start = (at, "N")

    def record() -> None:
        origin, facing = start
        quarter = (DIRECTIONS.index(heading) - DIRECTIONS.index(facing)) % 4
        seen[phase - 1].setdefault(origin, (here, quarter, damage, dead))

    for event in events:
        number = event.get("phase", 0)
        if number != phase:
            if number < phase or number > PROGRAM_LENGTH:
                continue
            record()
            if dead:
                return
            phase, damage, start = number, 0, (here, heading)
        if event.get("bot") != bot_id:
            continue
        kind = event["type"]
        if kind == "destroyed":
            dead = True
        elif kind == "damaged":
            damage += int(event.get("amount", 1))
        elif kind == "rotated":
            if event.get("cause") != "chip":  # the probe's own turning chips are not the course's
                heading = rotate(heading, DIRECTIONS.index(event["to"]) - DIRECTIONS.index(event["from"]))
        elif kind != "shot":
            to = event.get("to")
            if isinstance(to, list) and len(to) == 2:
                here = (to[0], to[1])
    record()


def _timed_squares(course: Course) -> dict[Square, frozenset[int]]:
    """Squares with an element that acts only in some phases (a field of kind "phases"), and those phases."""
    timed: dict[Square, frozenset[int]] = {}
    for element in course.to_dict().get("elements", []):
        if "at" in element and _is_timed(element):
            unit = ELEMENT_TYPES[element["type"]]
            at = (element["at"][0], element["at"][1])
            for name, checker in unit.fields.items():
                if getattr(checker, "kind", None) == "phases" and isinstance(element.get(name), list):
                    timed[at] = timed.get(at, frozenset()) | frozenset(element[name])
    return timed


def _without(course: Course) -> Course:
    """The course without its elements that act only in some phases."""
    data = course.to_dict()
    data["elements"] = [element for element in data.get("elements", []) if not _is_timed(element)]
    return parse_course(data)


def _is_timed(element: dict) -> bool:
    unit = ELEMENT_TYPES.get(element.get("type"))
    return unit is not None and any(getattr(checker, "kind", None) == "phases" and isinstance(element.get(name), list)
                                    for name, checker in unit.fields.items())  # fmt: skip


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
