"""The course builder's test drive (docs/course-builder.md "Test drive"): a private game on a course's current
data, created by its author or staff. Games' side of it: roboracer.courses.services.test_drive_course checks and
locks the course; this creates and starts the game, in the same transaction. (To join games' services package.)"""

from __future__ import annotations

from django.db import transaction

from games import services
from games.models import Game
from roboracer.courses import services as course_services


def start_test_drive(*, user, slug: str, seats: int) -> Game:
    """A private game on the course's current data, created by `user` (the author or staff). One seat: the game
    starts at once, whatever the course's minimum. More: a private lobby to share by its invite link, which the
    creator may start with any number seated (games.services, `test_drive`)."""
    with transaction.atomic():
        course = course_services.test_drive_course(user=user, slug=slug, seats=seats)
        game = services.create_game(user=user, course=course, max_seats=seats,
                                    visibility=Game.Visibility.PRIVATE, test_drive=True)
        if seats == 1:
            game = services.start_game(user=user, game_id=game.pk)
        return game
