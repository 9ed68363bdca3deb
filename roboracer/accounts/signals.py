"""Logging out closes every WebSocket opened with that log-in (issue 33 item 3; docs/site.md "Sockets and access")."""

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def close_sockets(sender, request, user, **kwargs):
    """user_logged_out: Django sends it before it flushes the session, so the key is still the log-in's."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if not key:
        return

    def send() -> None:
        from games import broadcast

        try:
            broadcast.end_session(key)
        except Exception:  # Redis down: the log-out stands; each socket's next sync finds the session gone
            logger.exception("could not close the sockets of a session that logged out")

    transaction.on_commit(send)
