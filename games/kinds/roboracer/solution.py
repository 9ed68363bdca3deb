"""A puzzle's solution, replayed (issue 40): the puzzle solver's programs for every seat, turn by turn, in the
form the game screen replays offline (`{"game": snapshot, "turns": [turn record]}`, as static/demo/ and
docs/frontend.md's demo). Offered to a player once they solved the puzzle or gave up (games.selectors.puzzles
`may_see_solution`); the page is `/puzzles/<slug>/solution/`.

The solution is the engine's (`engine.players.solver`), dealt as the site deals a puzzle game (the puzzle's
seed), so it replays exactly; it is found once per course version and process (a few hundredths of a second to
about a second)."""

from __future__ import annotations

import json
from functools import lru_cache

import engine
from engine.players import solver
from games.models import SEAT_COLORS
from games.selectors import puzzles
from roboracer.common.errors import NotAllowed, NotFound
from roboracer.courses import selectors as course_selectors

SOLVER = "Solver"
PUBLIC = ("id", "at", "dir", "damage", "lives", "next_checkpoint", "virtual", "rebooting")


def puzzle_solution(*, course_data: dict) -> dict | None:
    """The replay of a solution of the puzzle course `course_data`, or None when the solver finds none."""
    return _solution(json.dumps(course_data, sort_keys=True))


def _public(state: engine.State) -> dict:
    data = engine.state_to_dict(state)
    bots = []
    for bot in data["bots"]:
        shown = {key: bot.get(key) for key in PUBLIC}
        if bot.get("target"):
            shown["target"] = True
        bots.append(shown)
    return {"bots": bots, "priority": data["priority"], "radiation": data.get("radiation", [])}


@lru_cache(maxsize=32)
def _solution(text: str) -> dict | None:
    data = json.loads(text)
    course = engine.parse_course(data)
    block = course.puzzle
    if course.mode != "puzzle" or block is None:
        return None
    ids = [str(number) for number in range(1, block["players"] + 1)]
    state = engine.new_game(course, ids)
    found = solver.solve(state, block["seed"])
    if found is None:
        return None
    records = []
    for number, programs in enumerate(found.turns, start=1):
        hands = engine.deal(state, engine.derive_seed(block["seed"], state.turn, "deal"))
        after, events = engine.resolve_turn(state, programs, engine.derive_seed(block["seed"], state.turn, "resolve"),
                                            hands=hands)  # fmt: skip
        records.append({"turn": number, "events": events, "programs": {k: list(v) for k, v in programs.items()},
                        "reboots": [], "before": _public(state), "after": _public(after)})  # fmt: skip
        state = after
    seats = [{"number": n, "user": SOLVER, "bot": bot_id, "color": SEAT_COLORS[(n - 1) % len(SEAT_COLORS)],
              "ready": False} for n, bot_id in enumerate(ids, start=1)]  # fmt: skip
    game = {"id": 0, "status": "programming", "turn": state.turn, "version": 0, "course": data, "creator": SOLVER,
            "max_seats": len(ids), "lives": state.lives, "seats": seats, **_public(state), "winner": None,
            "me": None, "last_turn": None, "can_join": False, "can_start": False}  # fmt: skip
    turns = len(found.turns)
    return {"about": f"A solution in {turns} turn{'s' if turns != 1 else ''} of {block['turn_limit']}, found by the "
                     f"puzzle solver ({found.engine_calls} engine calls).", "game": game, "turns": records}


def solution_for(*, user, slug: str) -> dict:
    """The replay of the solution of the puzzle `slug` for `user`: NotFound when there is no such playable
    puzzle (or the solver finds no solution), NotAllowed until `user` solved it or gave up."""
    course = course_selectors.playable_courses().filter(slug=slug).first()
    if course is None or (course.data or {}).get("mode") != "puzzle":
        raise NotFound("there is no such puzzle")
    if not puzzles.may_see_solution(user=user, course=course):
        raise NotAllowed("the solution is shown once you have solved the puzzle or given up")
    found = puzzle_solution(course_data=course.data)
    if found is None:
        raise NotFound("no solution was found for this puzzle")
    return found
