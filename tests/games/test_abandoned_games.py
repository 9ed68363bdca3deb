"""A game a person left, with only computer players in it (the players' trial: under the "wait" policy it never
ended, and the lobby featured it): when the person's game time runs out, the computers eject them, as any
player may (003 "!eject"), and the game ends; meanwhile the lobby does not feature it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Seat
from games.selectors import lobby as lobby_selectors
from games.services import computer_seats, lobby, timeouts

pytestmark = pytest.mark.django_db


def against_computers(user, course, computers=1):
    game = lobby.create_game(user=user, course=course, max_seats=computers + 1)
    for _ in range(computers):
        computer_seats.add_computer(user=user, game_id=game.pk, strength="easy")
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING and game.timeout_policy == Game.TimeoutPolicy.WAIT
    return game


def out_of_time(game, user):
    Seat.objects.filter(game=game, user=user).update(deadline=timezone.now() - timedelta(seconds=1))


def test_the_computers_eject_a_person_out_of_time_and_the_game_ends(courses, make_user):
    ann = make_user("ann")
    game = against_computers(ann, courses["bolt-bay"])
    out_of_time(game, ann)
    assert timeouts.enforce_deadline(game_id=game.pk) == "ejected"
    game.refresh_from_db()
    seat = Seat.objects.get(game=game, user=ann)
    assert seat.ejected_at is not None and seat.ejected_by == "computers"
    assert game.status == Game.Status.FINISHED  # one robot left: it wins by forfeit
    assert game.chat.filter(text__contains="ejected by the computer players").exists()


def test_with_another_person_in_the_game_it_still_waits_for_them(courses, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    game = lobby.create_game(user=ann, course=courses["bolt-bay"], max_seats=3)
    lobby.join_game(user=ben, game_id=game.pk)
    computer_seats.add_computer(user=ann, game_id=game.pk, strength="easy")
    out_of_time(game, ann)
    assert timeouts.enforce_deadline(game_id=game.pk) == "expired"  # ben decides, as before
    assert Seat.objects.get(game=game, user=ann).ejected_at is None


def test_the_lobby_features_only_a_game_a_person_still_plays(courses, make_user):
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    left = against_computers(ann, courses["bolt-bay"])
    played = lobby.create_game(user=ben, course=courses["bolt-bay"], max_seats=2)
    lobby.join_game(user=cat, game_id=played.pk)
    # The abandoned game would come first: it is the newer with the same rating sum, so make it the newest.
    Game.objects.filter(pk=left.pk).update(updated_at=timezone.now() + timedelta(seconds=5))
    Seat.objects.filter(game=left, user=ann).update(expired=True)
    live = lobby_selectors.live_games()
    assert live["featured"]["game"].pk == played.pk
    assert {e["game"].pk for e in live["watch"]} == {left.pk, played.pk}  # still there to watch
    Game.objects.filter(pk=played.pk).update(status=Game.Status.FINISHED)  # the attended game ends
    assert lobby_selectors.live_games()["featured"] is None
