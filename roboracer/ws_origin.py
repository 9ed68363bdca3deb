"""The WebSocket handshake's Origin check: the same rule as Django's CSRF origin check for HTTP.

Channels' AllowedHostsOriginValidator compares only the Origin's host name with ALLOWED_HOSTS, so a page on
another port or scheme of an allowed host (http://127.0.0.1:9999 against a site on :8000) could open a socket
with the visitor's session. Here an Origin passes only if it is, scheme, host and port,

- the site as this request reached it: `http(s)://` + the Host header (which must match ALLOWED_HOSTS), the
  scheme being https when the socket is wss:// or SECURE_PROXY_SSL_HEADER says so, as `request.is_secure()`;
- or one of CSRF_TRUSTED_ORIGINS (exactly, or `https://*.example.com` for a domain and its subdomains).

A handshake without an Origin header is refused: every browser sends one on a WebSocket, a client that
strips it (a privacy extension) must not get a socket with the user's cookies from any page, and our own
non-browser clients (tests/integration/client.py, tests/bench/site.py) send the site's origin.
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain

HTTP_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def handshake_request(scope: dict) -> ASGIRequest:
    """The handshake as a Django request (headers in META, the server's address), for get_host()/is_secure()."""
    http_scope = {**scope, "method": "GET", "scheme": HTTP_SCHEMES.get(scope.get("scheme") or "ws", "http")}
    return ASGIRequest(http_scope, io.BytesIO())


def origin_allowed(scope: dict) -> bool:
    request = handshake_request(scope)
    origin = request.META.get("HTTP_ORIGIN")
    if not origin:
        return False
    try:
        site = f"{'https' if request.is_secure() else 'http'}://{request.get_host()}"
    except DisallowedHost:
        site = None
    if origin == site:
        return True
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in (trusted_origin for trusted_origin in trusted if "*" not in trusted_origin):
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        is_same_domain(parsed.netloc, pattern.netloc.lstrip("*"))
        for pattern in (urlsplit(trusted_origin) for trusted_origin in trusted if "*" in trusted_origin)
        if pattern.scheme == parsed.scheme
    )


class SameOriginValidator:
    """ASGI middleware for WebSocket connections: denies the handshake (HTTP 403) unless origin_allowed."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
