"""The lobby's "Play against the computer" (computer players, issue 20): the card and its form, the view that starts
the game (games.views.lobby.practice), its refusals as flash messages, and the create form's words for the "computer"
timeout policy."""

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_card_offers_one_button_with_defaults_and_asks_strangers_to_sign_in(courses, make_user):
    html = Client().get("/").content.decode()
    card = html.split('id="practice"')[1].split("</section>")[0]
    assert "Play against the computer" in card and "/accounts/signup/" in card and "practice-submit" not in card

    html = logged_in(make_user("carol")).get("/").content.decode()
    card = html.split('id="practice"')[1].split("</section>")[0]
    assert 'action="/games/practice/"' in card and "csrfmiddlewaretoken" in card and 'id="practice-submit"' in card
    # Tiny Yard is chosen, with its player range for the opponents' choice (lobby.ts); no puzzle is offered.
    tiny = courses["tiny-yard"]
    assert f'<option value="{tiny.pk}" selected data-min="1" data-max="4">Tiny Yard</option>' in card
    assert "Puzzle:" not in card
    assert '<option value="1" selected>1</option>' in card and '<option value="normal" selected>Normal</option>' in card
    # The default rules only: a RoboRace course is not offered.
    assert courses["roborace-factory-hall"].name not in card
    # The create form names the computer policy in a player's words.
    assert "A computer player plays for them until they send a program again" in html


def test_one_post_starts_a_game_against_the_computer(courses, make_user):
    carol = make_user("carol")
    answer = logged_in(carol).post("/games/practice/", {
        "course": courses["bolt-bay"].pk, "opponents": 2, "strength": "hard",
    })
    game = Game.objects.get(creator=carol)
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.PROGRAMMING and game.course.slug == "bolt-bay" and not game.rated
    assert dict(game.seats.values_list("number", "computer")) == {1: "", 2: "hard", 3: "hard"}


def test_refusals_come_back_to_the_lobby_as_messages(courses, make_user):
    client = logged_in(make_user("carol"))
    # Tiny Yard takes four players: seven opponents is the service's refusal.
    answer = client.post("/games/practice/", {"course": courses["tiny-yard"].pk, "opponents": 7}, follow=True)
    assert answer.redirect_chain == [("/", 302)]
    assert "Tiny Yard takes 1 to 4 players, not 8" in answer.content.decode()
    # A value the form does not offer is the form's refusal, named by its field.
    answer = client.post("/games/practice/", {"course": courses["tiny-yard"].pk, "opponents": 1, "strength": "godlike"},
                         follow=True)
    assert "Strength: Select a valid choice." in answer.content.decode()
    assert not Game.objects.exists()


def test_a_bare_post_takes_the_defaults(courses, make_user):
    carol = make_user("carol")
    assert logged_in(carol).post("/games/practice/", {}).status_code == 302
    game = Game.objects.get(creator=carol)
    assert game.course.slug == "tiny-yard" and dict(game.seats.values_list("number", "computer")) == {1: "", 2: "normal"}


def test_strangers_are_sent_to_log_in_and_get_is_refused(courses):
    assert Client().post("/games/practice/", {"course": courses["tiny-yard"].pk})["Location"].startswith("/accounts/login/")
    assert Client().get("/games/practice/").status_code == 405
