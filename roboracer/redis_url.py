"""One REDIS_URL, spelled the way each client wants it."""

from __future__ import annotations

from urllib.parse import urlsplit


def socket_path(redis_url: str) -> str | None:
    """The unix socket path of a unix:// URL, else None."""
    parts = urlsplit(redis_url)
    return parts.path if parts.scheme == "unix" else None


def kombu_url(redis_url: str) -> str:
    """Kombu spells a unix socket redis+socket:///path; TCP URLs pass through."""
    path = socket_path(redis_url)
    return f"redis+socket://{path}" if path else redis_url
