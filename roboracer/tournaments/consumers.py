"""The tournament page's WebSocket (issue 38 item 1; live.py says what it hears). Open to everyone who may see the
page, like the lobby's: a tournament page is public. It takes one message, `{"type": "sync"}`, answered with
`{"type": "tournament_changed", ...}` so a page that doubts it missed something asks for its live part again."""

from channels.db import database_sync_to_async

from games.consumers import JsonFramesConsumer
from roboracer.tournaments import live
from roboracer.tournaments.models import Tournament


class TournamentConsumer(JsonFramesConsumer):
    forwarded = frozenset({"tournament.event"})

    async def connect(self):
        self.group = None
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        if not await database_sync_to_async(Tournament.objects.filter(pk=tournament_id).exists)():
            await self.close(code=4404)
            return
        self.tournament_id = tournament_id
        self.group = live.group_name(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_session()  # logging out closes it: the page's own card was rendered for that user
        await self.accept()

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.leave_session()

    async def receive_json(self, content, **kwargs):
        if content["type"] != "sync":
            await self.send_error("unknown_type", "unknown message type; the only one is {\"type\": \"sync\"}")
        elif await self.sync_allowed():
            await self.send_json({"type": "tournament_changed", "tournament": self.tournament_id})

    async def tournament_event(self, event):
        await self.send(text_data=event["text"])
