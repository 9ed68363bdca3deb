"""One REDIS_URL, spelled the way each client wants it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit


def socket_path(redis_url: str) -> str | None:
    """The unix socket path of a unix:// URL, else None."""
    parts = urlsplit(redis_url)
    return parts.path if parts.scheme == "unix" else None


def kombu_url(redis_url: str) -> str:
    """Kombu spells a unix socket redis+socket:///path (a database other than 0 as ?virtual_host=N, where
    redis-py says ?db=N); TCP URLs pass through."""
    path = socket_path(redis_url)
    if not path:
        return redis_url
    db = parse_qs(urlsplit(redis_url).query).get("db", [""])[0]
    return f"redis+socket://{path}" + (f"?virtual_host={db}" if db else "")
