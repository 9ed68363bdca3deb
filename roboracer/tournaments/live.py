"""The tournament page is live (issue 38 item 1): after a transaction that changed a tournament commits (its
status, an entry, a round seated, a table's result, the log), the tournament's group hears
`{"type": "tournament_changed", "tournament": <id>}`, once per transaction. The message carries nothing else:
the page then asks for its live part again (`GET /tournaments/<id>/?part=live`), rendered for that viewer, so
a player's own "your game is ready" card reaches only that player and nothing hidden travels on the group.

At most once, like every channel-layer message: a page whose socket comes back asks for its live part again.
"""

from __future__ import annotations

import logging

from django.db import connection, transaction

from games import broadcast

log = logging.getLogger(__name__)


def group_name(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed(*, tournament_id: int) -> None:
    """Tell the tournament's pages once the current transaction commits (at once outside one); a transaction
    that changes many rows of one tournament announces it once."""
    if connection.in_atomic_block:
        for _savepoints, func, _robust in connection.run_on_commit:
            if getattr(func, "tournament_live", None) == tournament_id:
                return

    def send() -> None:
        announce(tournament_id=tournament_id)

    send.tournament_live = tournament_id
    # robust: with Redis down the write stands; the pages catch up when their socket comes back.
    transaction.on_commit(send, robust=True)


def announce(*, tournament_id: int) -> None:
    message = {"type": "tournament_changed", "tournament": tournament_id}
    broadcast.group_send(group_name(tournament_id), {"type": "tournament.event", "text": broadcast.encode(message)})
