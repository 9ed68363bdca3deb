"""Pushing a game's public events to its channel group, only after the transaction commits; and personal
notices ("your turn") to each user's own group."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.models import GameEvent


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def user_group_name(user_id: int) -> str:
    return f"user-{user_id}"


def event_message(event: GameEvent) -> dict:
    """The WebSocket message for a stored event (also used to replay missed events)."""
    return {"type": "event", "version": event.version, "kind": event.kind, "data": event.data}


def send_after_commit(event: GameEvent) -> None:
    message = event_message(event)
    game_id = event.game_id

    def send() -> None:
        # At most once: a dropped message is recovered by the client's resync from the database.
        async_to_sync(get_channel_layer().group_send)(group_name(game_id), {"type": "game.event", "message": message})

    # robust: with Redis down the write still stands; clients resync from the database when it is back.
    transaction.on_commit(send, robust=True)


def notify_users(notices: list[tuple[int, dict]]) -> None:
    """Send each (user id, message) to that user's own group; call it after commit. Advisory: the lobby's
    "my move" badges come from the database, so a lost notice loses nothing."""
    layer = get_channel_layer()
    for user_id, message in notices:
        async_to_sync(layer.group_send)(user_group_name(user_id), {"type": "user.notice", "message": message})
