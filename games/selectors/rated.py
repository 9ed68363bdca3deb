"""Whether a game is rated: a game's policy (issue 35), read by the lobby, the snapshot and the rating of a
finished game (docs/ratings.md "Which games are rated")."""

from __future__ import annotations

from django.db.models import TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from games import kinds
from games.models import Program
from roboracer.courses.models import Course

# The modes a game may be rated in (docs/ratings.md "Which games are rated"). Team mode joins when it exists;
# until then a mode not listed here (puzzle, and any the engine adds later) is unrated.
RATED_MODES = ("race", "arena")


def annotations() -> dict:
    """What a lobby query annotates so that `is_rated` reads no layout: the mode from the game's copy of the
    course (which the lobby does not read whole)."""
    return {"course_mode": Coalesce(KT("course_data__mode"), Value("race"), output_field=TextField())}
def game_mode(*, game) -> str:
    """The game's mode, from its own copy of the course (a lobby query may annotate it as `course_mode`
    instead of reading the whole layout)."""
    mode = getattr(game, "course_mode", None)
    if mode is None:
        mode = (game.course_data or {}).get("mode", "race")
    return mode


def is_rated(*, game) -> bool:
    """Whether a finished `game` changes its players' ratings, its kind's (docs/ratings.md "Which games are
    rated"): the creator left it rated, it is not a course builder's test drive, and for a kind played on
    courses (RoboRacer) its course is stable and its mode is race or arena (team mode when it comes; puzzles
    never); a RAMbots game has no course to ask about. Games with computer players are never rated: seating one
    (games.services.add_computer, practice_game, a tournament table filled with computers) clears the game's
    `rated`, so this check needs no query of the seats (docs/computer-players.md). A game of one seat is never
    rated: one created for one player, or one its creator started alone (starting closes the empty seats, so
    `max_seats` is then the number seated)."""
    if not game.rated or game.test_drive or game.aborted:  # aborted: fewer than two seats moved
        return False
    if game.max_seats < 2:  # a solo game: nobody to compare with
        return False
    kind = kinds.of(game)
    if not kind.rated:  # a kind with no rating pool of its own (docs/game-kinds.md)
        return False
    if not kind.uses_courses:  # RAMbots: no course, no mode; rated in its own kind's rating
        return True
    if type(game).course.is_cached(game):
        stable = game.course.state == Course.State.STABLE
    else:  # only the column asked about: not the course's layout, on every pushed snapshot
        stable = Course.objects.filter(pk=game.course_id, state=Course.State.STABLE).exists()
    if not stable:
        return False
    return game_mode(game=game) in RATED_MODES




def moved_seat_ids(*, game) -> set[int]:
    """The ids of the game's seats that moved: sent at least one program (docs/ratings.md "Aborted games").
    A program the autopilot or a computer player sent for the seat counts; a seat ejected or resigned before
    its first program never moved."""
    return set(Program.objects.filter(seat__game=game).values_list("seat_id", flat=True).distinct())
