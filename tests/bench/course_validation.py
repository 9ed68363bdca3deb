"""The course validator's cost on the worst course within today's limits (docs/course-builder.md
"Validator: cost"): `make bench-validate`, or `python -m tests.bench.course_validation`.

The worst course: 64x64 (engine.course.MAX_SIDE), every square under a teleporter of one colour, 8 starts and
99 check points (the most of each), so the validator makes 8 + 98 reachability searches over 4096 squares that
all lead to each other. It prints the CPU seconds of `engine.validate_course` on it (the figure the issue
bounds at 2 s, under the site's budget of 3 s), and, for before/after, the old search (every pair of
teleporters of a colour) against the new one (one hub a colour) on smaller courses of the same shape, where
the old one still finishes.

Not a test: figures depend on the machine. The tests (tests/courses/test_validator_budget.py) count work.
"""

from __future__ import annotations

import argparse
import time
from collections import deque

import engine
from engine.course import MAX_SIDE
from engine.elements.portals import exit_of
from engine.geometry import DIRECTIONS, neighbour

STARTS, CHECKPOINTS = 8, 99


def worst_course(side: int = MAX_SIDE, starts: int = STARTS, checkpoints: int = CHECKPOINTS) -> dict:
    """A side x side race course, a red teleporter over every square, `starts` starts along the top row and
    `checkpoints` check points from the bottom-right corner backwards (far from each other and the starts)."""
    squares = [(x, y) for y in range(side) for x in range(side)]
    elements = [{"type": "teleporter", "at": [x, y], "colour": "red"} for x, y in squares]
    elements += [{"type": "start", "at": [x, 0], "number": x + 1, "dir": "S"} for x in range(starts)]
    for n in range(checkpoints):
        x, y = squares[-1 - 2 * n]
        elements.append({"type": "checkpoint", "at": [x, y], "number": n + 1})
    return {"format": "roboracer-course/1", "name": f"Worst {side}x{side}", "width": side, "height": side,
            "mode": "race", "players": [2, starts], "elements": elements}


def _cpu(function, *args) -> float:
    before = time.process_time()
    function(*args)
    return time.process_time() - before


def _old_steps(course, at):
    """engine.builder._steps as it was before issue 33 (a vent lists its row and column, a teleporter every
    other teleporter of its colour)."""
    from engine.builder import _move_blocked

    for heading in DIRECTIONS:
        ahead = neighbour(at, heading)
        if course.on_course(ahead) and not _move_blocked(course, at, heading):
            yield ahead
        for portal in course.mounted.get("portal", {}).get(at, ()):
            if portal.side == heading:
                exit_square = exit_of(course, portal)
                if exit_square is not None:
                    yield exit_square
    if course.tiles.get(at) is not None and course.tiles[at].type == "vent":
        for heading in DIRECTIONS:
            square = neighbour(at, heading)
            while course.on_course(square):
                yield square
                square = neighbour(square, heading)
    above = course.ceiling.get(at)
    if above is not None and above.type == "teleporter":
        for other in course.of_type("teleporter"):
            if other.colour == above.colour and other.at != at:
                yield other.at


def old_search(course, origin) -> set:
    """The search before issue 33: from a teleporter, a step to every other teleporter of its colour."""
    seen = {origin}
    queue = deque([origin])
    while queue:
        at = queue.popleft()
        for square in _old_steps(course, at):
            if square not in seen and square not in course.pits:
                seen.add(square)
                queue.append(square)
    return seen


def new_search(course, origin) -> bytearray:
    from engine.builder import _graph, _search

    return _search(course, _graph(course), origin, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--side", type=int, default=MAX_SIDE, help="the worst course's side (default 64)")
    args = parser.parse_args()
    data = worst_course(args.side)
    seconds = _cpu(engine.validate_course, data)
    report = engine.validate_course(data)
    searches = STARTS + CHECKPOINTS - 1
    print(f"worst course {args.side}x{args.side}, every square a red teleporter, {STARTS} starts, {CHECKPOINTS} "
          f"check points ({searches} searches): validate_course {seconds:.2f} s CPU "
          f"({len(report['errors'])} errors, {len(report['warnings'])} warnings); bound 2 s: "
          f"{'OK' if seconds <= 2 else 'OVER'}")
    budget = engine.StepBudget(10**12)
    engine.validate_course(data, budget=budget)
    print(f"  work counted: {budget.spent} units ({budget.spent / (args.side * args.side * searches):.1f} a square "
          "a search)")
    print("one search from a start, before (every pair of teleporters) -> after (one hub a colour):")
    for side in (8, 16, 24, 32):
        course = engine.parse_course(worst_course(side, checkpoints=1))
        old, new = _cpu(old_search, course, (0, 0)), _cpu(new_search, course, (0, 0))
        print(f"  {side:2}x{side:<2} ({side * side:4} teleporters): {old * 1000:8.1f} ms -> {new * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
