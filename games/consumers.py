"""One WebSocket consumer per game page: a snapshot on connect and on request, then public events."""

import json

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from engine import PROGRAM_LENGTH
from games.api.serializers import ProgramSerializer
from games.broadcast import (
    encode,
    group_name,
    player_group_name,
    session_group_name,
    token_group_name,
    user_group_name,
)
from games.selectors import access, seats, snapshots
from games.services import moves
from games.throttle import TokenBucket
from roboracer.accounts import selectors as account_selectors
from roboracer.accounts import tokens
from roboracer.common.api_errors import messages_of
from roboracer.common.errors import Conflict, GameError, InvalidInput, NotAllowed, NotFound, RateLimited

# Every frame a client may send is a few hundred characters at most ({"type": "sync"}, a program); anything
# longer is refused before it is parsed. (uvicorn itself closes the socket, code 1009, on a frame over its
# --ws-max-size, 16 MiB.)
MAX_FRAME_CHARS = 4096

# What a refused program frame's error says, by the service's error: the same refusals as POST .../program/,
# with the HTTP status that request would have had (docs/api.md "Programs over the socket").
ERROR_CODES = {InvalidInput: "invalid", NotAllowed: "not_allowed", NotFound: "not_found", Conflict: "conflict",
               RateLimited: "rate_limited"}
PROGRAM_FIELDS = ("turn", "chips", "reboot", "action", "version")


class BadFrame(Exception):
    """A frame the server does not understand: answered with an error frame, the socket stays open."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


def parse_frame(text_data: str | None, bytes_data: bytes | None) -> dict:
    """The frame as a JSON object with a string "type", or BadFrame saying why not."""
    if text_data is None:
        raise BadFrame("bad_frame", "binary frames are not accepted: send JSON text like {\"type\": \"sync\"}")
    if len(text_data) > MAX_FRAME_CHARS:
        raise BadFrame("too_large", f"a frame is at most {MAX_FRAME_CHARS} characters")
    try:
        content = json.loads(text_data)
    except RecursionError:
        raise BadFrame("bad_frame", "not JSON the server reads: nested too deeply") from None
    except ValueError:  # JSONDecodeError
        raise BadFrame("bad_frame", "not valid JSON: send a JSON object like {\"type\": \"sync\"}") from None
    if not isinstance(content, dict):
        raise BadFrame("bad_frame", "a frame is a JSON object like {\"type\": \"sync\"}")
    if not isinstance(content.get("type"), str):
        raise BadFrame("bad_frame", "a frame needs a \"type\" string, like {\"type\": \"sync\"}")
    return content


def plain_program(content: dict) -> dict | None:
    """The fields of a program frame as ProgramSerializer would validate them, for the plain case only (an
    int turn, five short strings, a bool reboot, any action, no version or an int one): what it returns is
    exactly the serializer's validated_data for such a frame. None for anything else, which the serializer
    then reads (and words its refusal). Building a DRF serializer was a fifth of a socket program's own cost
    (docs/performance.md)."""
    turn, chips, reboot = content.get("turn"), content.get("chips"), content.get("reboot", False)
    version = content.get("version")
    if (type(turn) is int and 1 <= turn <= 2**31 - 1 and type(chips) is list and len(chips) == PROGRAM_LENGTH
            and all(type(chip) is str and 0 < len(chip) <= 12 and chip.isascii() and chip.isprintable()
                    and chip.strip() == chip for chip in chips)
            and type(reboot) is bool and (version is None or (type(version) is int and 0 <= version <= 2**31 - 1))):
        return {"turn": turn, "chips": chips, "reboot": reboot, "action": content.get("action"), "version": version}
    return None


class JsonFramesConsumer(AsyncJsonWebsocketConsumer):
    # Group messages whose handler only sends the frame its sender encoded. Channels runs Django's
    # close_old_connections in a thread before every handler; these touch no database, and at 100 busy games
    # that hop was a tenth of the web server's CPU (make bench-site). Handlers that read the database do it
    # through database_sync_to_async, which closes old connections itself.
    # Client frames go straight to receive() too: it parses and answers without the database (a sync reads it
    # through database_sync_to_async), and that thread is the one every socket of the process builds its
    # snapshots in, so a flood of frames (bad ones, or syncs over the rate limit) must not queue there.
    forwarded: frozenset[str] = frozenset()

    async def dispatch(self, message):
        if message["type"] in ("websocket.receive", "session.ended") or message["type"] in self.forwarded:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        """Every frame gets parsed here; one the server does not understand (binary, empty, too large, not
        JSON, nested too deeply, not an object, no string type) is answered with an error frame, and the
        socket stays open. (The stock receive raised on a binary or empty frame, and json.loads on deep
        nesting, which closed the socket and logged a traceback.)"""
        try:
            content = parse_frame(text_data, bytes_data)
        except BadFrame as bad:
            await self.send_error(bad.code, bad.detail)
            return
        await self.receive_json(content, **kwargs)

    async def join_session(self) -> None:
        """A signed-in user's socket joins the group of every socket opened with the same log-in: logging out
        closes them all (games/receivers.py close_sockets; docs/site.md "Sockets and access")."""
        self.session_group = None
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return
        token = self.scope.get("api_token")
        # A socket opened with a personal API token closes when the token is revoked (docs/bot-api.md).
        key = getattr(self.scope.get("session"), "session_key", None)
        if token is not None:
            self.session_group = token_group_name(token.digest)
        elif key:
            self.session_group = session_group_name(key)
        if self.session_group:
            await self.channel_layer.group_add(self.session_group, self.channel_name)

    async def leave_session(self) -> None:
        if getattr(self, "session_group", None):
            await self.channel_layer.group_discard(self.session_group, self.channel_name)

    def signed_in_still(self) -> bool:
        """Whether the log-in this socket was opened with still stands (for a signed-in user: its session is
        still stored; a log-out deletes it). In a thread: it reads the database."""
        user = self.scope.get("user")
        if "api_token" in self.scope:  # opened with a token: it still stands (not revoked, not expired)
            token = self.scope["api_token"]
            return token is not None and tokens.still_valid(digest=token.digest)
        session = self.scope.get("session")
        if user is None or not user.is_authenticated or session is None:
            return True  # no session: a consumer mounted without the site's session middleware (tests)
        key = getattr(session, "session_key", None)
        return bool(key) and session.exists(key)

    async def session_ended(self, event):
        """The log-in this socket was opened with logged out: the socket closes (4401, as for a socket that
        needs a log-in)."""
        await self.close(code=4401)

    @classmethod
    async def encode_json(cls, content):
        return encode(content)  # orjson, as the frames the group messages carry

    async def send_error(self, code: str, detail: str, **extra) -> None:
        await self.send_json({"type": "error", "code": code, "detail": detail, **extra})

    # Syncs per socket: a token bucket, SYNC_BURST at once, then SYNC_RATE a second. The browser asks for one
    # at a time, after a gap, a missing push or a reconnect, so it stays well inside.
    SYNC_RATE = 2.0
    SYNC_BURST = 4

    async def sync_allowed(self) -> bool:
        """Takes a token for a sync; without one, answers `rate_limited` (with `retry_after`) and builds
        nothing: a flood of syncs from one socket must not take the database and the web process's threads
        from other sockets' snapshots."""
        if getattr(self, "sync_bucket", None) is None:
            self.sync_bucket = TokenBucket(rate=self.SYNC_RATE, burst=self.SYNC_BURST)
        wait = self.sync_bucket.take()
        if wait:
            await self.send_error("rate_limited", f"too many syncs; at most {self.SYNC_RATE:g} a second",
                                  retry_after=round(wait + 0.005, 2))
            return False
        return True


