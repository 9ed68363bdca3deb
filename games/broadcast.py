"""Pushing a game's public events to its channel group, only after the transaction commits; and personal
notices ("your turn") to each user's own group.

Messages carry the WebSocket frame already encoded (`text`): a group's consumers send it as it is instead of
each encoding the same dict again. Sync code (views, services, Celery tasks) sends through one event loop
per process that runs in a thread of its own (`_Sender`), so a send costs one PUBLISH on a connection that
stays open, not a new event loop and a new Redis connection, as `async_to_sync` outside a server would.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from contextlib import contextmanager

import orjson
from channels.layers import get_channel_layer
from django.db import transaction

from games.models import GameEvent
from roboracer.common import compiled

SEND_TIMEOUT = 10.0  # seconds; past it the send is given up (delivery is at most once; clients resync)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def user_group_name(user_id: int) -> str:
    return f"user-{user_id}"


def player_group_name(game_id: int, user_id: int) -> str:
    """A player's own sockets on one game's page: where their snapshot (hand included) is pushed."""
    return f"game-{game_id}-user-{user_id}"


def session_group_name(session_key: str) -> str:
    """Every socket opened with one log-in (one session): logging out closes them all. A hash of the key, so the
    key itself is never a channel-layer name."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def account_group_name(user_id: int) -> str:
    """An account's open Bot API event streams (docs/bot-api.md): told when its account events were stored."""
    return f"account-{user_id}"


def wake_accounts(user_ids) -> None:
    """Tell these accounts' open event streams to read their new events; call it after commit. At most once:
    a stream that misses it reads them at its next keep-alive tick."""
    _send_all([(account_group_name(user_id), {"type": "account.event"}) for user_id in user_ids])


def token_group_name(digest: str) -> str:
    """Every socket and stream opened with one personal API token: revoking it closes them all
    (docs/bot-api.md). A hash of the digest, as for a session."""
    return "token-" + hashlib.sha256(digest.encode()).hexdigest()[:40]


def end_token(digest: str) -> None:
    """Close every socket opened with this token (revoked); call it after the commit."""
    group_send(token_group_name(digest), {"type": "session.ended"})


def end_session(session_key: str) -> None:
    """Close every socket opened with this session (the user logged out); call it after the log-out."""
    group_send(session_group_name(session_key), {"type": "session.ended"})


def access_changed(game_id: int, user_id: int) -> None:
    """Tell a user's own sockets on a game's page to check again whether they may still watch it (they left a
    private game before it started); call it after commit."""
    group_send(player_group_name(game_id, user_id), {"type": "game.access"})


def event_message(event: GameEvent) -> dict:
    """The WebSocket message for a stored event (also used to replay missed events)."""
    return {"type": "event", "version": event.version, "kind": event.kind, "data": event.data}


def encode(message: dict) -> str:
    """A frame's JSON text, with orjson: 4-8 times faster than the standard library's encoder on a
    snapshot or a turn's events (docs/performance.md). Dict keys that are not strings (a bot id as an
    int) become strings, as json.dumps makes them; non-ASCII text is written as UTF-8, not \\u escapes."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class _Sender:
    """An event loop in a daemon thread, started on first use in each process (a forked child starts its
    own); sync callers hand it coroutines and wait for them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="channel-layer-sender", daemon=True).start()
                self._loop, self._pid = loop, os.getpid()
            return self._loop

    def run(self, coroutine) -> None:
        """Send and wait for it. The caller blocks without the GIL meanwhile; a sender that did not wait
        was starved by its own busy process (a worker resolving the next turn) and delivered seconds late
        (make bench-site)."""
        asyncio.run_coroutine_threadsafe(coroutine, self._running_loop()).result(SEND_TIMEOUT)


_sender = _Sender()


def group_send(group: str, message: dict) -> None:
    """Send to a channel group from sync code (raises if Redis cannot take it)."""
    _send_all([(group, message)])


