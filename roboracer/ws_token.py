"""A personal API token on the WebSockets (issue 41, docs/bot-api.md): a handshake with `Authorization: Bearer
<token>` is that token's account, whatever cookies it carries; a token that is wrong, revoked or expired makes
it anonymous (refused as such by the socket). `scope["api_token"]` is then the token (its scopes; the socket
checks it again on each sync, and a revocation closes it: games.receivers). Without the header nothing changes."""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from roboracer.accounts.tokens import token_user


def bearer(scope: dict) -> str | None:
    """The token of the handshake's Authorization header, or None without a Bearer header ("" for a broken one)."""
    for name, value in scope.get("headers") or ():
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            return token.strip() if scheme.lower() == "bearer" else None
    return None


class TokenAuthMiddleware:
    """Inside Channels' AuthMiddlewareStack, so that a token replaces the session's user."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        token = bearer(scope) if scope["type"] == "websocket" else None
        if token is not None:
            found = await database_sync_to_async(token_user)(token) if token else None
            scope = {**scope, "user": found[0] if found else AnonymousUser(), "api_token": found[1] if found else None,
                     "session": None}
        return await self.application(scope, receive, send)
