"""The HTTP API as a browser uses it: status codes and messages, and no hidden information leaks."""

import json

import pytest
from rest_framework.test import APIClient

from games.models import Program
from tests.games.factories import hand_of, started_game
from tests.helpers import client_for

PLAYERS = ("alice", "bob")  # the `players` fixture (tests/conftest.py)


def test_signup_login_and_csrf(db):
    client = APIClient(enforce_csrf_checks=True)
    assert client.post("/api/auth/signup/", {"username": "zed", "password": "a long passphrase"}).status_code == 403
    client.get("/api/auth/csrf/")
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/api/auth/signup/", {"username": "zed", "password": "a long passphrase"}, HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 201 and response.json()["user"]["username"] == "zed"
    token = client.cookies["csrftoken"].value  # logging in rotates the token
    again = client.post(
        "/api/auth/signup/", {"username": "zed", "password": "a long passphrase"}, HTTP_X_CSRFTOKEN=token
    )
    assert again.status_code == 409
    weak = client.post("/api/auth/signup/", {"username": "zoe", "password": "short"}, HTTP_X_CSRFTOKEN=token)
    assert weak.status_code == 400 and "too short" in weak.json()["detail"]


def test_login_and_logout(make_user):
    make_user("carol")
    client = APIClient(enforce_csrf_checks=True)
    client.get("/api/auth/csrf/")
    token = client.cookies["csrftoken"].value
    wrong = client.post("/api/auth/login/", {"username": "carol", "password": "nope"}, HTTP_X_CSRFTOKEN=token)
    assert wrong.status_code == 400 and wrong.json() == {"detail": "wrong username or password"}
    right = client.post(
        "/api/auth/login/", {"username": "carol", "password": "correct horse battery"}, HTTP_X_CSRFTOKEN=token
    )
    assert right.status_code == 200 and right.json()["user"]["username"] == "carol"
    assert client.get("/api/games/").status_code == 200
    token = client.cookies["csrftoken"].value
    assert client.post("/api/auth/logout/", HTTP_X_CSRFTOKEN=token).status_code == 204
    assert client.get("/api/games/").status_code == 403


def test_anonymous_users_get_403(db):
    assert APIClient().get("/api/games/").status_code == 403


def test_unsafe_requests_need_csrf_with_session_auth(courses, players):
    alice, _ = players
    client = client_for(alice, csrf=True)
    response = client.post("/api/games/", {"course": "tiny-yard"}, format="json")
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]


def test_create_join_and_play_through_the_api(courses, players):
    alice, bob = players
    a, b = client_for(alice), client_for(bob)
    created = a.post("/api/games/", {"course": "tiny-yard", "max_seats": 2}, format="json")
    assert created.status_code == 201
    game_id = created.json()["id"]
    assert b.get("/api/games/").json()["open"][0]["id"] == game_id
    joined = b.post(f"/api/games/{game_id}/join/")
    assert joined.status_code == 200 and joined.json()["status"] == "programming"
    again = b.post(f"/api/games/{game_id}/join/")
    assert again.status_code == 409 and again.json() == {"detail": "this game has already started"}

    hand = a.get(f"/api/games/{game_id}/").json()["me"]["hand"]
    response = a.post(f"/api/games/{game_id}/program/", {"turn": 1, "chips": hand[:5]}, format="json")
    assert response.status_code == 200 and response.json()["chips"] == hand[:5]


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"turn": 1, "chips": ["1", "2", "3", "L"]}, 400, "chips: Ensure this field has at least 5 elements"),
        ({"turn": 1, "chips": ["1", "2", "3", "L", "Q"]}, 400, "register 5: 'Q' is not a chip"),
        ({"turn": 9, "chips": "HAND"}, 409, "turn 9 is not the current turn"),
        ({"chips": "HAND"}, 400, "turn: This field is required"),
    ],
)
def test_bad_programs_get_a_clear_4xx_and_change_nothing(courses, players, body, status, fragment):
    alice, bob = players
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    if body.get("chips") == "HAND":
        body["chips"] = hand_of(game, alice)[:5]
    response = client_for(alice).post(f"/api/games/{game.pk}/program/", body, format="json")
    assert response.status_code == status
    assert fragment in response.json()["detail"]
    assert not Program.objects.exists()


def test_unknown_course_is_a_400(db, make_user):
    response = client_for(make_user("alice")).post("/api/games/", {"course": "atlantis"}, format="json")
    assert response.status_code == 400 and response.json() == {"detail": "there is no course named 'atlantis'"}


def test_malformed_json_is_a_400(courses, players):
    alice, bob = players
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    response = client_for(alice).post(
        f"/api/games/{game.pk}/program/", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400 and "JSON parse error" in response.json()["detail"]


def test_stranger_cannot_submit(courses, players, make_user):
    alice, bob = players
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    response = client_for(make_user("mallory")).post(
        f"/api/games/{game.pk}/program/", {"turn": 1, "chips": hand_of(game, alice)[:5]}, format="json"
    )
    assert response.status_code == 403 and response.json() == {"detail": "you have no seat in this game"}


def test_no_foreign_hand_or_program_in_any_response(courses, players, make_user):
    """Walks every game endpoint as the other player and as a spectator before the turn resolves."""
    alice, bob = players
    spectator = make_user("sam")
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    secret_hand = hand_of(game, alice)
    program = secret_hand[:5]
    client_for(alice).post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": program}, format="json")
    for viewer in (bob, spectator):
        client = client_for(viewer)
        for url in ("/api/games/", f"/api/games/{game.pk}/"):
            body = client.get(url).json()
            text = json.dumps(body)
            assert json.dumps(secret_hand) not in text
            assert json.dumps(program) not in text
            if url.endswith(f"{game.pk}/"):
                assert body["seats"][0]["ready"] is True  # readiness is public, the content is not
                assert body["me"] is None or body["me"]["seat"] == 2
        browser = APIClient()
        browser.force_login(viewer)
        page = browser.get(f"/games/{game.pk}/")
        assert page.status_code == 200 and json.dumps(secret_hand)[1:-1] not in page.content.decode()
    # Stored public events never carry hands or the unrevealed program either.
    for event in game.events.all():
        assert "hand" not in event.data and "chips" not in json.dumps(event.data)


def test_schema_and_offline_docs_are_served(db, make_user):
    client = client_for(make_user("dev"))
    response = client.get("/api/schema/")
    assert response.status_code == 200 and b"/api/games/{game_id}/program/" in response.content
    docs = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/redoc.standalone.js">' in docs and "https://" not in docs
    # The sidecar's Redoc bundle, without the one address it would fetch from outside (Redocly's logo).
    bundle = client.get("/api/docs/redoc.standalone.js").content
    assert b"Redoc" in bundle and len(bundle) > 500_000 and b"cdn.redoc.ly" not in bundle


def test_missing_pages_use_the_site_layout(db, make_user):
    browser = APIClient()
    browser.force_login(make_user("dev"))
    response = browser.get("/games/99999/")
    assert response.status_code == 404 and "Back to the lobby" in response.content.decode()
