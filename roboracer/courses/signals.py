"""What the course pages ask the apps above courses, so that courses imports none of them (docs/architecture.md
"Layers").

`course_games` is asked by the course page for a writer of the course (its author, staff): `sender=Course,
course=<Course>, user=<User>`. A receiver answers the games played on that course that the user may see, newest
first (games answers: games/receivers.py). With no receiver the page lists none.
"""

from django.dispatch import Signal

course_games = Signal()


def games_on(*, course, user) -> list:
    """The games on `course` that `user` may see, as the receivers of `course_games` answer them."""
    return [game for _receiver, games in course_games.send(sender=type(course), course=course, user=user)
            for game in games]
