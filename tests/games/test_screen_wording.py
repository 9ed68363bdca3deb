"""What players read (issue 13, "the game screen as a new player met it"): names, not seat numbers, in the
system chat lines; a forfeit is called a forfeit; no exception class names on the 404 page; no rules
document codes or "none game time" in the lobby; no invite box once a private game is under way."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game, GameEvent, Seat
from games.services import chat, ejection, lobby, timeouts
from roboracer.accounts.services import update_profile
from tests.games.factories import started_game


@pytest.fixture
def named(make_user, django_user_model):
    """alice, bob and carol; bob and carol have display names, which is what other players see."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    update_profile(user=bob, display_name="Bob the Builder")
    update_profile(user=carol, display_name="Carol C")
    # As a request would load them (the objects above cache the profiles they were created with).
    return tuple(django_user_model.objects.get(pk=user.pk) for user in (alice, bob, carol))


def system_lines(game):
    return [text for text in GameEvent.objects.filter(game=game, kind="chat", data__system=True)
            .order_by("version").values_list("data__text", flat=True)]


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_an_eject_for_time_names_the_players_and_says_forfeit(courses, named):
    alice, bob, carol = named
    game = started_game(users=[alice, bob, carol], course=courses["bolt-bay"])
    Seat.objects.filter(game=game, user=carol).update(deadline=timezone.now() - timedelta(seconds=1))
    assert chat.post_chat(user=bob, game_id=game.pk, text="!eject")["ejected"] == [3]
    assert system_lines(game) == ["Carol C forfeits: out of game time, ejected by Bob the Builder."]


def test_the_deadline_and_the_timer_policy_name_the_player(courses, named):
    alice, bob, carol = named
    game = started_game(users=[alice, bob, carol], course=courses["bolt-bay"])
    Game.objects.filter(pk=game.pk).update(timeout_policy=Game.TimeoutPolicy.EJECT)
    Seat.objects.filter(game=game, user=bob).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeouts.enforce_deadline(game_id=game.pk) == "ejected"
    assert system_lines(game) == ["Bob the Builder has run out of game time.",
                                  "Bob the Builder forfeits: out of game time, ejected automatically."]
    assert not any("seat" in line.lower() for line in system_lines(game))


def test_waiting_policy_tells_the_others_they_may_eject(courses, named):
    alice, bob, _ = named
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    Seat.objects.filter(game=game, user=bob).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeouts.enforce_deadline(game_id=game.pk) == "expired"
    assert system_lines(game) == ["Bob the Builder has run out of game time. Any player may now send !eject."]


def test_resigning_is_a_forfeit_and_the_last_robot_wins_by_forfeit(courses, named):
    alice, bob, _ = named
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    lobby.leave_game(user=alice, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user == bob
    assert system_lines(game) == ["alice forfeited (resigned).",
                                  "Bob the Builder wins by forfeit: every other robot is out of the race."]


def test_a_staff_eject_is_a_forfeit(courses, named, make_user):
    alice, bob, carol = named
    game = started_game(users=[alice, bob, carol], course=courses["bolt-bay"])
    ejection.staff_eject(user=make_user("admin", is_staff=True), game_id=game.pk, seat_number=2)
    assert system_lines(game) == ["Bob the Builder forfeits: ejected by a moderator."]


def test_the_404_page_shows_no_exception_class(make_user):
    page = Client().get("/no/such/page/")
    assert page.status_code == 404
    assert b"Resolver404" not in page.content and b"There is nothing here." in page.content
    # Our own messages are for players, and still shown.
    missing_game = logged_in(make_user("alice")).get("/games/999999/")
    assert missing_game.status_code == 404 and b"There is nothing here: no such game." in missing_game.content
    assert b"no such demo" in Client().get("/games/demo/?demo=nope").content


def test_the_lobby_says_no_game_time_and_no_rules_codes(courses, make_user):
    alice = make_user("alice")
    lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=2, timer_preset="custom",
                         move_time=300, game_time=0)
    html = logged_in(make_user("bob")).get("/").content.decode()
    assert "5 min a move, no game time" in html
    assert "0 s game time" not in html and "none" not in html.lower()
    # The create form's timeout choices are plain words. Read as text, without the markup: an option's value is a
    # database id, which may well contain "003" on a database that has seen many courses.
    text = re.sub(r"<[^>]*>", " ", html)
    assert "(003)" not in text and "003" not in text
    assert "the others may eject the player with !eject" in html


def test_a_private_game_offers_its_invite_link_only_while_seats_can_be_taken(courses, named):
    alice, bob, _ = named
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=2, visibility="private")
    client = APIClient()
    client.force_authenticate(alice)
    assert client.get(f"/api/games/{game.pk}/").json()["invite_url"].endswith(f"/invite/{game.invite_code}/")
    lobby.join_game(user=bob, game_id=game.pk, invite=game.invite_code)
    assert client.get(f"/api/games/{game.pk}/").json()["status"] == "programming"  # full: it started
    assert client.get(f"/api/games/{game.pk}/").json()["invite_url"] is None
    lobby.leave_game(user=bob, game_id=game.pk)
    finished = client.get(f"/api/games/{game.pk}/").json()
    assert finished["status"] == "finished" and finished["invite_url"] is None
