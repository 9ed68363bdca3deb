"""The Bot API's two streams (docs/bot-api.md "Streams"): newline-delimited JSON, one object a line, a blank line
every BOT_STREAM_KEEPALIVE seconds while nothing happens.

- `GET /api/bot/events/?since=<id>`: the account's own events (games.services.account_events), each with its id.
- `GET /api/bot/games/<id>/stream/?since=<version>`: the game as the caller sees it, the same lines as the game
  socket's frames: a snapshot (games.selectors.snapshots, the one per-viewer filter of hidden information),
  then the game's public events by version, and after each deal the caller's own new snapshot, as the socket
  pushes it. It ends once the game has ended.

The database is the truth: each stream reads the stored rows after the id or version it has sent, so a client
that reconnects with `since` (a web server restarted, a connection dropped) misses nothing. The channel layer
only wakes a stream early (the game's group, the account's group); the token's group ends it when the token is
revoked, and every tick checks the token again. Each read runs in a thread with its own short-lived database
connection (channels' database_sync_to_async), so an open stream holds none between reads.

Under WSGI (a test's in-process client) a stream cannot wait: it answers what there is now and ends."""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from games import broadcast
from games.models import Game
from games.selectors import access, seats, snapshots
from games.selectors import streams as stream_selectors
from roboracer.accounts import tokens
from roboracer.accounts.models import ApiToken
from roboracer.common.errors import InvalidInput, NotFound

logger = logging.getLogger(__name__)

NDJSON = "application/x-ndjson"
DEALS = frozenset({"game_started", "turn_dealt"})  # after these a player's own snapshot follows (its new hand)
ENDED = (Game.Status.FINISHED, Game.Status.CANCELLED)
MAX_SINCE = 2**31 - 1


class NDJSONRenderer(JSONRenderer):
    """So that `Accept: application/x-ndjson` is served (a refusal before the stream is one JSON line)."""

    media_type = NDJSON
    format = "ndjson"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return super().render(data, accepted_media_type, renderer_context) + b"\n"


def parse_since(value) -> int | None:
    """`since` as a whole number from 0 (ASCII digits), or None when absent; anything else is a 400."""
    if value is None:
        return None
    if not (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 10
            and int(value) <= MAX_SINCE):
        raise InvalidInput(f"since: a whole number from 0 to {MAX_SINCE}")
    return int(value)


class GameSource:
    """The game stream's reads, each in one thread hop: `first` (the snapshot, or the events after `since`),
    then `more` (what came since)."""

    def __init__(self, *, user, game_id: int, since: int | None):
        self.user, self.game_id, self.since = user, game_id, since
        self.cursor = 0
        self.ended = False
        self.groups = [broadcast.group_name(game_id)]

    def _snapshot_line(self, game: Game, **extra) -> dict:
        snapshot = snapshots.game_snapshot(game=game, user=self.user)
        self.cursor = max(self.cursor, snapshot["version"])
        return {"type": "snapshot", "version": snapshot["version"], "game": snapshot, **extra}

    def _visible(self) -> Game | None:
        game = access.get_game(game_id=self.game_id)
        return game if game is not None and access.can_view(user=self.user, game=game) else None

    def first(self) -> list[dict]:
        game = self._visible()
        if game is None:
            return self._lost()
        if self.since is None or self.since > game.version:
            lines = [self._snapshot_line(game)]
            self.ended = game.status in ENDED
            return lines
        self.cursor = self.since
        return self.more()

    def more(self) -> list[dict]:
        game = self._visible()
        if game is None:
            return self._lost()
        events = stream_selectors.game_events_after(game_id=self.game_id, version=self.cursor)
        lines = [broadcast.event_message(event) for event in events]
        if events:
            self.cursor = events[-1].version
        dealt = any(event.kind in DEALS or (event.kind == "seats_ejected" and event.data.get("resubmit"))
                    for event in events)
        if dealt and seats.seat_of(user=self.user, game=game) is not None:
            lines.append(self._snapshot_line(access.get_game(game_id=self.game_id), pushed=True))
        self.ended = game.status in ENDED and self.cursor >= game.version
        return lines

    def _lost(self) -> list[dict]:
        """Access lost (or the game gone): the socket's refusal, then the end."""
        self.ended = True
        return [{"type": "error", "code": "not_found", "detail": f"game {self.game_id} does not exist"}]


class AccountSource:
    """The event stream's reads: the account's events after the last id sent."""

    def __init__(self, *, user, since: int | None):
        self.user, self.cursor, self.ended = user, since or 0, False
        self.groups = [broadcast.account_group_name(user.pk)]

    def first(self) -> list[dict]:
        return self.more()

    def more(self) -> list[dict]:
        lines = stream_selectors.account_events_after(user=self.user, number=self.cursor)
        if lines:
            self.cursor = lines[-1]["id"]
        return lines


