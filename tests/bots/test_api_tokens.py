"""Personal API tokens (issue 41, docs/bot-api.md): made, named, listed and revoked by their owner, stored as
knox's digest only, shown once; their scopes; they work on the API and the game socket, never on an HTML page
or to make tokens; hostile input is a 4xx that reveals nothing."""

import datetime

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from roboracer.accounts.models import ApiToken
from tests.bots.helpers import TOKEN_NUMBERS
from tests.games.factories import legal_program, started_game
from tests.games.wsclient import site_socket

pytestmark = pytest.mark.django_db(transaction=True)


def make_token(user, scopes=("play", "read"), expiry_days=90, name=None) -> str:
    name = name or f"my bot {next(TOKEN_NUMBERS)}"  # an account's live tokens have names of their own
    client = APIClient()
    client.force_login(user)
    answer = client.post("/api/tokens/", {"name": name, "scopes": list(scopes), "expiry_days": expiry_days},
                         format="json")
    assert answer.status_code == 201, answer.content
    assert answer["Cache-Control"] == "no-store"
    return answer.json()["token"]


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_a_token_is_made_shown_once_stored_hashed_and_listed_without_its_text(make_user):
    alice = make_user("alice")
    token = make_token(alice, name="lookahead bot")
    assert token.startswith("rr_") and len(token) == 67
    row = ApiToken.objects.get(user=alice)
    assert row.name == "lookahead bot" and row.scopes == ["play", "read"] and row.digest != token
    assert row.expiry > timezone.now() + datetime.timedelta(days=89)
    # Nowhere in the table in the clear: only its first characters, knox's lookup key.
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_apitoken")
        assert not any(token in str(cell) for cell in cursor.fetchall()[0])
    client = APIClient()
    client.force_login(alice)
    listing = client.get("/api/tokens/").json()
    assert [t["name"] for t in listing["tokens"]] == ["lookahead bot"]
    assert token not in str(listing) and row.digest not in str(listing)
    assert set(listing["scopes"]) == {"play", "read"}


