"""Pyramids, players placed where a test needs them, and challenge games played to a chosen end."""

from games.models import Hand
from games.services import moves, turns
from roboracer.pyramid.models import Place, Pyramid

HAND = ["B", "B", "1", "L", "R", "U", "L", "R", "2"]
BACK_OFF = ["B", "L", "R", "L", "R"]  # on Tiny Yard, with 1 life: off the edge and out of the race
STAY = ["L", "R", "L", "R", "U"]


def pyramid(*, courses, slug="test", **fields) -> Pyramid:
    """A pyramid whose games are on Tiny Yard with 1 life, so one turn can end them."""
    made = Pyramid.objects.create(slug=slug, name=f"Pyramid {slug}", lives=1, **fields)
    made.courses.set([courses["tiny-yard"]])
    return made


def place(pyramid, user, row, position, points=2) -> Place:
    return Place.objects.create(pyramid=pyramid, user=user, row=row, position=position, points=points)


def play_out(game, winner: int | None) -> None:
    """Play turn 1 so that seat `winner` wins (1: the challenger, 2: the defender) or nobody does (None)."""
    programs = {1: STAY if winner == 1 else BACK_OFF, 2: STAY if winner == 2 else BACK_OFF}
    submit_turn_one(game, programs)
    turns.resolve_turn(game_id=game.pk, turn=1)


def submit_turn_one(game, programs: dict) -> None:
    for seat in game.seats.select_related("user"):
        Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
        moves.submit_program(user=seat.user, game_id=game.pk, turn=1, chips=programs[seat.number])
