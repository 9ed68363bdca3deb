"""Hostile input over HTTP: every answer is a 4xx with a readable message, nothing changes, and nothing
reaches the log at ERROR (no traceback), for the API and the pages, signed in or not."""

import logging

import pytest
from django.test import Client

from games.models import ChatMessage, Game, GameEvent, Program, Seat
from games.services import chat, lobby
from tests.games.factories import started_game

CSRF = "Q" * 32
# str.isdigit() says yes to the first three, isnumeric() to all; int() to none.
UNICODE_DIGITS = ["²", "①", "⁹", "½", "Ⅻ"]


@pytest.fixture
def no_errors_logged(caplog):
    """Fails the test if anything was logged at ERROR or above, or with a traceback."""
    caplog.set_level(logging.INFO)
    yield caplog
    # The test's records: caplog.records is the current phase's, teardown's by now.
    bad = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [f"{r.name}: {r.getMessage()[:200]}" for r in bad]


@pytest.fixture
def world(courses, make_user):
    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    private = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=3, visibility="private")
    return {"alice": alice, "bob": bob, "eve": eve, "game": game, "private": private}


def client(user=None, *, csrf=False) -> Client:
    """A test client that returns a 500 instead of raising it; with `csrf`, it enforces CSRF as browsers meet it
    and carries a valid token pair."""
    c = Client(raise_request_exception=False, enforce_csrf_checks=csrf)
    if user is not None:
        c.force_login(user)
    if csrf:
        c.cookies["csrftoken"] = CSRF
    return c


def fingerprint() -> tuple:
    """Everything a refused request must leave as it was."""
    return (
        tuple(Game.objects.order_by("pk").values_list("pk", "version", "status", "turn", "max_seats")),
        Seat.objects.count(), Program.objects.count(), ChatMessage.objects.count(), GameEvent.objects.count(),
    )


def json_posts(world) -> list[str]:
    game = world["game"].pk
    return [
        "/api/games/", f"/api/games/{game}/join/", f"/api/games/{game}/start/", f"/api/games/{game}/leave/",
        f"/api/games/{game}/cancel/", f"/api/games/{game}/chat/", f"/api/games/{game}/program/",
        f"/api/games/{game}/seats/2/eject/", "/api/auth/signup/", "/api/auth/login/", "/api/auth/logout/",
    ]


BAD_JSON = [
    ("[" * 100_000, "JSON parse error - nested too deeply"),
    ('{"text": ' * 50_000, "JSON parse error - nested too deeply"),
    (b"\xff\xfe\x00\x80 not UTF-8", "JSON parse error - 'utf-8' codec can't decode byte 0xff"),
    ("{oops", "JSON parse error"),
]


def test_bad_json_is_a_400_everywhere(world, no_errors_logged):
    before = fingerprint()
    for body, detail in BAD_JSON:
        for path in json_posts(world):
            response = client(world["alice"], csrf=True).post(
                path, data=body, content_type="application/json", headers={"X-CSRFToken": CSRF}
            )
            assert response.status_code == 400, (path, response.status_code, response.content[:200])
            assert response.json()["detail"].startswith(detail), (path, response.json())
    assert fingerprint() == before


def test_a_deeply_nested_profile_patch_is_a_400(world, no_errors_logged):
    response = client(world["alice"], csrf=True).patch(
        "/api/profile/", data="[" * 100_000, content_type="application/json", headers={"X-CSRFToken": CSRF}
    )
    assert response.status_code == 400 and response.json()["detail"] == "JSON parse error - nested too deeply"


def test_a_wrong_content_type_is_a_415(world, no_errors_logged):
    before = fingerprint()
    for path in json_posts(world):
        response = client(world["alice"], csrf=True).post(
            path, data=b"\x00\x01binary", content_type="application/octet-stream", headers={"X-CSRFToken": CSRF}
        )
        assert response.status_code == 415, (path, response.status_code)
        assert response.json()["detail"] == 'Unsupported media type "application/octet-stream" in request.'
    assert fingerprint() == before


def test_too_many_form_fields_is_a_readable_400_on_the_api(world, no_errors_logged):
    body = "&".join(f"f{i}=1" for i in range(1_100))
    before = fingerprint()
    response = client(world["alice"], csrf=True).post(
        f"/api/games/{world['game'].pk}/chat/", data=body, content_type="application/x-www-form-urlencoded",
        headers={"X-CSRFToken": CSRF},
    )
    assert response.status_code == 400 and response.json() == {"detail": "too many form fields"}
    query = client(world["alice"]).get(f"/api/games/{world['game'].pk}/chat/?{body}")
    assert query.status_code == 400 and query.json() == {"detail": "too many form fields"}
    assert fingerprint() == before