class GameConsumer(JsonFramesConsumer):
    forwarded = frozenset({"game.event", "game.events", "game.snapshot"})

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.groups_joined = []
        self.allowed = False
        user = self.scope.get("user")
        allowed, seated = await database_sync_to_async(self._allowed)(user)
        if not allowed:
            await self.close(code=4403)
            return
        self.allowed = True
        await self.join_session()
        # Join before the snapshot so that no event falls between the two; the client drops
        # events whose version its snapshot already includes. A player also joins their own group, where
        # each deal pushes their new snapshot (hand included); nobody else ever joins it.
        self.groups_joined = [group_name(self.game_id)]
        if seated:
            self.groups_joined.append(player_group_name(self.game_id, user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_snapshot()

    def _allowed(self, user) -> tuple[bool, bool]:
        """(may watch, has a seat). A token needs its `read` scope; a bot account plays with a token, never
        with a browser's session (docs/bot-api.md)."""
        game = access.get_game(game_id=self.game_id)
        if game is None or not access.can_view(user=user, game=game):
            return False, False
        token = self.scope.get("api_token")
        if token is not None and not tokens.has_scope(token, "read"):
            return False, False
        if token is None and account_selectors.is_bot(user=user):
            return False, False
        return True, seats.seat_of(user=user, game=game) is not None

    async def disconnect(self, code):
        await self.revoke()
        await self.leave_session()

    async def revoke(self) -> None:
        """This socket may no longer watch the game: it leaves the game's groups and passes on nothing more."""
        self.allowed = False
        groups, self.groups_joined = self.groups_joined, []
        for group in groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def game_access(self, event):
        """The user's access to this game changed (they left it before the start): checked again, in order with
        the game's frames, so a socket that lost it gets no frame sent after the change."""
        if self.allowed:
            still, _ = await database_sync_to_async(self._allowed)(self.scope.get("user"))
            if not still:
                await self.revoke()

    async def receive_json(self, content, **kwargs):
        if content["type"] == "program":
            await self.receive_program(content)
            return
        if content["type"] != "sync":
            await self.send_error("unknown_type",
                                  "unknown message type; this socket takes {\"type\": \"sync\"} and programs")
            return
        if await self.sync_allowed():
            await self.send_snapshot()

    # Programs per socket: a person sends one a turn, and a changed mind a few more.
    PROGRAM_RATE = 2.0
    PROGRAM_BURST = 6

    async def receive_program(self, content: dict) -> None:
        """A program over the open socket: the same checks, the same write and the same events as POST
        /api/games/<id>/program/ (moves.submit_program), without a request, a session lookup or the
        middleware per program. Answered on this socket alone: `program_accepted` or an `error` (with the
        frame's `id`, when it had a usable one, and the `status` the HTTP request would have had)."""
        request_id = content.get("id")
        if request_id is not None and not (
            (isinstance(request_id, str) and len(request_id) <= 64)
            or (isinstance(request_id, int) and not isinstance(request_id, bool) and abs(request_id) < 2**53)
        ):
            await self.send_error("invalid", "id: a string of at most 64 characters or an integer", status=400)
            return
        reply = {"id": request_id} if request_id is not None else {}
        token = self.scope.get("api_token")
        if token is not None and not tokens.has_scope(token, "play"):
            await self.send_error("not_allowed", "this token does not have the 'play' scope", status=403, **reply)
            return
        if getattr(self, "program_bucket", None) is None:
            self.program_bucket = TokenBucket(rate=self.PROGRAM_RATE, burst=self.PROGRAM_BURST)
        wait = self.program_bucket.take()
        if wait:
            await self.send_error("rate_limited", f"too many programs; at most {self.PROGRAM_RATE:g} a second",
                                  retry_after=round(wait + 0.005, 2), status=429, **reply)
            return
        fields = plain_program(content)
        if fields is None:  # anything unusual is read by the API's own serializer, for its exact answer
            serializer = ProgramSerializer(data={key: content[key] for key in PROGRAM_FIELDS if key in content})
            if not serializer.is_valid():
                # The same sentence as the API's 400 detail ("chips: ...; turn: ...").
                await self.send_error("invalid", "; ".join(messages_of(serializer.errors)), status=400, **reply)
                return
            fields = serializer.validated_data
        try:
            program = await database_sync_to_async(moves.submit_program)(
                user=self.scope["user"], game_id=self.game_id, **fields)
        except GameError as error:
            code = next((name for kind, name in ERROR_CODES.items() if isinstance(error, kind)), "invalid")
            await self.send_error(code, error.message, status=error.status_code, **reply)
            return
        await self.send_json({"type": "program_accepted", **reply, "turn": program.turn, "chips": program.chips,
                              "reboot": program.reboot, "action": program.action})

    async def send_snapshot(self):
        snapshot = await database_sync_to_async(self._snapshot)() if self.allowed else None
        if snapshot is None:  # access lost (left a private game, logged out): refused as for a missing game
            await self.revoke()
            await self.send_error("not_found", f"game {self.game_id} does not exist")
            return
        await self.send_json({"type": "snapshot", "version": snapshot["version"], "game": snapshot})

    def _snapshot(self) -> dict | None:
        """The snapshot, access checked again (the game, the user's right to watch it, the log-in): None if
        this socket may no longer see the game."""
        user = self.scope["user"]
        game = access.get_game(game_id=self.game_id)
        if game is None or not access.can_view(user=user, game=game) or not self.signed_in_still():
            return None
        return snapshots.game_snapshot(game=game, user=user)

    async def game_snapshot(self, event):
        """This player's own snapshot, pushed after a deal (only ever sent to their own group)."""
        if self.allowed:
            await self.send(text_data=event["text"])

    async def game_event(self, event):
        """A public event from the group (never carries a hand or an unrevealed program), encoded once by
        its sender for every socket."""
        if self.allowed:
            await self.send(text_data=event["text"])

    async def game_events(self, event):
        """Several public events of one transaction in one group message (broadcast.batched_events): the
        client gets each as its own frame, in order."""
        if self.allowed:
            for text in event["texts"]:
                await self.send(text_data=text)


class NotificationConsumer(JsonFramesConsumer):
    """A signed-in user's own notices ("your turn" in any of their games), for the lobby and game pages."""

    forwarded = frozenset({"user.notice"})

    async def connect(self):
        user = self.scope.get("user")
        self.group = None
        if not (user and user.is_authenticated):
            await self.close(code=4401)
            return
        self.group = user_group_name(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_session()
        await self.accept()

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.leave_session()

    async def receive_json(self, content, **kwargs):
        await self.send_error("unknown_type", "this socket only sends notices; it takes no messages")

    async def user_notice(self, event):
        await self.send(text_data=event["text"])
