"""Test factories: games in a given stage, built through the real services."""

import engine
from games.models import Hand
from games.services import lobby


def started_game(*, users, course, lives=3):
    game = lobby.create_game(user=users[0], course=course, max_seats=len(users), lives=lives)
    for user in users[1:]:
        lobby.join_game(user=user, game_id=game.pk)
    if len(users) == 1:
        lobby.start_game(user=users[0], game_id=game.pk)
    game.refresh_from_db()
    return game


def hand_of(game, user):
    return Hand.objects.get(seat__game=game, seat__user=user, turn=game.turn).chips


def legal_program(game, user, seed=0):
    """A legal program for the user's seat this turn: damage shrinks the hand and freezes registers."""
    seat = game.seats.get(user=user)
    bot = engine.state_from_dict(game.state, engine.parse_course(game.course_data)).bot(seat.bot_id)
    return list(engine.random_program(bot, hand_of(game, user), seed))
