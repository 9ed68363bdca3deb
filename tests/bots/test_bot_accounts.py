"""Bot accounts (issue 41, docs/bot-api.md): only a fresh account becomes one, for good; a bot shows a BOT badge
where its name appears, plays through a token and never as a person on the game screen; its games are rated as
anyone's; tournaments take bots only where the organiser allows."""

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from games.models import DirectChallenge
from games.selectors import rated, snapshots
from games.services import lobby
from roboracer.accounts import bot_sessions
from roboracer.accounts.models import Profile
from roboracer.common.errors import Conflict
from roboracer.tournaments.services import registration
from tests.bots.helpers import bearer, make_bot, token_for
from tests.games.wsclient import session_cookie, site_socket
from tests.tournaments.factories import open_tournament, organiser

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_fresh_account_becomes_a_bot_for_good_and_one_that_played_cannot(make_user, courses):
    fresh, player = make_user("robo"), make_user("ann")
    client = APIClient()
    client.force_login(fresh)
    assert client.post("/api/bot/account/upgrade/").json() == {"bot": True}
    assert client.get("/api/profile/").json()["bot"] is True
    again = client.post("/api/bot/account/upgrade/")
    assert again.status_code == 409 and "already" in again.json()["detail"]
    lobby.create_game(user=player, course=courses["tiny-yard"], max_seats=2)
    used = APIClient()
    used.force_login(player)
    refused = used.post("/api/bot/account/upgrade/")
    assert refused.status_code == 409 and "fresh account" in refused.json()["detail"]
    assert not Profile.objects.filter(user=player, bot_since__isnull=False).exists()
    # The profile page's form asks for the box to be ticked.
    page = Client()
    page.force_login(make_user("pat"))
    page.post("/profile/bot/")
    assert not Profile.objects.filter(user__username="pat", bot_since__isnull=False).exists()
    assert page.post("/profile/bot/", {"confirm": "bot"}).status_code == 302
    assert "This is a bot account" in page.get("/profile/").content.decode()


async def test_a_bot_plays_with_its_token_never_as_a_person(make_user, courses):
    robo, token = await sync_to_async(make_bot)(make_user, "robo")
    ann = await sync_to_async(make_user)("ann")
    made = await sync_to_async(bearer(token).post)("/api/games/", {"course": "tiny-yard", "max_seats": 2},
                                                   format="json")
    assert made.status_code == 201
    game_id = made.json()["id"]
    # Signed in with a browser's session: the game screen, the game API and the socket refuse it.
    page = Client()
    await sync_to_async(page.force_login)(robo)
    assert (await sync_to_async(page.get)(f"/games/{game_id}/")).status_code == 403
    session_api = APIClient()
    await sync_to_async(session_api.force_login)(robo)
    refused = await sync_to_async(session_api.get)("/api/games/")
    assert refused.status_code == 403 and "Bot API" in refused.json()["detail"]
    assert (await sync_to_async(session_api.get)("/api/tokens/")).status_code == 200  # its owner's token page
    socket = site_socket(f"/ws/games/{game_id}/", cookie=await session_cookie(robo))
    assert await socket.connect() == (False, 4403)
    socket = site_socket(f"/ws/games/{game_id}/", token=token)
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from(timeout=5))["game"]["me"]["seat"] == 1
    await socket.disconnect()
    # A person joins: the game is rated, as any game between people.
    await sync_to_async(lobby.join_game)(user=ann, game_id=game_id)
    game = await sync_to_async(lambda: lobby.Game.objects.get(pk=game_id))()
    assert await sync_to_async(rated.is_rated)(game=game)


