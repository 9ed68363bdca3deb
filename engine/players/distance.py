"""How far a square is from a target: the evaluation's sense of progress, computed once per course and target.

`squares`: steps between squares (walls block, holes and the edge can't be crossed); Easy's and Normal's map.
`registers`: registers a bot needs from a square and a heading, turning included (a Move 3 covers three
squares in one register, a turn costs one); Hard's map, which knows that a bot facing away is further off.
Both are pure functions of the course, cached by course (a parsed course is shared and immutable).
"""

from __future__ import annotations

import heapq
from collections import deque
from functools import lru_cache

from ..course import Course
from ..geometry import DIRECTIONS, Square, neighbour, opposite, rotate

FAR = 999  # no way there


def holes(course: Course) -> frozenset[Square]:
    """Squares a bot falls from: pits and every element with a `hole` hook (receptacles, trapdoors)."""
    return frozenset(course.pits) | frozenset(course.hooks.get("hole", {}))


def _step(course: Course, at: Square, heading: str, blocked: frozenset[Square]) -> Square | None:
    if course.wall_between(at, heading):
        return None
    ahead = neighbour(at, heading)
    if not course.on_course(ahead) or ahead in blocked:
        return None
    return ahead


@lru_cache(maxsize=512)
def squares(course: Course, target: Square) -> dict[Square, int]:
    """Steps from each square to `target` (walls and holes respected); unreachable squares are absent."""
    blocked = holes(course)
    found = {target: 0}
    queue = deque([target])
    while queue:
        here = queue.popleft()
        for heading in DIRECTIONS:
            there = _step(course, here, heading, blocked)
            if there is not None and there not in found and not course.wall_between(there, opposite(heading)):
                found[there] = found[here] + 1
                queue.append(there)
    return found


@lru_cache(maxsize=512)
def registers(course: Course, target: Square) -> dict[tuple[Square, str], int]:
    """Registers from each (square, heading) to `target`: forward 1-3 squares (stopping at a wall, never over a
    hole), back up one, turn left, right or about, each one register. A backward search over that graph."""
    blocked = holes(course)
    states = [((x, y), d) for x in range(course.width) for y in range(course.height) for d in DIRECTIONS
              if (x, y) not in blocked]
    back: dict[tuple[Square, str], list[tuple[Square, str]]] = {}
    for at, heading in states:
        nexts = [(at, rotate(heading, q)) for q in (-1, 1, 2)]
        here = at
        for _ in range(3):
            here = _step(course, here, heading, blocked)
            if here is None:
                break
            nexts.append((here, heading))
        behind = _step(course, at, opposite(heading), blocked)
        if behind is not None:
            nexts.append((behind, heading))
        for state in nexts:
            back.setdefault(state, []).append((at, heading))
    found = {(target, d): 0 for d in DIRECTIONS}
    queue = deque(found)
    while queue:
        state = queue.popleft()
        for before in back.get(state, ()):
            if before not in found:
                found[before] = found[state] + 1
                queue.append(before)
    return found


# What a square's worth of each kind of step costs in squares of straight movement, by how common the chips
# are (003's deck: 18 each of Move 1, Turn left and Turn right, 12 Move 2, 6 Move 3, Back up and U-turn).
FORWARD, BACKWARD, TURN, ABOUT = 1.0, 1.6, 1.5, 2.2


@lru_cache(maxsize=512)
def effort(course: Course, target: Square) -> dict[tuple[Square, str], float]:
    """Squares-worth of effort from each (square, heading) to `target`: a step forward costs 1, a step back,
    a quarter turn and a U-turn cost what the rarer chips they need are worth. Hard's map: like `squares`,
    but a robot facing away is further off, by about what turning costs with a real hand."""
    blocked = holes(course)
    back: dict[tuple[Square, str], list[tuple[tuple[Square, str], float]]] = {}
    for x in range(course.width):
        for y in range(course.height):
            at = (x, y)
            if at in blocked:
                continue
            for heading in DIRECTIONS:
                moves = [((at, rotate(heading, q)), TURN) for q in (-1, 1)]
                moves.append(((at, rotate(heading, 2)), ABOUT))
                ahead = _step(course, at, heading, blocked)
                if ahead is not None:
                    moves.append(((ahead, heading), FORWARD))
                behind = _step(course, at, opposite(heading), blocked)
                if behind is not None:
                    moves.append(((behind, heading), BACKWARD))
                for state, cost in moves:
                    back.setdefault(state, []).append(((at, heading), cost))
    found: dict[tuple[Square, str], float] = {}
    queue = [(0.0, target, d) for d in DIRECTIONS]
    while queue:
        cost, at, heading = heapq.heappop(queue)
        if (at, heading) in found:
            continue
        found[(at, heading)] = cost
        for before, step in back.get((at, heading), ()):
            if before not in found:
                heapq.heappush(queue, (cost + step, before[0], before[1]))
    return found