class Wakeup:
    """A channel of its own in the channel layer's groups: any message wakes the stream early; the token's
    group (a revocation) ends it. Without the channel layer (Redis down) the stream reads every second."""

    def __init__(self, groups: list[str]):
        self.groups, self.event, self.revoked = groups, asyncio.Event(), False
        self.layer = self.channel = self.task = None

    async def start(self) -> None:
        try:
            self.layer = get_channel_layer()
            self.channel = await self.layer.new_channel()
            for group in self.groups:
                await self.layer.group_add(group, self.channel)
        except Exception:  # noqa: BLE001 - Redis down: the stream reads on its own ticks
            logger.warning("a bot stream without the channel layer: reading every second")
            self.layer = None
            return
        self.task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("type") == "session.ended":
                self.revoked = True
            self.event.set()

    async def wait(self, seconds: float) -> bool:
        """True when woken before `seconds` passed."""
        try:
            await asyncio.wait_for(self.event.wait(), seconds if self.layer else min(seconds, 1.0))
            return True
        except TimeoutError:
            return False
        finally:
            self.event.clear()

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()  # its receive() cancelled: the layer drops the channel's subscription
        if self.layer is not None:
            for group in self.groups:
                try:
                    await self.layer.group_discard(group, self.channel)
                except Exception:  # noqa: BLE001 - nothing to discard on a layer that is gone
                    logger.warning("could not leave a bot stream's channel group")


def _line(message: dict) -> bytes:
    return (broadcast.encode(message) + "\n").encode()


async def follow(source, *, token: ApiToken | None):
    """The stream: `source`'s first lines, then its new lines whenever woken, a blank line on each quiet tick,
    until the source ends or the token stops (revoked, expired: an `error` line `token_revoked`, then the end)."""
    keepalive = settings.BOT_STREAM_KEEPALIVE
    wake = Wakeup([*source.groups, *([broadcast.token_group_name(token.digest)] if token is not None else [])])
    await wake.start()
    try:
        for message in await database_sync_to_async(source.first)():
            yield _line(message)
        while not source.ended:
            woken = await wake.wait(keepalive)
            if wake.revoked or (token is not None
                                and not await database_sync_to_async(tokens.still_valid)(digest=token.digest)):
                yield _line({"type": "error", "code": "token_revoked", "detail": "this token no longer works"})
                return
            lines = await database_sync_to_async(source.more)()
            for message in lines:
                yield _line(message)
            if not lines and not woken:
                yield b"\n"
            if len(lines) >= stream_selectors.PAGE:
                wake.event.set()  # more rows wait: read again at once
    finally:
        await wake.stop()


def stream_response(request, source) -> StreamingHttpResponse:
    token = request.auth if isinstance(request.auth, ApiToken) else None
    if "wsgi.version" in request.META:  # no event loop to wait on: what there is now, then the end
        content = [_line(message) for message in source.first()]
    else:
        content = follow(source, token=token)
    response = StreamingHttpResponse(content, content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each line on as it comes
    return response


SINCE_EVENTS = OpenApiParameter("since", int, description="the last event id read; the stream starts after it (0: "
                                "from the first)")
SINCE_GAME = OpenApiParameter("since", int, description="the last game version read: the stream goes on with the "
                              "events after it; without it (or past the game's version) it starts with a snapshot")


class BotEventsView(APIView):
    renderer_classes = [JSONRenderer, NDJSONRenderer]

    @extend_schema(parameters=[SINCE_EVENTS], responses={(200, NDJSON): OpenApiTypes.STR},
                   summary="My account's events, as a stream: challenges, invitations, game starts and ends")
    def get(self, request):
        since = parse_since(request.query_params.get("since"))
        return stream_response(request, AccountSource(user=request.user, since=since))


class BotGameStreamView(APIView):
    renderer_classes = [JSONRenderer, NDJSONRenderer]

    @extend_schema(parameters=[SINCE_GAME], responses={(200, NDJSON): OpenApiTypes.STR},
                   summary="A game as I see it, as a stream: a snapshot, then its events; ends with the game")
    def get(self, request, game_id: int):
        since = parse_since(request.query_params.get("since"))
        if access.visible_game(game_id=game_id, user=request.user) is None:
            raise NotFound(f"game {game_id} does not exist")
        return stream_response(request, GameSource(user=request.user, game_id=game_id, since=since))