def test_a_token_works_on_the_api_within_its_scopes_and_never_on_pages_or_token_endpoints(make_user, courses):
    alice = make_user("alice")
    reader, player = make_token(alice, scopes=["read"]), make_token(alice)
    assert bearer(reader).get("/api/games/").status_code == 200
    assert bearer(reader).get("/api/profile/").json()["username"] == "alice"
    refused = bearer(reader).post("/api/games/", {"course": "tiny-yard"}, format="json")
    assert refused.status_code == 403 and refused.json() == {"detail": "this token does not have the 'play' scope"}
    made = bearer(player).post("/api/games/", {"course": "tiny-yard", "max_seats": 2}, format="json")
    assert made.status_code == 201  # no CSRF token: a token's request carries no cookie to forge
    # HTML pages read the session only: a token is no log-in there.
    page = Client(HTTP_AUTHORIZATION=f"Bearer {player}").get("/profile/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    # A token never makes, lists or revokes tokens.
    for answer in (bearer(player).get("/api/tokens/"),
                   bearer(player).post("/api/tokens/", {"name": "x", "scopes": ["read"]}, format="json"),
                   bearer(player).delete(f"/api/tokens/{ApiToken.objects.first().handle}/")):
        assert answer.status_code == 403
    assert ApiToken.objects.filter(user=alice).count() == 2


def test_revoked_and_expired_tokens_stop_at_once_and_others_tokens_are_404(make_user):
    alice, eve = make_user("alice"), make_user("eve")
    token = make_token(alice)
    handle = ApiToken.objects.get(user=alice).handle
    assert bearer(token).get("/api/games/").status_code == 200
    eves = APIClient()
    eves.force_login(eve)
    assert eves.delete(f"/api/tokens/{handle}/").status_code == 404  # someone else's: as missing
    assert eves.delete("/api/tokens/nothing-here/").json() == {"detail": "there is no such token"}
    assert bearer(token).get("/api/games/").status_code == 200
    owner = APIClient()
    owner.force_login(alice)
    assert owner.delete(f"/api/tokens/{handle}/").status_code == 204
    gone = bearer(token).get("/api/games/")
    assert gone.status_code == 403 and gone.json() == {"detail": "Invalid token."}
    expiring = make_token(alice)
    ApiToken.objects.filter(user=alice).update(expiry=timezone.now() - datetime.timedelta(seconds=1))
    assert bearer(expiring).get("/api/games/").status_code == 403


@pytest.mark.parametrize("header", [
    "Bearer", "Bearer a b", "Bearer " + "x" * 5000, "Bearer rr_\u00e9\u00e9", "Bearer rr_\x00\x01", "Bearer rr_zz",
])
def test_broken_authorization_headers_are_a_403(make_user, header):
    answer = APIClient().get("/api/games/", HTTP_AUTHORIZATION=header)
    assert answer.status_code == 403
    assert "Traceback" not in answer.content.decode()


def test_hostile_token_requests_are_400_and_make_nothing(make_user, settings):
    alice = make_user("alice")
    client = APIClient()
    client.force_login(alice)
    nested = "[" * 5000 + "]" * 5000
    bodies = [
        ({"name": "", "scopes": ["read"]}, "json"), ({"name": "x" * 61, "scopes": ["read"]}, "json"),
        ({"name": "a\u0000b", "scopes": ["read"]}, "json"), ({"name": "ok", "scopes": []}, "json"),
        ({"name": "ok", "scopes": ["admin"]}, "json"), ({"name": "ok", "scopes": "read"}, "json"),
        ({"name": "ok", "scopes": [["read"]]}, "json"), ({"name": "ok", "scopes": ["read"], "expiry_days": 7}, "json"),
        ({"name": {"a": 1}, "scopes": ["read"]}, "json"), ({"name": "ok", "scopes": ["read"], "expiry_days": "∞"}, "json"),
    ]
    for body, fmt in bodies:
        answer = client.post("/api/tokens/", body, format=fmt)
        assert answer.status_code == 400, (body, answer.content)
    assert client.post("/api/tokens/", nested, content_type="application/json").status_code == 400
    assert client.post("/api/tokens/", b"\xff\xfe\x00", content_type="application/json").status_code == 400
    assert not ApiToken.objects.exists()
    settings.API_TOKENS_PER_ACCOUNT = 2
    make_token(alice), make_token(alice)
    assert client.post("/api/tokens/", {"name": "3rd", "scopes": ["read"]}, format="json").status_code == 409


def test_the_profile_page_makes_shows_once_and_revokes_tokens(make_user):
    alice = make_user("alice")
    page = Client()
    page.force_login(alice)
    made = page.post("/profile/tokens/", {"token-name": "my bot", "token-scopes": ["play", "read"],
                                          "token-expiry_days": "30"})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    token = made.context["new_token"]["text"]
    assert token in made.content.decode()
    assert bearer(token).get("/api/games/").status_code == 200
    again = page.get("/profile/").content.decode()
    assert token not in again and "my bot" in again
    handle = ApiToken.objects.get(user=alice).handle
    assert page.post("/profile/tokens/", {"revoke": handle}).status_code == 302
    assert bearer(token).get("/api/games/").status_code == 403
    refused = page.post("/profile/tokens/", {"token-name": "", "token-scopes": ["nope"]})
    assert refused.status_code == 400 and not ApiToken.objects.exists()


def test_a_token_name_in_use_is_refused_so_a_reloaded_answer_makes_no_second_token(make_user):
    """The trial (docs/trials/issue-41): reloading the page that showed the new token sent its form again and
    made a second token of the same name, which the list could not tell apart from the first."""
    alice, bob = make_user("alice"), make_user("bob")
    page = Client()
    page.force_login(alice)
    form = {"token-name": "my bot", "token-scopes": ["play", "read"], "token-expiry_days": "90"}
    assert page.post("/profile/tokens/", form).status_code == 200
    again = page.post("/profile/tokens/", form)
    assert again.status_code == 400 and again.context["new_token"] is None
    assert "have a token named &#x27;my bot&#x27; already" in again.content.decode()
    assert list(ApiToken.objects.filter(user=alice).values_list("name", flat=True)) == ["my bot"]
    api = APIClient()
    api.force_login(alice)
    answer = api.post("/api/tokens/", {"name": "My Bot", "scopes": ["read"]}, format="json")  # ignoring case
    assert answer.json() == {"detail": "you have a token named 'my bot' already: give this one another name"}
    make_token(bob, name="my bot")  # another account's names are its own
    handle = ApiToken.objects.get(user=alice).handle
    page.post("/profile/tokens/", {"revoke": handle})
    assert page.post("/profile/tokens/", form).status_code == 200  # a revoked token's name is free again


def test_the_token_forms_answer_keeps_the_profile_forms_boxes_and_opens_at_the_tokens(make_user):
    """The trial: the answer to "Make a token" showed "E-mail me my notices" ticked for an account with no
    e-mail address (the profile page shows it unticked), and opened at the top of the page, the new token a
    screen or more below on a phone."""
    alice = make_user("alice")
    page = Client()
    page.force_login(alice)
    shown = page.get("/profile/").context["form"]
    made = page.post("/profile/tokens/", {"token-name": "my bot", "token-scopes": ["read"], "token-expiry_days": "0"})
    answer = made.context["form"]
    for box in ("e_mail_turns", "e_mail_notices"):
        assert answer[box].value() is False and answer[box].value() == shown[box].value()
    # The form's answer opens at the token card (the new token, or the form's errors).
    assert 'action="/profile/tokens/#api-tokens" id="token-form"' in made.content.decode()


async def test_a_token_opens_the_game_socket_sends_programs_with_play_and_revoking_closes_it(make_user, courses):
    alice, bob = [await sync_to_async(make_user)(name) for name in ("alice", "bob")]
    game = await sync_to_async(started_game)(users=[alice, bob], course=courses["tiny-yard"])
    reader, player = await sync_to_async(make_token)(alice, ["read"]), await sync_to_async(make_token)(alice)
    program = await sync_to_async(legal_program)(game, alice)

    watching = site_socket(f"/ws/games/{game.pk}/", token=reader)
    assert (await watching.connect())[0]
    first = await watching.receive_json_from(timeout=5)
    assert first["type"] == "snapshot" and first["game"]["me"]["seat"] == 1
    await watching.send_json_to({"type": "program", "id": 1, "turn": 1, "chips": program})
    refused = await watching.receive_json_from(timeout=5)
    assert refused["code"] == "not_allowed" and refused["status"] == 403

    playing = site_socket(f"/ws/games/{game.pk}/", token=player)
    assert (await playing.connect())[0]
    await playing.receive_json_from(timeout=5)
    await playing.send_json_to({"type": "program", "id": 2, "turn": 1, "chips": program})
    while (frame := await playing.receive_json_from(timeout=5))["type"] == "event":
        pass
    assert frame["type"] == "program_accepted" and frame["chips"] == program

    for bad in ("rr_" + "0" * 64, "", "not a token"):
        stranger = site_socket(f"/ws/games/{game.pk}/", token=bad)
        assert (await stranger.connect())[0] is False

    owner = APIClient()
    await sync_to_async(owner.force_login)(alice)
    handle = await sync_to_async(lambda: ApiToken.objects.get(user=alice, scopes=["read"]).handle)()
    assert (await sync_to_async(owner.delete)(f"/api/tokens/{handle}/")).status_code == 204
    closed = await watching.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await watching.receive_output(timeout=5)
    assert closed["code"] == 4401
    await playing.send_json_to({"type": "sync"})  # the other token's socket goes on
    while (frame := await playing.receive_json_from(timeout=5))["type"] != "snapshot":
        pass
    await playing.disconnect()
