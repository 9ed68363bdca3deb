"""Direct challenges (issue 41, docs/bot-api.md "Challenges"): a bot or a person challenges a named player or bot to
a game with given settings; accepted (the game made and started) or declined on the API and in the lobby, with a
notice for the bell and account events for the streams; cancelled by the challenger; hostile input is a 4xx that
changes nothing."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import AccountEvent, DirectChallenge, Game, Notice
from games.services import lobby
from tests.bots.helpers import bearer, make_bot

pytestmark = pytest.mark.django_db(transaction=True)
SETTINGS = {"course": "tiny-yard", "lives": 2, "timer_preset": "daily", "rated": True}


def session(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def events_of(user) -> list[tuple]:
    return list(AccountEvent.objects.filter(user=user).order_by("number").values_list("number", "kind"))


def test_a_bot_challenges_a_person_who_accepts_on_the_api(make_user, courses):
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    sent = bearer(token).post("/api/challenges/", {"player": "ANN", **SETTINGS}, format="json")
    assert sent.status_code == 201, sent.content
    challenge = sent.json()
    assert (challenge["challenger"], challenge["challenger_bot"], challenge["challenged"], challenge["status"],
            challenge["board"]) == ("robo", True, "ann", "pending", "Tiny Yard")
    notice = Notice.objects.get(user=ann)
    assert notice.kind == "direct_challenge" and notice.text == "robo challenges you to a game of Tiny Yard"
    assert notice.source == {"direct_challenge": challenge["id"]} and "Pyramid" not in notice.text
    assert session(ann).get("/api/challenges/").json()["incoming"][0]["id"] == challenge["id"]
    assert bearer(token).get("/api/challenges/").json()["outgoing"][0]["id"] == challenge["id"]

    accepted = session(ann).post(f"/api/challenges/{challenge['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    game = Game.objects.get(pk=accepted.json()["game"])
    assert game.status == Game.Status.PROGRAMMING and (game.lives, game.timer_preset, game.rated) == (2, "daily", True)
    assert [(s.number, s.user.username) for s in game.seats.order_by("number")] == [(1, "robo"), (2, "ann")]
    assert events_of(robo) == [(1, "challenge"), (2, "game_start"), (3, "challenge_accepted")]
    assert Notice.objects.get(user=robo).text == "ann accepted your challenge"
    assert Notice.objects.get(user=ann).read_at is not None  # answered: the bell no longer calls her to it
    again = session(ann).post(f"/api/challenges/{challenge['id']}/accept/")
    assert again.status_code == 409 and again.json() == {"detail": "this challenge is accepted"}


def test_the_lobby_shows_a_challenge_and_declines_it_and_sends_one(make_user, courses):
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    challenge = bearer(token).post("/api/challenges/", {"player": "ann", **SETTINGS}, format="json").json()
    page = Client()
    page.force_login(ann)
    lobby_page = page.get("/").content.decode()
    assert 'id="challenges-incoming"' in lobby_page and f'data-challenge-id="{challenge["id"]}"' in lobby_page
    assert "challenges you to a game on Tiny Yard (Daily)" in lobby_page  # the preset's name, not "daily"
    assert 'robo</a> <span class="badge bot-badge"' in lobby_page
    assert page.post(f"/challenges/{challenge['id']}/decline/").status_code == 302
    assert DirectChallenge.objects.get(pk=challenge["id"]).status == "declined"
    assert [kind for _, kind in events_of(robo)] == ["challenge", "challenge_declined"]
    assert "No challenges waiting." in page.get("/").content.decode()
    # ann challenges the bot from the lobby's form; the bot accepts with its token.
    page.post("/challenges/new/", {"challenge-player": "robo", "challenge-course": "tiny-yard",
                                   "challenge-timer_preset": "realtime", "challenge-rated": "on"})
    mine = DirectChallenge.objects.get(challenger=ann)
    assert mine.settings["course"] == "tiny-yard" and mine.settings["max_seats"] == 2
    answer = bearer(token).post(f"/api/challenges/{mine.pk}/accept/")
    assert answer.status_code == 200
    assert page.get(f"/games/{answer.json()['game']}/").status_code == 200


def test_cancelled_and_other_peoples_challenges(make_user, courses):
    robo, token = make_bot(make_user, "robo")
    ann, eve = make_user("ann"), make_user("eve")
    challenge = bearer(token).post("/api/challenges/", {"player": "ann", **SETTINGS}, format="json").json()
    for client, action in ((session(eve), "accept"), (session(eve), "decline"), (session(eve), "cancel"),
                           (session(ann), "cancel"), (bearer(token), "accept")):
        answer = client.post(f"/api/challenges/{challenge['id']}/{action}/")
        assert answer.status_code == 404 and answer.json() == {"detail": "there is no such challenge"}, action
    twice = bearer(token).post("/api/challenges/", {"player": "ann", **SETTINGS}, format="json")
    assert twice.status_code == 409
    assert bearer(token).post(f"/api/challenges/{challenge['id']}/cancel/").json()["status"] == "cancelled"
    assert session(ann).post(f"/api/challenges/{challenge['id']}/accept/").status_code == 409
    assert not Game.objects.exists()


@pytest.mark.parametrize("body", [
    {}, {"player": ""}, {"player": 7, **SETTINGS}, {"player": ["ann"], **SETTINGS}, {"player": "robo", **SETTINGS},
    {"player": "ann"}, {"player": "ann", "course": "no-such-course"}, {"player": "ann", "course": "puzzle-first-steps"},
    {"player": "ann", **SETTINGS, "lives": 0}, {"player": "ann", **SETTINGS, "kind": "chess"},
    {"player": "ann", **SETTINGS, "timer_preset": "custom"}, {"player": "ann", **SETTINGS, "modules": {"a": [[]]}},
    {"player": "ann", **SETTINGS, "ruleset": "classic"}, {"player": "ann\u0000", **SETTINGS},
])
def test_hostile_challenges_are_400_and_make_nothing(make_user, courses, body):
    robo, token = make_bot(make_user, "robo")
    make_user("ann")
    answer = bearer(token).post("/api/challenges/", body, format="json")
    assert answer.status_code in (400, 404), answer.content
    assert isinstance(answer.json()["detail"], str)
    assert not DirectChallenge.objects.exists()


def test_unknown_players_and_bodies_that_are_no_object(make_user, courses):
    robo, token = make_bot(make_user, "robo")
    make_user("computer-normal-1")
    for player in ("nobody", "computer-normal-1", "x" * 200):
        answer = bearer(token).post("/api/challenges/", {"player": player, **SETTINGS}, format="json")
        assert answer.status_code == 404 and answer.json() == {"detail": "there is no such player"}
    for raw in ("[1, 2]", '"ann"', "[" * 3000 + "]" * 3000):
        assert bearer(token).post("/api/challenges/", raw, content_type="application/json").status_code == 400
    assert bearer(token).post("/api/challenges/99999/accept/").status_code == 404


def test_a_bot_plays_at_most_bot_max_games_at_once(make_user, courses, settings):
    settings.BOT_MAX_GAMES = 1
    robo, token = make_bot(make_user, "robo")
    ann, bob = make_user("ann"), make_user("bob")
    first = bearer(token).post("/api/games/", {"course": "tiny-yard", "max_seats": 2}, format="json")
    assert first.status_code == 201
    second = bearer(token).post("/api/games/", {"course": "tiny-yard", "max_seats": 2}, format="json")
    assert second.status_code == 429 and "at most 1 at once" in second.json()["detail"]
    other = lobby.create_game(user=bob, course=courses["tiny-yard"], max_seats=2)
    assert bearer(token).post(f"/api/games/{other.pk}/join/").status_code == 429
    challenge = session(ann).post("/api/challenges/", {"player": "robo", **SETTINGS}, format="json").json()
    refused = bearer(token).post(f"/api/challenges/{challenge['id']}/accept/")
    assert refused.status_code == 429 and DirectChallenge.objects.get(pk=challenge["id"]).status == "pending"
    # People are not limited.
    assert session(ann).post("/api/games/", {"course": "tiny-yard"}, format="json").status_code == 201


def test_a_decline_reason_is_checked_and_the_lobby_forms_refuse_quietly(make_user, courses):
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    challenge = bearer(token).post("/api/challenges/", {"player": "ann", **SETTINGS}, format="json").json()
    for body in ({"reason": "x" * 201}, {"reason": ["no"]}, {"reason": "a\u0000b"}, {"reason": {"a": 1}}):
        assert session(ann).post(f"/api/challenges/{challenge['id']}/decline/", body, format="json").status_code == 400
    assert DirectChallenge.objects.get(pk=challenge["id"]).status == "pending"
    page = Client()
    page.force_login(ann)
    for path, data in (("/challenges/new/", {"challenge-player": "a\u0000", "challenge-course": "tiny-yard"}),
                       ("/challenges/new/", {"challenge-player": "robo", "challenge-course": "nowhere"}),
                       ("/challenges/999999/accept/", {}), (f"/challenges/{challenge['id']}/cancel/", {})):
        assert page.post(path, data).status_code == 302, path
    assert DirectChallenge.objects.count() == 1 and not Game.objects.exists()
    answer = session(ann).post(f"/api/challenges/{challenge['id']}/decline/", {"reason": "not now"}, format="json")
    assert answer.json()["status"] == "declined" and answer.json()["reason"] == "not now"
