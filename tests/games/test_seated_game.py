"""Games the site seats itself (tournaments, the pyramid) and the game_finished signal other apps hear."""

import pytest

from games.models import Game, Hand
from games.services import moves, organisers, turns
from games.signals import game_finished
from roboracer.common.errors import InvalidInput

HAND = ["B", "B", "1", "L", "R", "U", "L", "R", "2"]


PLAYERS = ("ann", "ben", "cat", "dan")  # the `players` fixture (tests/conftest.py)


def test_a_seated_game_starts_at_once_with_its_players_in_order(courses, players):
    organiser, *seated = players
    game = organisers.create_seated_game(creator=organiser, users=seated, course=courses["tiny-yard"], lives=1)
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING and game.turn == 1 and game.creator == organiser
    assert [(s.number, s.user.username) for s in game.seats.order_by("number")] == [
        (1, "ben"), (2, "cat"), (3, "dan")]
    assert Hand.objects.filter(seat__game=game, turn=1).count() == 3
    assert len({s.color for s in game.seats.all()}) == 3


def test_a_seated_game_refuses_repeated_players_and_creates_nothing(courses, players):
    with pytest.raises(InvalidInput):
        organisers.create_seated_game(creator=players[0], users=[players[1], players[1]], course=courses["tiny-yard"])
    assert not Game.objects.exists()


def test_game_finished_is_sent_once_with_the_game_stored_finished(courses, players):
    heard = []

    def receiver(sender, game, state, **kwargs):
        stored = Game.objects.get(pk=game.pk)
        heard.append((stored.status, stored.winner.number if stored.winner else None, dict(state.places)))

    game_finished.connect(receiver)
    try:
        game = organisers.create_seated_game(creator=players[0], users=players[:2], course=courses["tiny-yard"],
                                           lives=1)
        programs = {1: ["B", "L", "R", "L", "R"], 2: ["L", "R", "L", "R", "U"]}
        for seat in game.seats.all():
            Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
            moves.submit_program(user=seat.user, game_id=game.pk, turn=1, chips=programs[seat.number])
        turns.resolve_turn(game_id=game.pk, turn=1)
        turns.resolve_turn(game_id=game.pk, turn=1)  # a redelivered task: nothing more
    finally:
        game_finished.disconnect(receiver)
    assert heard == [(Game.Status.FINISHED, 2, {"2": 1, "1": 2})]
