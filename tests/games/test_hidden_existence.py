"""A private game is a 404 to a stranger on every HTTP route, indistinguishable from an id that never existed:
same status, same body (but for the id), the same number of queries, and no flash message left behind.
Its players and staff still get through."""

import re

import pytest
from django.db import connection
from django.test import Client

from games.models import ChatMessage, Game, GameEvent, Program, Seat
from games.services import lobby as lobby_services
from tests.games.factories import started_game

CSRF = "Q" * 32
WRONG_CODE = "wrong-code-000000"

# (method, path, JSON body or None for a form post)
ROUTES = [
    ("get", "/games/{id}/", None),
    ("get", "/games/{id}/invite/" + WRONG_CODE + "/", None),
    ("post", "/games/{id}/invite/" + WRONG_CODE + "/", None),
    ("post", "/games/{id}/join/", None),
    ("post", "/games/{id}/start/", None),
    ("post", "/games/{id}/leave/", None),
    ("post", "/games/{id}/cancel/", None),
    ("get", "/api/games/{id}/", None),
    ("get", "/api/games/{id}/chat/", None),
    ("get", "/api/games/{id}/chat/?before=1", None),
    ("get", "/api/games/{id}/chat/?before=%C2%B2", None),
    ("get", "/api/games/{id}/turns/1/", None),
    ("post", "/api/games/{id}/join/", {}),
    ("post", "/api/games/{id}/join/", {"invite": WRONG_CODE}),
    ("post", "/api/games/{id}/join/", {"invite": "été"}),
    ("post", "/api/games/{id}/start/", {}),
    ("post", "/api/games/{id}/leave/", {}),
    ("post", "/api/games/{id}/cancel/", {}),
    ("post", "/api/games/{id}/chat/", {"text": "hello?"}),
    ("post", "/api/games/{id}/chat/", {"text": "!eject"}),
    ("post", "/api/games/{id}/chat/", {"text": "!archive"}),
    ("post", "/api/games/{id}/program/", {"turn": 1, "chips": ["1", "1", "1", "1", "1"]}),
    ("post", "/api/games/{id}/seats/1/eject/", {}),
]


