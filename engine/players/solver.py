"""The puzzle solver (issue 40): a search that knows the puzzle's goal and plays every seat.

    solve(state, seed, budget=...) -> Solution | None

A puzzle's deals are fixed (docs/rules.md "Puzzles": the game seed is the puzzle's seed), so a solution is a
list of turns, each the programs of every seat, that the engine plays to "solved" from the puzzle's first
state: hands `derive_seed(seed, turn, "deal")`, the turn's luck `derive_seed(seed, turn, "resolve")`.

A beam search over turns. For each state in the beam, each seat's hand gives its distinct programs in the
course model (`hard.model_futures`: where each program ends, or, when the puzzle has target robots to push,
the way it goes), the best `PER_SEAT` by the goal's measure; the engine plays every combination of the seats'
programs; a "solved" turn ends the search, a "failed" one is dropped, and the `BEAM` best other states (by the
goal's measure, each distinct state once) go on to the next turn. The budget counts engine calls.

- **checkpoint n**: the registers the nearest player's robot still needs to tag check points up to n (the
  course model's register map);
- **destroy**: for each listed target still on the course, its squares from the nearest hole and the damage
  it can still take, and the nearest player's robot's squares from it;
- **survive**: any state where nobody was destroyed is as good as another (the engine drops the others).
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass
from typing import Any

from .. import rulesets
from ..chips import IDLE, PROGRAM_LENGTH
from ..errors import InputError
from ..geometry import DIRECTIONS, neighbour
from ..program import derive_seed
from ..state import State
from . import course_model, distance, hard
from .programs import cards_for

BEAM = 24  # states kept after each turn
PER_SEAT = 40  # programs per seat tried from each state (one seat)
PER_SEAT_PAIR = 12  # ... with two or more seats (each combination is one engine call)
BUDGET = 30_000  # engine calls


@dataclass(frozen=True)
class Solution:
    turns: tuple[dict[str, tuple[str, ...]], ...]  # per turn, each seat's program
    engine_calls: int


def solve(state: State, seed: int, *, budget: int = BUDGET) -> Solution | None:
    """Programs for every seat, turn by turn, that solve the puzzle from `state` (a puzzle game's state before
    its first turn, or any later one) with the puzzle's `seed`; None when the search finds none in its budget."""
    block = state.course.puzzle
    if state.course.mode != "puzzle" or block is None or state.finished:
        return None
    search = _Search(state, seed, block, budget)
    return search.run()


class _Search:
    def __init__(self, state: State, seed: int, block: dict[str, Any], budget: int):
        self.start, self.seed, self.goal, self.budget = state, seed, block["goal"], budget
        self.rules = rulesets.get(state.ruleset)
        self.model = course_model.model(state)
        self.calls = 0
        self.seats = [bot.id for bot in state.bots if not bot.target and bot.drone_of is None]
        self.holes = _from_holes(state.course) if self.goal["type"] == "destroy" else {}
        self.paths = any(bot.target for bot in state.bots)  # the way matters: there are robots to push

    def run(self) -> Solution | None:
        beam: list[tuple[State, tuple]] = [(self.start, ())]
        while beam and self.calls < self.budget:
            children: dict[tuple, tuple[float, State, tuple]] = {}
            for state, history in beam:
                found = self._expand(state, history, children)
                if found is not None:
                    return Solution(found, self.calls)
            ranked = sorted(children.values(), key=lambda child: child[0])
            beam = [(state, history) for _, state, history in ranked[:BEAM]]
        return None

    def _expand(self, state: State, history: tuple, children: dict) -> tuple | None:
        hands = self.rules.deal(state, derive_seed(self.seed, state.turn, "deal"))
        options = []
        for seat in self.seats:
            bot = state.bot(seat)
            hand = tuple(hands.get(seat, ()))
            required = self._required(bot)
            if required is not None:
                options.append([required])
                continue
            if bot.at is None:
                options.append([tuple(hand[:PROGRAM_LENGTH])])
                continue
            frozen = self.rules.locked(bot)
            futures = hard.model_futures(self.model, bot, hand, frozen, self.rules.max_damage,
                                         until=self._until(), paths=self.paths)  # fmt: skip
            options.append([cards_for(kinds, hand, frozen) for _, kinds in futures[: self._width()]])
        for combination in itertools.product(*options):
            if self.calls >= self.budget:
                break
            programs = dict(zip(self.seats, combination, strict=True))
            self.calls += 1
            try:
                after, _ = self.rules.resolve(state, programs, derive_seed(self.seed, state.turn, "resolve"),
                                              hands={seat: tuple(hands.get(seat, ())) for seat in self.seats})
            except InputError:  # a combination the engine refuses is not a solution
                continue
            path = (*history, programs)
            if after.outcome == "solved":
                return path
            if after.finished or after.outcome is not None:
                continue
            key = _key(after)
            value = self._measure(after)
            if key not in children or value < children[key][0]:
                children[key] = (value, after, path)
        return None

    def _width(self) -> int:
        """Programs per seat: the model does not see target robots, so a destroy goal tries more."""
        width = PER_SEAT if len(self.seats) == 1 else PER_SEAT_PAIR
        return width * 4 if self.goal["type"] == "destroy" else width

    def _required(self, bot) -> tuple[str, ...] | None:
        if self.rules.sits_out(bot):
            return (IDLE,) * PROGRAM_LENGTH
        return None

    def _until(self) -> int | None:
        return self.goal["number"] if self.goal["type"] == "checkpoint" else None

    def _measure(self, state: State) -> float:
        """How far the state is from the goal (lower is nearer)."""
        players = [bot for bot in state.bots if bot.id in self.seats]
        kind = self.goal["type"]
        if kind == "checkpoint":
            return min(self.model.to_go(bot.at or bot.spawn_at, bot.dir, bot.next_checkpoint, self.goal["number"])
                       for bot in players)  # fmt: skip
        if kind == "destroy":
            total = 0.0
            for target_id in self.goal["targets"]:
                target = next((bot for bot in state.bots if bot.id == target_id), None)
                if target is None or target.at is None:
                    continue
                total += 3 * self.holes.get(target.at, 99) + (self.rules.max_damage - target.damage) / 2
                total += min((abs(bot.at[0] - target.at[0]) + abs(bot.at[1] - target.at[1]) for bot in players
                              if bot.at is not None), default=99)  # fmt: skip
            return total
        return sum(bot.damage for bot in players)


def _key(state: State) -> tuple:
    return tuple((bot.id, bot.at, bot.dir, bot.damage, bot.next_checkpoint, bot.lives) for bot in state.bots)


def _from_holes(course) -> dict:
    """Squares from each square to the nearest hole or off the course (walls respected): where a push ends a
    robot."""
    holes = distance.holes(course)
    found = {}
    queue: deque = deque()
    for x in range(course.width):
        for y in range(course.height):
            at = (x, y)
            if at in holes:
                continue
            for heading in DIRECTIONS:
                ahead = neighbour(at, heading)
                if not course.wall_between(at, heading) and (not course.on_course(ahead) or ahead in holes):
                    found[at] = 1
                    queue.append(at)
                    break
    while queue:
        here = queue.popleft()
        for heading in DIRECTIONS:
            there = neighbour(here, heading)
            if course.on_course(there) and there not in holes and there not in found \
                    and not course.wall_between(here, heading):
                found[there] = found[here] + 1
                queue.append(there)
    return found
