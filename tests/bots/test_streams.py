"""The Bot API's streams (issue 41, docs/bot-api.md "Streams"), through the site's ASGI handler in process with
the real database and channel layer: the game stream carries the socket's snapshot and versioned events, the
seat's own new snapshot after each deal, resumes from a version, keeps alive with blank lines and ends with the
game; the event stream numbers the account's events and resumes from an id; a revoked token ends both at once;
hostile input is a 4xx."""

import pytest
from channels.db import database_sync_to_async as sync_to_async
from rest_framework.test import APIClient

from games.models import Game
from games.services import lobby, moves, turns
from roboracer.accounts import services as account_services
from roboracer.accounts.models import ApiToken
from tests.bots.helpers import bearer, make_bot, open_stream, token_for
from tests.games.factories import legal_program

pytestmark = pytest.mark.django_db(transaction=True)


def bot_game(make_user, courses):
    """robo (a bot, by its token) and ann in a started game on Tiny Yard."""
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    made = bearer(token).post("/api/games/", {"course": "tiny-yard", "max_seats": 2}, format="json").json()
    lobby.join_game(user=ann, game_id=made["id"])
    return robo, token, ann, Game.objects.get(pk=made["id"])


async def test_the_game_stream_is_the_sockets_snapshot_and_events_then_resumes_and_ends(make_user, courses, settings):
    settings.BOT_STREAM_KEEPALIVE = 0.3
    robo, token, ann, game = await sync_to_async(bot_game)(make_user, courses)
    stream = await open_stream(f"/api/bot/games/{game.pk}/stream/", token)
    first = await stream.next()
    assert first["type"] == "snapshot" and first["game"]["me"]["seat"] == 1 and len(first["game"]["me"]["hand"]) == 9
    version = first["version"]
    assert await stream.next() == ""  # nothing happens: a blank line each tick

    for user in (ann, robo):
        program = await sync_to_async(legal_program)(game, user)
        await sync_to_async(moves.submit_program)(user=user, game_id=game.pk, turn=1, chips=program)
    await sync_to_async(turns.resolve_turn)(game_id=game.pk, turn=1)
    pushed, lines = await stream.until(lambda line: line["type"] == "snapshot")
    events = [line for line in lines if line and line["type"] == "event"]
    assert [e["version"] for e in events] == list(range(version + 1, version + 1 + len(events)))  # no gap
    assert {"seat_ready", "turn_executing", "turn_resolved", "turn_dealt"} <= {e["kind"] for e in events}
    assert pushed["pushed"] is True and pushed["game"]["turn"] == 2 and pushed["game"]["me"]["program"] is None
    await stream.close()

    # Resumed from a version: the events after it, as they were, and the snapshot after the deal.
    resumed = await open_stream(f"/api/bot/games/{game.pk}/stream/?since={version}", token)
    again, lines_again = await resumed.until(lambda line: line["type"] == "snapshot")
    assert [line for line in lines_again if line and line["type"] == "event"] == events
    # ann resigns: the game ends, and so does the stream, after game_finished.
    await sync_to_async(lobby.leave_game)(user=ann, game_id=game.pk)
    finished, _ = await resumed.until(lambda line: line.get("kind") == "game_finished")
    assert finished["data"]["winner_seat"] == 1
    rest = []  # the rest of the game's last transaction (its chat line), then the end
    while (line := await resumed.next()) is not None:
        rest.append(line)
    assert resumed.ended and all(line["type"] == "event" for line in rest)
    # A finished game's stream: its snapshot, and the end.
    late = await open_stream(f"/api/bot/games/{game.pk}/stream/", token)
    assert (await late.next())["game"]["status"] == "finished"
    assert await late.next() is None


async def test_the_event_stream_numbers_game_starts_and_ends_and_resumes_from_an_id(make_user, courses, settings):
    settings.BOT_STREAM_KEEPALIVE = 0.3
    robo, token, ann, game = await sync_to_async(bot_game)(make_user, courses)
    stream = await open_stream("/api/bot/events/", token)
    start = await stream.next()
    assert start == {"type": "game_start", "id": 1, "game": {"id": game.pk, "url": f"/games/{game.pk}/",
                                                             "kind": "roboracer", "status": "programming",
                                                             "stream": f"/api/bot/games/{game.pk}/stream/"}}
    assert await stream.next() == ""
    await sync_to_async(lobby.leave_game)(user=ann, game_id=game.pk)
    end = await stream.next()
    assert end["type"] == "game_finish" and end["id"] == 2 and end["game"]["id"] == game.pk
    await stream.close()
    resumed = await open_stream("/api/bot/events/?since=1", token)
    assert (await resumed.next())["id"] == 2
    assert await resumed.next() == ""
    await resumed.close()
    # ann has no token: her account stores no such events.
    assert not await sync_to_async(lambda: ann.account_events.exists())()


async def test_a_revoked_token_ends_open_streams_at_once(make_user, courses, settings):
    settings.BOT_STREAM_KEEPALIVE = 30  # far longer than the test: the revocation itself ends them
    robo, token, ann, game = await sync_to_async(bot_game)(make_user, courses)
    game_stream = await open_stream(f"/api/bot/games/{game.pk}/stream/", token)
    events = await open_stream("/api/bot/events/", token)
    assert (await game_stream.next())["type"] == "snapshot"
    assert (await events.next())["type"] == "game_start"
    handle = await sync_to_async(lambda: ApiToken.objects.get(user=robo).handle)()
    await sync_to_async(account_services.revoke_token)(user=robo, handle=handle)
    for stream in (game_stream, events):
        line = await stream.next(timeout=5)
        assert line == {"type": "error", "code": "token_revoked", "detail": "this token no longer works"}
        assert await stream.next(timeout=5) is None
    refused = await sync_to_async(bearer(token).get)(f"/api/bot/games/{game.pk}/stream/")
    assert refused.status_code == 403


def test_hostile_stream_requests_are_4xx(make_user, courses):
    robo, token, ann, game = bot_game(make_user, courses)
    private = lobby.create_game(user=ann, course=courses["tiny-yard"], visibility="private")
    client = bearer(token)
    for since in ("-1", "1.5", "²", "abc", "9" * 40, "0x10", " 1"):
        answer = client.get(f"/api/bot/games/{game.pk}/stream/", {"since": since})
        assert answer.status_code == 400 and answer.json()["detail"].startswith("since:"), since
        assert client.get("/api/bot/events/", {"since": since}).status_code == 400
    # Another player's private game: the same 404 as a game that never was.
    assert client.get(f"/api/bot/games/{private.pk}/stream/").json() == {"detail": f"game {private.pk} does not exist"}
    assert client.get("/api/bot/games/999999/stream/").json() == {"detail": "game 999999 does not exist"}
    # A token without `read` may not read them; nor may anyone signed out.
    player_only = bearer(token_for(robo, scopes=["play"]))
    assert player_only.get("/api/bot/events/").status_code == 403
    assert APIClient().get("/api/bot/events/").status_code == 403
    assert client.get("/api/bot/events/", HTTP_ACCEPT="application/x-ndjson").status_code == 200