@pytest.fixture
def private_games(courses, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    lobby = lobby_services.create_game(user=alice, course=courses["bolt-bay"], max_seats=3, visibility="private")
    lobby_services.join_game(user=bob, game_id=lobby.pk, invite=lobby.invite_code)
    playing = lobby_services.create_game(user=alice, course=courses["bolt-bay"], max_seats=2, visibility="private")
    lobby_services.join_game(user=bob, game_id=playing.pk, invite=playing.invite_code)
    public = started_game(users=[alice, carol], course=courses["bolt-bay"])
    return {"lobby": lobby, "playing": playing, "public": public, "alice": alice, "bob": bob}


def browser(user=None) -> Client:
    """A client as a browser meets the site: CSRF enforced, with a valid token pair on every unsafe request."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = CSRF
    if user is not None:
        client.force_login(user)
    return client


def call(client: Client, method: str, path: str, body):
    if method == "get":
        return client.get(path)
    if body is None:  # an HTML form
        return client.post(path, {"csrfmiddlewaretoken": CSRF})
    return client.post(path, body, content_type="application/json", headers={"X-CSRFToken": CSRF})


def normalised(response, game_id: int) -> tuple:
    body = response.content.decode()
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value=""', body)
    return response.status_code, _without_id(response.get("Location", ""), game_id), _without_id(body, game_id)


def _without_id(text: str, game_id: int) -> str:
    """The id where it names the game: in a path (also URL-quoted, as in ?next=) or as "game <id>"."""
    return re.sub(rf"((?:/|%2F)games(?:/|%2F)|game ){game_id}\b", r"\1<id>", text)


def fingerprint() -> tuple:
    return (
        tuple(Game.objects.order_by("pk").values_list("pk", "version", "status", "turn", "max_seats")),
        Seat.objects.count(), Program.objects.count(), ChatMessage.objects.count(), GameEvent.objects.count(),
    )


def observe(client: Client, method: str, template: str, body, game_id: int) -> tuple:
    """The answer, modulo the id; the queries it took; and what the next page shows (a flash message left
    behind in the session would show there)."""
    path = template.format(id=game_id)
    queries = []

    def count(execute, sql, params, many, context):
        # Not CaptureQueriesContext: it measures the growth of a log capped at 9000 entries, 0 once full.
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = call(client, method, path, body)
    after = client.get("/").content.decode()
    flash = re.findall(r'<ul class="messages".*?</ul>', after, re.S)
    return normalised(response, game_id), len(queries), flash


@pytest.mark.parametrize("stage", ["lobby", "playing"])
@pytest.mark.parametrize("who", ["stranger", "anonymous"])
def test_a_private_game_is_a_missing_game_to_a_stranger(private_games, make_user, stage, who):
    """Every route of ROUTES, HTML and API, GET and POST (one test per stage and viewer: building the games
    is the slow part)."""
    game = private_games[stage]
    missing = Game.objects.order_by("-pk").first().pk + 1000
    user = make_user("mallory") if who == "stranger" else None
    before = fingerprint()
    statuses = set()
    for method, template, body in ROUTES:
        route = f"{method.upper()} {template} {body}"
        seen_private = observe(browser(user), method, template, body, game.pk)
        seen_missing = observe(browser(user), method, template, body, missing)
        (status, _location, text), queries, flash = seen_private
        assert seen_private[0] == seen_missing[0], (route, status, text[:300], seen_missing[0][2][:300])
        assert queries == seen_missing[1], f"{route}: {queries} queries, {seen_missing[1]} for a missing id"
        assert flash == seen_missing[2] == [], (route, flash)
        if who == "stranger":
            # Staff eject refuses every non-staff user before looking at the game, missing or not; everything
            # else is the missing game's 404.
            assert status == (403 if "/eject/" in template else 404), (route, status)
            if template.startswith("/games/") and status == 404:
                assert "Not found" in text, route
        else:
            assert status in (302, 403), (route, status)  # the login page, or the API's "not authenticated"
        statuses.add(status)
    assert fingerprint() == before
    assert statuses == ({403, 404} if who == "stranger" else {302, 403}), statuses


@pytest.mark.parametrize("who", ["alice", "bob", "staff"])
def test_its_players_and_staff_get_through(private_games, make_user, who):
    user = make_user("root", is_staff=True) if who == "staff" else private_games[who]
    for stage in ("lobby", "playing"):
        game = private_games[stage]
        client = browser(user)
        assert client.get(f"/games/{game.pk}/").status_code == 200
        snapshot = client.get(f"/api/games/{game.pk}/")
        assert snapshot.status_code == 200 and snapshot.json()["id"] == game.pk
        assert client.get(f"/api/games/{game.pk}/chat/").status_code == 200
        said = call(client, "post", f"/api/games/{game.pk}/chat/", {"text": f"hi from {who}"})
        assert said.status_code == 201
    # The refusals a player gets are the readable ones, not a 404: bob may not start alice's game.
    lobby = private_games["lobby"]
    if who == "bob":
        refused = call(browser(user), "post", f"/api/games/{lobby.pk}/start/", {})
        assert refused.status_code == 403 and refused.json() == {"detail": "only the game's creator can start it"}
        client = browser(user)
        page = client.post(f"/games/{lobby.pk}/start/", {"csrfmiddlewaretoken": CSRF}, follow=True)
        assert page.status_code == 200 and "only the game&#x27;s creator can start it" in page.content.decode()


def test_a_stranger_with_the_invite_still_joins(private_games, make_user):
    lobby = private_games["lobby"]
    dave = make_user("dave")
    page = browser(dave).get(f"/games/{lobby.pk}/invite/{lobby.invite_code}/")
    assert page.status_code == 200
    joined = call(browser(dave), "post", f"/api/games/{lobby.pk}/join/", {"invite": lobby.invite_code})
    assert joined.status_code == 200 and joined.json()["me"]["seat"] == 3


def test_a_public_game_tells_a_stranger_why(private_games, make_user):
    """Only private games hide: a stranger to a public game gets the reason, as before."""
    public = private_games["public"]
    mallory = make_user("mallory")
    left = call(browser(mallory), "post", f"/api/games/{public.pk}/leave/", {})
    assert left.status_code == 403 and left.json() == {"detail": "you have no seat in this game"}
    page = browser(mallory).post(f"/games/{public.pk}/leave/", {"csrfmiddlewaretoken": CSRF}, follow=True)
    assert page.status_code == 200 and "you have no seat in this game" in page.content.decode()
