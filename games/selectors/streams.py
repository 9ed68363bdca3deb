"""What the Bot API's streams read (docs/bot-api.md "Streams"): an account's own events, and a game's public
events, after the number or version a client already has. Rows, in order, at most `limit` at a time."""

from __future__ import annotations

from games.models import AccountEvent, GameEvent

PAGE = 200


def account_events_after(*, user, number: int, limit: int = PAGE) -> list[dict]:
    """The account's own events after `number`, oldest first: {"type": kind, "id": number, ...its data}."""
    rows = AccountEvent.objects.filter(user=user, number__gt=number).order_by("number")[:limit]
    return [{"type": row.kind, "id": row.number, **row.data} for row in rows]


def game_events_after(*, game_id: int, version: int, limit: int = PAGE) -> list[GameEvent]:
    """The game's public events after `version` (the stored stream every socket's events come from)."""
    return list(GameEvent.objects.filter(game_id=game_id, version__gt=version).order_by("version")[:limit])
