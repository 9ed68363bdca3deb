"""One WebSocket consumer per game page: a snapshot on connect and on request, then public events."""

import json

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import selectors
from games.broadcast import group_name, player_group_name, user_group_name


class JsonFramesConsumer(AsyncJsonWebsocketConsumer):
    # Group messages whose handler only sends the frame its sender encoded. Channels runs Django's
    # close_old_connections in a thread before every handler; these touch no database, and at 100 busy games
    # that hop was a tenth of the web server's CPU (make bench-site). Handlers that read the database do it
    # through database_sync_to_async, which closes old connections itself.
    forwarded: frozenset[str] = frozenset()

    async def dispatch(self, message):
        if message["type"] in self.forwarded:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return json.loads(text_data)
        except ValueError:
            return None  # answered with an error reply, like any other message the server doesn't know


class GameConsumer(JsonFramesConsumer):
    forwarded = frozenset({"game.event", "game.snapshot"})

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.groups_joined = []
        user = self.scope.get("user")
        allowed, seated = await database_sync_to_async(self._allowed)(user)
        if not allowed:
            await self.close(code=4403)
            return
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
        """(may watch, has a seat)."""
        game = selectors.get_game(game_id=self.game_id)
        if game is None or not selectors.can_view(user=user, game=game):
            return False, False
        return True, selectors.seat_of(user=user, game=game) is not None

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "sync":
            await self.send_snapshot()
        else:
            await self.send_json({"type": "error", "detail": "unknown message; send {\"type\": \"sync\"}"})

    async def send_snapshot(self):
        snapshot = await database_sync_to_async(self._snapshot)()
        await self.send_json({"type": "snapshot", "version": snapshot["version"], "game": snapshot})

    def _snapshot(self) -> dict:
        game = selectors.get_game(game_id=self.game_id)
        return selectors.game_snapshot(game=game, user=self.scope["user"])

    async def game_snapshot(self, event):
        """This player's own snapshot, pushed after a deal (only ever sent to their own group)."""
        await self.send(text_data=event["text"])

    async def game_event(self, event):
        """A public event from the group (never carries a hand or an unrevealed program), encoded once by
        its sender for every socket."""
        await self.send(text_data=event["text"])


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
        await self.accept()

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "detail": "this socket only sends notices"})

    async def user_notice(self, event):
        await self.send(text_data=event["text"])
