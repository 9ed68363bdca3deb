"""The puzzles: their goals in words, and the puzzle list with who tried and solved each."""

from __future__ import annotations

from django.db.models import Count
from django.urls import reverse

from games.models import Game, Seat
from roboracer.courses import selectors as course_selectors


def puzzle_goal_text(puzzle: dict) -> str:
    goal = puzzle.get("goal") or {}
    kind = goal.get("type")
    limit = puzzle.get("turn_limit")
    within = f" within {limit} turn{'s' if limit != 1 else ''}" if limit else ""
    if kind == "checkpoint":
        return f"Reach check point {goal.get('number')}{within}"
    if kind == "survive":
        return f"Survive {goal.get('turns')} turns with no bot destroyed"
    if kind == "destroy":
        return f"Destroy {', '.join(goal.get('targets', []))}{within}"
    return ""


DIFFICULTY_LEVELS = ((4.0, "Easy"), (7.0, "Medium"))  # a score below 4 is Easy, below 7 Medium, else Hard


def puzzle_difficulty(data: dict) -> tuple[float, str]:
    """A puzzle course's difficulty from its data (docs/modes.md "Puzzle difficulty"): the board elements other
    than plain floor per turn of the turn limit (a survive goal without a limit: per turn to survive), plus 2 for
    each player beyond the first (a cooperative puzzle needs both programs right). Returns (score, label)."""
    puzzle = data.get("puzzle") or {}
    turns = puzzle.get("turn_limit") or (puzzle.get("goal") or {}).get("turns") or 10
    elements = sum(1 for element in data.get("elements", []) if element.get("type") != "floor")
    score = round(elements / max(1, int(turns)) + 2 * (max(1, int(puzzle.get("players", 1))) - 1), 2)
    return score, next((label for bound, label in DIFFICULTY_LEVELS if score < bound), "Hard")


def may_see_solution(*, user, course) -> bool:
    """A player sees a puzzle's solution once they solved it or gave up: they sat in a finished game of it
    (solved, failed, or resigned; issue 40)."""
    if user is None or not user.is_authenticated:
        return False
    return Seat.objects.filter(user=user, game__course=course, game__status=Game.Status.FINISHED).exists()


def puzzle_list(*, user) -> list[dict]:
    """Every playable puzzle course with how many players tried it, how many solved it, the fewest turns a
    solution took, `user`'s own solved games (for replays) and, once `user` solved it or gave up, the address
    of the solver's solution: a fixed number of queries, however many puzzles and games (docs/modes.md
    "Puzzle pages")."""
    courses = [c for c in course_selectors.playable_courses().order_by("name") if (c.data or {}).get("mode") == "puzzle"]
    ids = [course.pk for course in courses]
    played = Seat.objects.filter(game__course_id__in=ids).exclude(game__status__in=[Game.Status.LOBBY, Game.Status.CANCELLED])
    tried = dict(played.values("game__course_id").annotate(n=Count("user_id", distinct=True)).values_list("game__course_id", "n"))
    solved_seats = played.filter(game__status=Game.Status.FINISHED, game__state__outcome="solved")
    solved = dict(solved_seats.values("game__course_id").annotate(n=Count("user_id", distinct=True))
                  .values_list("game__course_id", "n"))  # fmt: skip
    best: dict[int, int] = {}
    for course_id, turn in Game.objects.filter(course_id__in=ids, status=Game.Status.FINISHED,
                                               state__outcome="solved").values_list("course_id", "state__turn"):
        if isinstance(turn, int):
            best[course_id] = min(best.get(course_id, 99), turn - 1)
    mine: dict[int, list[dict]] = {}
    finished: set[int] = set()
    if user is not None and user.is_authenticated:
        finished = set(played.filter(user=user, game__status=Game.Status.FINISHED).values_list("game__course_id",
                                                                                             flat=True))
        for game_id, course_id, turn in (solved_seats.filter(user=user).order_by("-game__finished_at", "-game_id")
                                         .values_list("game_id", "game__course_id", "game__state__turn")):  # fmt: skip
            mine.setdefault(course_id, []).append({"game": game_id, "turns": turn - 1 if isinstance(turn, int) else None,
                                                   "url": reverse("game", args=[game_id])})  # fmt: skip
    rows = [
        {
            "difficulty": puzzle_difficulty(course.data or {}),
            "slug": course.slug, "name": course.name, "course_id": course.pk,
            "description": (course.data.get("puzzle") or {}).get("description", ""),
            "goal": puzzle_goal_text(course.data.get("puzzle") or {}),
            "players": (course.data.get("puzzle") or {}).get("players", course.min_players),
            "turn_limit": (course.data.get("puzzle") or {}).get("turn_limit"),
            "tried": tried.get(course.pk, 0), "solved": solved.get(course.pk, 0), "best_turns": best.get(course.pk),
            "mine": mine.get(course.pk, []),
            "solution_url": reverse("puzzle-solution", args=[course.slug]) if course.pk in finished else None,
        }  # fmt: skip
        for course in courses
    ]
    for row in rows:
        row["difficulty_score"], row["difficulty"] = row["difficulty"]
    return sorted(rows, key=lambda row: (row["difficulty_score"], row["name"]))  # easiest first