def test_the_bot_badge_shows_where_its_name_appears(make_user, courses):
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    made = bearer(token).post("/api/games/", {"course": "tiny-yard", "max_seats": 3}, format="json").json()
    assert [seat["bot_account"] for seat in made["seats"]] == [True]
    lobby.join_game(user=ann, game_id=made["id"])
    game = lobby.Game.objects.get(pk=made["id"])
    seats = snapshots.game_snapshot(game=game, user=ann)["seats"]
    assert [(seat["user"], seat["bot_account"]) for seat in seats] == [("robo", True), ("ann", False)]
    open_games = bearer(token_for(ann)).get("/api/games/").json()["open"]
    assert [(g["creator"], g["creator_bot"]) for g in open_games] == [("robo", True)]
    page = Client()
    page.force_login(ann)
    lobby_page = page.get("/").content.decode()
    assert 'robo</a> <span class="badge bot-badge"' in lobby_page
    assert "bot-badge" in page.get("/players/robo/").content.decode()
    assert "bot-badge" not in page.get("/players/ann/").content.decode()
    assert bearer(token).get("/api/players/robo/").json()["bot_account"] is True


def test_tournaments_take_bots_only_where_the_organiser_allows(make_user, courses):
    olga = organiser(make_user)
    robo, _ = make_bot(make_user, "robo")
    closed = open_tournament(organiser=olga, courses=[courses["tiny-yard"]])
    with pytest.raises(Conflict, match="does not take bot accounts"):
        registration.register(user=robo, tournament_id=closed.pk)
    allowing = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], name="Bot Cup", allow_bots=True)
    assert registration.register(user=robo, tournament_id=allowing.pk).user == robo
    client = APIClient()
    client.force_login(olga)
    assert client.get(f"/api/tournaments/{allowing.pk}/").json()["allow_bots"] is True


def test_a_bot_accounts_session_changes_nothing_on_the_sites_pages(make_user, courses):
    """The trial (docs/trials/issue-41): signed in as the bot, the lobby's "Play against the computer" made a
    game the game page then refused. A bot's session may change only its session, profile and tokens."""
    robo, _ = make_bot(make_user, "robo")
    page = Client()
    page.force_login(robo)
    lobby_page = page.get("/").content.decode()
    assert 'id="bot-lobby-note"' in lobby_page
    for form in ('id="practice-form"', 'id="create-game"', 'id="challenge-form"'):
        assert form not in lobby_page
    refused = [
        ("/games/practice/", {"course": courses["tiny-yard"].pk, "opponents": 1, "strength": "normal"}),
        ("/", {"course": courses["tiny-yard"].pk, "max_seats": 2, "lives": 3}),
        ("/challenges/new/", {"challenge-player": "ann", "challenge-course": "tiny-yard"}),
        ("/games/new/rambots/", {"rambots-max_seats": 3, "rambots-computers": 2}),
    ]
    make_user("ann")
    for path, data in refused:
        answer = page.post(path, data)
        assert answer.status_code == 403 and "bot account" in answer.content.decode(), path
    assert not lobby.Game.objects.exists() and not DirectChallenge.objects.exists()
    assert page.post("/profile/", {"display_name": "Robo the Bot"}).status_code == 302
    assert page.post("/profile/tokens/", {"token-name": "second", "token-scopes": ["read"],
                                          "token-expiry_days": "0"}).status_code == 200
    assert page.post("/accounts/logout/").status_code == 302
    # A person's session is not concerned: the same form makes the game.
    person = Client()
    person.force_login(make_user("pat"))
    assert person.post(*refused[0]).status_code == 302 and lobby.Game.objects.count() == 1


async def test_the_middlewares_async_path_refuses_a_bot_session_and_passes_the_rest(monkeypatch):
    """Under ASGI (uvicorn) the middleware runs as a coroutine: a unit check of that path, the account read
    faked (the sync path above reads it for real)."""
    async def view(request):
        return HttpResponse("ok")

    middleware = bot_sessions.BotSessionMiddleware(view)
    factory = RequestFactory()
    monkeypatch.setattr(bot_sessions, "is_bot_session", lambda request: True)
    with pytest.raises(PermissionDenied):
        await middleware(factory.post("/games/practice/"))
    for request in (factory.get("/"), factory.post("/profile/tokens/"), factory.post("/api/games/")):
        assert (await middleware(request)).content == b"ok"
    monkeypatch.setattr(bot_sessions, "is_bot_session", lambda request: False)
    assert (await middleware(factory.post("/games/practice/"))).content == b"ok"
