"""Puzzles (003 "Puzzles": "special courses designed to be puzzles solved by a single player, or a group of
players working together"): the course's `puzzle` block, its target bots, and the outcome.

The block (docs/formats.md "Puzzles"): `goal` (`{"type": "checkpoint", "number": n}`, `{"type": "survive",
"turns": k}` or `{"type": "destroy", "targets": [ids]}`), `turn_limit`, `players`, `seed`, `targets` (bots
of no player, each `{"id", "at", "dir", "program"}`, playing the same five chips every turn) and an optional
`description`. The rules decided here are in docs/rules.md "Puzzles".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .chips import CHIPS, PROGRAM_LENGTH
from .errors import CourseError
from .geometry import DIRECTIONS

if TYPE_CHECKING:
    from .course import Course
    from .turn import Turn

FIELDS = ("goal", "turn_limit", "players", "seed", "targets", "description")
GOALS = ("checkpoint", "survive", "destroy")
DESCRIPTION_LENGTH = 500
MAX_TARGETS = 8
MAX_TURN_LIMIT = 99
MAX_SEED = 2**63 - 1
TARGET_ID_LENGTH = 24
SOLVED, FAILED = "solved", "failed"


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CourseError(f"course: 'puzzle.{field}' must be a whole number from {low} to {high}, got {value!r}")
    return value


def parse_block(data: Mapping, mode: str, players: tuple[int, int]) -> dict[str, Any] | None:
    """The `puzzle` block's own shape (its squares and numbers are checked against the course by
    `check_against`). Required in a puzzle course, an error anywhere else."""
    if "puzzle" not in data:
        return None  # a puzzle course without one gets `default_block`
    value = data["puzzle"]
    if mode != "puzzle":
        raise CourseError(f"course: only a puzzle course has a 'puzzle' block (mode is {mode!r})")
    if not isinstance(value, Mapping):
        raise CourseError("course: 'puzzle' must be a JSON object")
    unknown = [key for key in value if key not in FIELDS]
    if unknown:
        raise CourseError(f"course: 'puzzle' has unknown field(s) {', '.join(sorted(map(repr, unknown)))}")
    for field in ("goal", "turn_limit"):
        if field not in value:
            raise CourseError(f"course: 'puzzle.{field}' is missing")
    block: dict[str, Any] = {
        "goal": _goal(value["goal"]),
        "turn_limit": _whole(value["turn_limit"], "turn_limit", 1, MAX_TURN_LIMIT),
        "players": _whole(value.get("players", players[0]), "players", players[0], players[1]),
        "seed": _whole(value.get("seed", 0), "seed", 0, MAX_SEED),
        "targets": _targets(value.get("targets", [])),
    }
    if "description" in value:
        text = value["description"]
        if (
            not isinstance(text, str)
            or not text.strip()
            or len(text) > DESCRIPTION_LENGTH
            or not all(ch.isprintable() or ch == "\n" for ch in text)
        ):
            raise CourseError(
                f"course: 'puzzle.description' must be a non-empty text of at most {DESCRIPTION_LENGTH} "
                "characters, with no control characters but line breaks"
            )
        block["description"] = text
    goal = block["goal"]
    if goal["type"] == "survive" and goal["turns"] > block["turn_limit"]:
        raise CourseError("course: 'puzzle.goal.turns' can't be more than 'puzzle.turn_limit'")
    if goal["type"] == "destroy":
        ids = {target["id"] for target in block["targets"]}
        for target_id in goal["targets"]:
            if target_id not in ids:
                raise CourseError(f"course: 'puzzle.goal.targets' names {target_id!r}, which is not in 'puzzle.targets'")
    return block


def default_block(course: Course) -> dict[str, Any]:
    """A puzzle course that gives no block: reach the last check point within 99 turns, alone."""
    return {
        "goal": {"type": "checkpoint", "number": len(course.checkpoints)},
        "turn_limit": MAX_TURN_LIMIT,
        "players": course.players[0],
        "seed": 0,
        "targets": [],
    }


def _goal(goal: Any) -> dict[str, Any]:
    if not isinstance(goal, Mapping) or goal.get("type") not in GOALS:
        raise CourseError(
            "course: 'puzzle.goal' must be {\"type\": \"checkpoint\", \"number\": n}, {\"type\": \"survive\", "
            "\"turns\": k} or {\"type\": \"destroy\", \"targets\": [ids]}"
        )
    kind = goal["type"]
    expected = {"checkpoint": "number", "survive": "turns", "destroy": "targets"}[kind]
    extra = [key for key in goal if key not in ("type", expected)]
    if extra or expected not in goal:
        raise CourseError(f"course: 'puzzle.goal' of type {kind!r} has exactly the fields 'type' and {expected!r}")
    if kind == "checkpoint":
        return {"type": kind, "number": _whole(goal["number"], "goal.number", 1, 99)}
    if kind == "survive":
        return {"type": kind, "turns": _whole(goal["turns"], "goal.turns", 1, MAX_TURN_LIMIT)}
    targets = goal["targets"]
    if (
        not isinstance(targets, list)
        or not targets
        or not all(isinstance(t, str) for t in targets)
        or len(set(targets)) != len(targets)
    ):
        raise CourseError("course: 'puzzle.goal.targets' must be a non-empty list of distinct target ids")
    return {"type": kind, "targets": list(targets)}


def _targets(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > MAX_TARGETS:
        raise CourseError(f"course: 'puzzle.targets' must be a list of at most {MAX_TARGETS} target bots")
    targets, seen = [], set()
    for index, raw in enumerate(value):
        where = f"course: 'puzzle.targets[{index}]'"
        if not isinstance(raw, Mapping) or set(raw) != {"id", "at", "dir", "program"}:
            raise CourseError(f"{where} must be an object with exactly 'id', 'at', 'dir' and 'program'")
        target_id = raw["id"]
        if (
            not isinstance(target_id, str)
            or not 1 <= len(target_id) <= TARGET_ID_LENGTH
            or not target_id.isascii()
            or not all(ch.isalnum() or ch in "-_" for ch in target_id)
            or target_id.isdigit()
        ):
            raise CourseError(
                f"{where}: 'id' must be 1 to {TARGET_ID_LENGTH} ASCII letters, digits, '-' or '_', not only digits "
                "(player bots are numbered)"
            )
        if target_id in seen:
            raise CourseError(f"{where}: the id {target_id!r} is used twice")
        seen.add(target_id)
        at = raw["at"]
        if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in at)):
            raise CourseError(f"{where}: 'at' must be [x, y]")
        if raw["dir"] not in DIRECTIONS:
            raise CourseError(f"{where}: 'dir' must be one of N, E, S, W")
        program = raw["program"]
        if not isinstance(program, list) or len(program) != PROGRAM_LENGTH or any(c not in CHIPS for c in program):
            raise CourseError(f"{where}: 'program' must be {PROGRAM_LENGTH} chips from {' '.join(CHIPS)}")
        targets.append({"id": target_id, "at": [at[0], at[1]], "dir": raw["dir"], "program": list(program)})
    return targets


def check_against(block: Mapping[str, Any], course: Course) -> None:
    """The block against the course: check point numbers that exist, target bots on free squares."""
    goal = block["goal"]
    if goal["type"] == "checkpoint" and goal["number"] > len(course.checkpoints):
        raise CourseError(
            f"course: 'puzzle.goal.number' is {goal['number']}, the course has {len(course.checkpoints)} check point(s)"
        )
    starts = {start.at for start in course.starts}
    taken: set = set()
    for index, target in enumerate(block["targets"]):
        at = (target["at"][0], target["at"][1])
        where = f"course: 'puzzle.targets[{index}]' ({target['id']})"
        if not course.on_course(at):
            raise CourseError(f"{where}: {list(at)} is off the course")
        if at in course.pits:
            raise CourseError(f"{where}: {list(at)} is a pit", squares=[at])
        if at in starts:
            raise CourseError(f"{where}: {list(at)} is a start (the players' bots start there)", squares=[at])
        if at in taken:
            raise CourseError(f"{where}: another target stands on {list(at)}", squares=[at])
        taken.add(at)


def target_programs(course: Course) -> dict[str, tuple[str, ...]]:
    if course.puzzle is None:
        return {}
    return {target["id"]: tuple(target["program"]) for target in course.puzzle["targets"]}


def decide(turn: Turn, turn_number: int) -> str | None:
    """At the end of a puzzle turn (or once its goal is met mid-turn): "solved", "failed" or None (go on).
    docs/rules.md "Puzzles"."""
    block = turn.course.puzzle
    players = [bot for bot in turn.bots.values() if not bot.target and bot.drone_of is None]
    goal = block["goal"]
    kind = goal["type"]
    if kind == "checkpoint":
        if any(bot.next_checkpoint > goal["number"] for bot in players):
            return SOLVED
    elif kind == "destroy":
        if all(turn.bots[target_id].lives == 0 for target_id in goal["targets"] if target_id in turn.bots):
            return SOLVED
    if kind == "survive":
        if turn.puzzle_casualty:
            return FAILED
        if turn_number >= goal["turns"]:
            return SOLVED
    if not any(bot.at is not None or bot.lives > 0 for bot in players):
        return FAILED
    if turn_number >= block["turn_limit"]:
        return FAILED
    return None


def goal_met_mid_turn(turn: Turn) -> bool:
    """A checkpoint or destroy goal is met the moment it happens (the turn stops as a won race does)."""
    block = turn.course.puzzle
    goal = block["goal"]
    if goal["type"] == "checkpoint":
        return any(
            bot.next_checkpoint > goal["number"] for bot in turn.bots.values() if not bot.target and bot.drone_of is None
        )
    if goal["type"] == "destroy":
        return all(turn.bots[t].lives == 0 for t in goal["targets"] if t in turn.bots)
    return False


def target_bots(course: Course) -> Sequence[Any]:
    """The puzzle's target bots for a new game: one life each (docs/rules.md "Puzzles")."""
    from .state import Bot

    if course.puzzle is None:
        return ()
    return tuple(
        Bot(
            id=t["id"], at=(t["at"][0], t["at"][1]), dir=t["dir"], spawn_at=(t["at"][0], t["at"][1]),
            spawn_dir=t["dir"], lives=1, battery=0, target=True,
        )
        for t in course.puzzle["targets"]
    )  # fmt: skip


