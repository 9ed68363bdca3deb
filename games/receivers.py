"""Games' answers to the signals of the apps below it (docs/architecture.md "Layers"), connected in
games/apps.py: those apps ask, games answers, and none of them imports games."""

from __future__ import annotations

import logging

from django.db import transaction

from games import broadcast
from games.selectors import history

logger = logging.getLogger(__name__)


def course_games(sender, *, course, user, **kwargs) -> list:
    """roboracer.courses.signals.course_games."""
    return history.course_games(course=course, user=user)


def close_sockets(sender, request, user, **kwargs):
    """user_logged_out: logging out closes every WebSocket opened with that log-in (issue 33 item 3; docs/site.md
    "Sockets and access"). Django sends it before it flushes the session, so the key is still the log-in's."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if not key:
        return

    def send() -> None:
        try:
            broadcast.end_session(key)
        except Exception:  # Redis down: the log-out stands; each socket's next sync finds the session gone
            logger.exception("could not close the sockets of a session that logged out")

    transaction.on_commit(send)


def close_token_streams(sender, *, user_id: int, digest: str, **kwargs) -> None:
    """accounts.signals.token_revoked (after the commit): the sockets opened with the token close (4401) at once;
    its open streams see it on their next tick (docs/bot-api.md "Revoking a token")."""
    try:
        broadcast.end_token(digest)
    except Exception:  # Redis down: each socket's next sync, each stream's next tick, finds the token gone
        logger.exception("could not close the sockets of a revoked token")