def test_too_many_form_fields_on_a_page_is_a_400_and_a_warning(world, no_errors_logged):
    body = "&".join([f"csrfmiddlewaretoken={CSRF}", *(f"f{i}=1" for i in range(1_100))])
    before = fingerprint()
    for path in ["/", f"/games/{world['game'].pk}/leave/", "/accounts/login/", "/profile/"]:
        response = client(world["alice"], csrf=True).post(
            path, data=body, content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code == 400, path
    assert client(world["alice"]).get(f"/?{body}").status_code == 400  # the lobby reads ?course=
    assert fingerprint() == before
    warnings = [r for r in no_errors_logged.records if r.name == "django.security.TooManyFieldsSent"]
    assert len(warnings) == 5 and all(r.levelno == logging.WARNING for r in warnings)


def test_a_broken_multipart_form_on_a_page_is_a_400_without_a_traceback(world, no_errors_logged):
    """Django answers it with a 400 and logged the parse error with its traceback."""
    before = fingerprint()
    for content_type in ["multipart/form-data", "multipart/form-data; boundary=\xff"]:
        for path in ["/", f"/games/{world['game'].pk}/leave/", "/accounts/login/"]:
            response = client(world["alice"], csrf=True).post(path, data=b"--x\r\nbad", content_type=content_type)
            assert response.status_code == 400, (path, content_type)
    assert fingerprint() == before
    logged = [r for r in no_errors_logged.records if r.getMessage().startswith("Bad request (Unable to parse")]
    assert len(logged) == 6 and all(r.levelno == logging.WARNING for r in logged)


def test_a_non_ascii_invite_code_is_a_404(world, no_errors_logged):
    private = world["private"]
    eve = world["eve"]
    before = fingerprint()
    for code in ["été", "日本語", "\U0001f916" * 4, "a" * 5000, "%00", "%FF"]:
        page = client(eve).get(f"/games/{private.pk}/invite/{code}/")
        assert page.status_code == 404, code
        posted = client(eve).post(f"/games/{private.pk}/invite/{code}/")
        assert posted.status_code == 404, code
        joined = client(eve).post(f"/api/games/{private.pk}/join/", {"invite": code[:64]},
                                  content_type="application/json")
        assert joined.status_code == 404 and joined.json() == {"detail": f"game {private.pk} does not exist"}
    assert fingerprint() == before
    # The right code still works.
    assert client(eve).get(f"/games/{private.pk}/invite/{private.invite_code}/").status_code == 200


def test_a_bad_before_is_a_400(world, no_errors_logged):
    game = world["game"]
    for before in [*UNICODE_DIGITS, "abc", "-1", "0", "1.5", "99999999999999999999999"]:
        response = client(world["alice"]).get(f"/api/games/{game.pk}/chat/", {"before": before})
        assert response.status_code == 400, (before, response.content)
        assert response.json()["detail"].startswith("before: "), response.json()


def test_a_good_before_pages_the_chat(world, no_errors_logged):
    game, alice = world["game"], world["alice"]
    ids = [chat.post_chat(user=alice, game_id=game.pk, text=f"line {n}")["message"]["id"] for n in range(3)]
    response = client(alice).get(f"/api/games/{game.pk}/chat/", {"before": str(ids[2])})
    assert response.status_code == 200 and [m["id"] for m in response.json()["messages"]] == ids[:2]


def test_a_unicode_digit_course_in_the_lobby_link_preselects_nothing(world, no_errors_logged):
    for value in [*UNICODE_DIGITS, "99999999999999999999999", "-3", "x"]:
        response = client(world["alice"]).get("/", {"course": value})
        assert response.status_code == 200
        assert " selected>" not in response.content.decode().split('id="id_course"')[1].split("</select>")[0]


def test_ids_beyond_any_integer_column_are_a_404(world, no_errors_logged):
    big = "9" * 30
    before = fingerprint()
    for path in ["/games/{big}/", "/games/{big}/invite/abc/", "/api/games/{big}/", "/api/games/{big}/chat/",
                 "/api/games/{game}/turns/{big}/"]:
        response = client(world["alice"]).get(path.format(big=big, game=world["game"].pk))
        assert response.status_code == 404, path
    for path in ["/games/{big}/join/", "/api/games/{big}/join/", "/api/games/{big}/program/"]:
        response = client(world["alice"]).post(path.format(big=big), {"turn": 1, "chips": ["1"] * 5},
                                               content_type="application/json")
        assert response.status_code == 404, path
    assert fingerprint() == before


def test_hostile_bodies_to_the_pages(world, no_errors_logged):
    """Invalid UTF-8, NUL characters and absurd numbers in form posts, signed in or not: a page with the form's
    errors or a 4xx, never a 500."""
    before = fingerprint()
    for user in (None, world["alice"]):
        _post_hostile_bodies(client(user))
    assert fingerprint() == before


def _post_hostile_bodies(c):
    bodies = [
        b"course=\xff\xfe&max_seats=\xc3\x28&lives=%00",
        "course=1&max_seats=²&lives=①&visibility=private&timer_preset=custom&move_minutes=9" + "9" * 40,
        "username=%00&password1=\ud7ff&password2=x",
        b"\x00\x01\x02",
    ]
    for path in ["/", "/accounts/signup/", "/accounts/login/", "/profile/"]:
        for body in bodies:
            response = c.post(path, data=body, content_type="application/x-www-form-urlencoded")
            assert response.status_code < 500, (path, body, response.status_code)
