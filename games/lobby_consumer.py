"""The lobby page's WebSocket: the whole lobby on connect and on request, then each game's changes
(games.lobby_feed). Open to everyone, like the lobby page; a signed-in user also hears about their own games,
private ones included."""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from games import lobby_feed
from games.consumers import JsonFramesConsumer
from games.selectors import lobby


class LobbyConsumer(JsonFramesConsumer):
    forwarded = frozenset({"lobby.event"})

    async def connect(self):
        user = self.scope.get("user")
        # The page of open games the lobby page shows (`/ws/lobby/?page=2`): the `lobby` frame carries that page.
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.page = lobby.lobby_page_number((query.get("page") or [None])[0]) or 1
        # Join before reading the lobby so that no change falls between the two; summaries carry the game's
        # version, and the browser keeps the newest it has seen of each game.
        self.groups_joined = [lobby_feed.LOBBY_GROUP]
        if user is not None and user.is_authenticated:
            self.groups_joined.append(lobby_feed.user_group_name(user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.join_session()  # logging out closes it
        await self.accept()
        await self.send_lobby()

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.leave_session()

    async def receive_json(self, content, **kwargs):
        # receive() parsed the frame (bad ones were answered with an error frame already)
        if content["type"] != "sync":
            await self.send_error("unknown_type", "unknown message type; the only one is {\"type\": \"sync\"}")
        elif await self.sync_allowed():  # the same per-socket rate limit as the game socket's syncs
            await self.send_lobby()

    async def send_lobby(self):
        state = await database_sync_to_async(lobby.lobby_state)(user=self.scope.get("user"), page=self.page)
        await self.send_json({"type": "lobby", **state})

    async def lobby_event(self, event):
        """A game's summary, encoded once by its sender (public games only in the public group)."""
        await self.send(text_data=event["text"])