def _send_all(messages: list[tuple[str, dict]]) -> None:
    """Send each (group, message) in order, in one hand-over to the sender loop."""

    async def send_all() -> None:
        layer = get_channel_layer()
        for group, message in messages:
            await layer.group_send(group, message)

    _sender.run(send_all())


_batch = threading.local()  # the events of the current batched_events() block, per thread


@contextmanager
def batched_events():
    """Inside one transaction (a program, a turn's resolution): the events its block appends are stored in one
    INSERT when the block ends, and go to their game's group as ONE channel-layer message after the commit
    ({"type": "game.events", "texts": [...]}); each socket sends them on as the same frames, in order. One
    statement, one PUBLISH, one decode and one consumer dispatch per socket instead of one per event
    (docs/performance.md). The send is registered with the first event, so whatever the block registers
    after it (the deal's pushed snapshots) still goes out after the events. Nothing in the block reads the
    game's event rows back, and it must not catch a rolled-back savepoint that appended an event (none
    does: a failure anywhere rolls the whole transaction back, and nothing is stored or sent). Nested
    blocks join the outer one."""
    if getattr(_batch, "open", False):
        yield
        return
    _batch.texts, _batch.rows, _batch.open = None, [], True
    try:
        yield
        rows = _batch.rows
    finally:
        _batch.open, _batch.texts, _batch.rows = False, None, []
    if rows:
        compiled.insert_many(rows)  # one INSERT ... VALUES (bulk_create's UNNEST escapes each JSON text in Python)


def store_event(event: GameEvent) -> None:
    """Store a new event row now, or with the others of the current batched_events() block."""
    if getattr(_batch, "open", False):
        _batch.rows.append(event)
    else:
        event.save(force_insert=True)


def send_after_commit(event: GameEvent) -> None:
    text = encode(event_message(event))
    game_id = event.game_id
    if getattr(_batch, "open", False):
        if _batch.texts is not None and _batch.game_id == game_id:
            _batch.texts.append(text)
            return
        texts = _batch.texts = [text]
        _batch.game_id = game_id

        def send_batch() -> None:
            group_send(group_name(game_id), {"type": "game.events", "texts": texts}
                       if len(texts) > 1 else {"type": "game.event", "text": texts[0]})

        transaction.on_commit(send_batch, robust=True)
        return

    def send() -> None:
        # At most once: a dropped message is recovered by the client's resync from the database.
        group_send(group_name(game_id), {"type": "game.event", "text": text})

    # robust: with Redis down the write still stands; clients resync from the database when it is back.
    transaction.on_commit(send, robust=True)


def push_snapshots(snapshots: list[tuple]) -> None:
    """Send each (user, snapshot) to that player's own sockets in the snapshot's game; call it after commit.
    A lost push costs the client a sync: it asks for a snapshot when none has come soon after `turn_dealt`."""
    _send_all([
        (player_group_name(snapshot["id"], user.pk), {"type": "game.snapshot", "text": encode(
            {"type": "snapshot", "version": snapshot["version"], "game": snapshot, "pushed": True})})
        for user, snapshot in snapshots
    ])


def push_team_chat(game_id: int, user_ids: list[int], line: dict) -> None:
    """A team's chat line to that team's players' own sockets in the game, never to the game's group (which
    spectators and the other team hear); call it after commit. A lost one is in the next snapshot."""
    text = encode({"type": "team_chat", "message": line})
    _send_all([(player_group_name(game_id, user_id), {"type": "game.snapshot", "text": text}) for user_id in user_ids])


def notify_users(notices: list[tuple[int, dict]]) -> None:
    """Send each (user id, message) to that user's own group; call it after commit. Advisory: the lobby's
    "my move" badges come from the database, so a lost notice loses nothing."""
    _send_all([
        (user_group_name(user_id), {"type": "user.notice", "text": encode(message)}) for user_id, message in notices
    ])