def upgrade_legacy(course_data: Any) -> bool:
    """Rewrite, in place, a course's puzzle block of the first course builder (`goal` a text, `turns`,
    `players`) into this format: the text becomes the `description`, `turns` the `turn_limit` (99 when
    there was none), the goal reaching the last check point, the seed 0. True when it changed anything.
    Used by the data migration of stored courses and games (roboracer/courses/migrations/0003)."""
    if not isinstance(course_data, dict) or course_data.get("mode") != "puzzle":
        return False
    block = course_data.get("puzzle")
    if not isinstance(block, dict) or isinstance(block.get("goal"), Mapping):
        return False
    checkpoints = [
        e for e in course_data.get("elements", []) if isinstance(e, Mapping) and e.get("type") == "checkpoint"
    ]
    new: dict[str, Any] = {
        "goal": {"type": "checkpoint", "number": max(1, len(checkpoints))},
        "turn_limit": block.get("turns") if isinstance(block.get("turns"), int) else MAX_TURN_LIMIT,
        "seed": 0,
        "targets": [],
    }
    if isinstance(block.get("players"), int):
        new["players"] = block["players"]
    text = block.get("goal")
    if isinstance(text, str) and text.strip():
        new["description"] = text[:DESCRIPTION_LENGTH]
    course_data["puzzle"] = new
    return True
