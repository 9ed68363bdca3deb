"""The WebSocket handshake's Origin check, through the site's ASGI application: scheme, host and port must be
the site's own (the Host it was reached at, in ALLOWED_HOSTS) or one of CSRF_TRUSTED_ORIGINS."""

import logging

import pytest
from channels.db import database_sync_to_async as sync_to_async

from tests.games.factories import started_game
from tests.games.wsclient import session_cookie, site_socket

pytestmark = pytest.mark.django_db(transaction=True)

MISSING = None


@pytest.fixture
def site(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    settings.CSRF_TRUSTED_ORIGINS = []
    settings.SECURE_PROXY_SSL_HEADER = None
    return settings


@pytest.fixture
async def paths(courses, make_user):
    alice = await sync_to_async(make_user)("alice")
    game = await sync_to_async(started_game)(users=[alice], course=courses["tiny-yard"])
    return {"cookie": await session_cookie(alice), "paths": [f"/ws/games/{game.pk}/", "/ws/notifications/"]}


async def handshake(paths, **socket) -> list[bool]:
    """Whether each socket (the game's, the notifications') accepts the handshake."""
    results = []
    for path in paths["paths"]:
        comm = site_socket(path, cookie=paths["cookie"], **socket)
        connected, _ = await comm.connect()
        results.append(connected)
        if connected:
            if "games" in path:
                assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
            await comm.disconnect()
    return results


@pytest.mark.parametrize(("host", "origin"), [
    ("127.0.0.1:8000", "http://127.0.0.1:8000"),
    ("localhost:8001", "http://localhost:8001"),  # the second web process of docker-compose.yml
    ("127.0.0.1", "http://127.0.0.1"),  # port 80
])
async def test_the_sites_own_origin_is_accepted(site, paths, host, origin):
    assert await handshake(paths, host=host, origin=origin) == [True, True]


@pytest.mark.parametrize(("host", "origin"), [
    ("127.0.0.1:8000", "http://127.0.0.1:9999"),  # another port of an allowed host: passed the old check
    ("127.0.0.1:8000", "http://127.0.0.1"),
    ("127.0.0.1:8000", "https://127.0.0.1:8000"),  # another scheme
    ("127.0.0.1:8000", "http://localhost:8000"),  # another allowed host, not the one the site was reached at
    ("127.0.0.1:8000", "https://evil.example"),
    ("127.0.0.1:8000", "http://evil.example:8000"),
    ("127.0.0.1:8000", "http://127.0.0.1.evil.example:8000"),
    ("127.0.0.1:8000", "http://127.0.0.1:8000/"),  # browsers never send a path; Django's check is exact too
    ("127.0.0.1:8000", "null"),  # sandboxed frames, file: pages
    ("127.0.0.1:8000", ""),
    ("127.0.0.1:8000", MISSING),
    ("evil.example:8000", "http://evil.example:8000"),  # a Host not in ALLOWED_HOSTS (DNS rebinding)
    ("127.0.0.1:8000", "http://[::1"),  # urlsplit raises on it
    ("[::1", "http://[::1"),
    ("127.0.0.1:8000", "http://127.0.0.1:8000\u00e9"),
])
async def test_other_origins_are_refused(site, paths, host, origin, caplog):
    caplog.set_level(logging.INFO)
    assert await handshake(paths, host=host, origin=origin) == [False, False]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_secure_socket_wants_the_https_origin(site, paths):
    assert await handshake(paths, scheme="wss", origin="https://127.0.0.1:8000") == [True, True]
    assert await handshake(paths, scheme="wss", origin="http://127.0.0.1:8000") == [False, False]


async def test_behind_a_tls_proxy_secure_proxy_ssl_header_decides_the_scheme(site, paths):
    site.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    comm = site_socket(paths["paths"][1], cookie=paths["cookie"], origin="https://127.0.0.1:8000")
    comm.scope["headers"].append((b"x-forwarded-proto", b"https"))
    assert (await comm.connect())[0]
    await comm.disconnect()
    assert await handshake(paths, origin="https://127.0.0.1:8000") == [False, False]  # no header: plain ws


async def test_csrf_trusted_origins_are_accepted_exactly_or_by_subdomain(site, paths):
    site.CSRF_TRUSTED_ORIGINS = ["http://127.0.0.1:8001", "https://*.example.com"]
    assert await handshake(paths, origin="http://127.0.0.1:8001") == [True, True]
    assert await handshake(paths, origin="https://play.example.com") == [True, True]
    assert await handshake(paths, origin="https://example.com") == [True, True]
    assert await handshake(paths, origin="http://play.example.com") == [False, False]
    assert await handshake(paths, origin="https://play.example.com.evil") == [False, False]
    assert await handshake(paths, origin="http://127.0.0.1:8002") == [False, False]
