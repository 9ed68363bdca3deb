"""Finishing games quickly through the real services: tiny-yard, 1 life, seat `loser` backs off the edge."""

from games.models import Game, Hand
from games.services import moves, organisers, turns
from roboracer.courses.models import Course

HAND = ["B", "B", "1", "L", "R", "U", "L", "R", "2"]
BACK_OFF = ["B", "L", "R", "L", "R"]  # seat 1 of tiny-yard faces away from the edge behind it
STAY = ["L", "R", "L", "R", "U"]


def course_copy(course: Course, *, slug: str, state: str, **data) -> Course:
    """Another course with the same layout (a development course, a puzzle...)."""
    return Course.objects.create(slug=slug, lineage=slug, name=slug, data={**course.data, **data}, state=state,
                                 min_players=course.min_players, max_players=course.max_players)


def finish(game: Game, *, losers=(1,)) -> Game:
    """Play turn 1 of a started 1-life game on tiny-yard so that the seats `losers` back off and the others stay
    (with 3 or more players, all but one must fall for the game to end)."""
    for seat in game.seats.all():
        Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
        chips = BACK_OFF if seat.number in losers else STAY
        moves.submit_program(user=seat.user, game_id=game.pk, turn=1, chips=chips)
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    return game


def played(*, users, course, losers=(1,), **options) -> Game:
    """A seated 1-life game on `course` with `users`, finished: the seats `losers` back off the edge."""
    options.setdefault("lives", 1)
    game = organisers.create_seated_game(creator=users[0], users=users, course=course, **options)
    return finish(game, losers=losers)
