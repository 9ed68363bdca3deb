"""Shared fixtures: users and courses, and the live stack (a real Celery worker and a real ASGI server,
as subprocesses, on the test database and the test Redis)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from tests import profiles  # noqa: F401 - loads the Hypothesis profile (ci or dev) before any test module

ROOT = Path(__file__).resolve().parent.parent
# A pytest-xdist worker (gw0, gw1, ...) keeps its live stacks' logs apart.
LOG_DIR = ROOT / "var" / "test-logs" / os.environ.get("PYTEST_XDIST_WORKER", "")


@pytest.fixture
def courses(db):
    from roboracer.courses.services import load_bundled_courses

    return {course.slug: course for course in load_bundled_courses()}


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(username=username, password="correct horse battery", **extra)

    return make


# The users of a test: `players` gives the names in its module's PLAYERS (default alice, bob, carol), with
# e-mail addresses at example.com if the module sets PLAYER_EMAILS = True; `make_players(count, prefix)` makes
# p000, p001, ... for tests that need many.
DEFAULT_PLAYERS = ("alice", "bob", "carol")


@pytest.fixture
def players(request, make_user):
    names = getattr(request.module, "PLAYERS", DEFAULT_PLAYERS)
    emails = getattr(request.module, "PLAYER_EMAILS", False)
    return [make_user(name, **({"email": f"{name}@example.com"} if emails else {})) for name in names]


@pytest.fixture
def make_players(make_user):
    from tests.helpers import many_players

    return lambda count, prefix="p": many_players(make_user, count, prefix)


@pytest.fixture(name="client_for")
def client_for_fixture():
    """`client_for(user)`: an API client authenticated as `user` (tests.helpers.client_for)."""
    from tests.helpers import client_for

    return client_for


@pytest.fixture(name="wait_until")
def wait_until_fixture():
    """`wait_until(predicate, what, timeout=60)`: poll a condition with a deadline (tests.helpers.wait_until)."""
    from tests.helpers import wait_until

    return wait_until


def _database_url() -> str:
    """The URL of the test database pytest-django created (its NAME is the test name by now)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    auth = f"{user}:{db['PASSWORD']}@" if db.get("PASSWORD") else (f"{user}@" if user else "")
    return f"postgres://{auth}{host}:{port}/{db['NAME']}"


def launch(tag: str, redis_url: str, *, beat: bool = False):
    """Another live stack (worker, with beat if asked, and uvicorn) on the test database and the given Redis,
    for tests that break things; logs under var/test-logs/<tag>/. The caller stops it with `stack.stop()`."""
    from tests import live

    options = ["--beat", f"--schedule={LOG_DIR / tag / 'beat-schedule'}"] if beat else []
    # A killed worker's beat held the scheduler lock: its successor takes over once the lock expires, after
    # 4 s here instead of production's 10 (docs/testing.md, as the process tests do).
    return live.start(env={"DATABASE_URL": _database_url(), "REDIS_URL": redis_url, "ROBORACER_BEAT_LOCK_SECONDS": "4"},
                      log_dir=LOG_DIR / tag, worker_options=options, name=tag)


@pytest.fixture(scope="session")
def live_stack(django_db_setup, django_db_blocker):
    """uvicorn + a Celery worker on the test database; tests using it need `transactional_db`."""
    from roboracer.celery import app
    from tests import live

    app.control.purge()  # tasks left over from an earlier run must not reach this run's worker
    stack = live.start(env={"DATABASE_URL": _database_url(), "REDIS_URL": settings.REDIS_URL}, log_dir=LOG_DIR,
                       name="test")
    try:
        yield stack
    finally:
        stack.stop()


LIVE_DIRS = {"integration": "integration", "e2e": "e2e"}


def pytest_collection_modifyitems(config, items):
    """Every test under tests/integration/ (or using `live_stack`) is marked `integration`, every test under
    tests/e2e/ `e2e`, so `make test-fast` can leave out what needs the live stack or a browser with
    `-m "not integration and not e2e"`. Browser tests run last: Playwright's sync API keeps an event loop on
    the main thread while it runs, which async tests and async_to_sync after it would trip over."""
    tests_dir = Path(__file__).resolve().parent
    for item in items:
        try:
            area = Path(str(item.path)).resolve().relative_to(tests_dir).parts[0]
        except ValueError:
            area = ""
        marker = LIVE_DIRS.get(area)
        if marker is None and "live_stack" in getattr(item, "fixturenames", ()):
            marker = "integration"
        if marker and item.get_closest_marker(marker) is None:
            item.add_marker(marker)
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
