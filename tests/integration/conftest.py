"""Fixtures for tests that break things: a Redis of their own, which they may stop and restart."""

import time

import pytest

from roboracer import embedded_redis
from tests.conftest import ROOT


@pytest.fixture
def private_redis():
    socket = ROOT / "var" / f"failure-redis-{time.monotonic_ns()}.sock"
    holder = {"process": embedded_redis.start(socket), "socket": socket, "url": f"unix://{socket}"}

    def restart() -> None:
        embedded_redis.stop(holder["process"], socket)
        holder["process"] = embedded_redis.start(socket)

    holder["restart"] = restart
    yield holder
    embedded_redis.stop(holder["process"], socket)


def needs_postgres():
    """A mark for tests that race real transactions: PostgreSQL under CI=true or a postgres:// DATABASE_URL;
    skipped on the SQLite default (which serialises every writer), never under CI."""
    from django.conf import settings

    from tests.testenv import CI

    return pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql" and not CI,
        reason="needs PostgreSQL (CI=true, or DATABASE_URL=postgres://...)",
    )
