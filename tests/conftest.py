"""Shared fixtures: users and courses, and the live stack (a real Celery worker and a real ASGI server,
as subprocesses, on the test database and the test Redis)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LOG_DIR = ROOT / "var" / "test-logs"


@pytest.fixture
def courses(db):
    from roboracer.courses.services import load_bundled_courses

    return {course.slug: course for course in load_bundled_courses()}


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(username=username, password="correct horse battery", **extra)

    return make


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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveStack:
    def __init__(self, base_url: str, processes: dict[str, subprocess.Popen], logs: dict[str, Path]):
        self.base_url = base_url
        self.processes = processes
        self.logs = logs

    @property
    def ws_url(self) -> str:
        return self.base_url.replace("http://", "ws://")

    def check_alive(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise AssertionError(f"{name} exited ({process.returncode}):\n{self.logs[name].read_text()[-3000:]}")


def _wait_for(predicate, what: str, stack_logs: dict[str, Path], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    tails = "\n".join(f"--- {name}\n{path.read_text()[-3000:]}" for name, path in stack_logs.items())
    raise RuntimeError(f"{what} not ready within {timeout} s\n{tails}")


@pytest.fixture(scope="session")
def live_stack(django_db_setup, django_db_blocker):
    """uvicorn + a Celery worker on the test database; tests using it need `transactional_db`."""
    from roboracer.celery import app
    from roboracer.run import web_command, worker_command

    LOG_DIR.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": settings.REDIS_URL, "PYTHONUNBUFFERED": "1"}
    app.control.purge()  # tasks left over from an earlier run must not reach this run's worker
    logs = {"worker": LOG_DIR / "worker.log", "web": LOG_DIR / "web.log"}
    commands = {
        "worker": worker_command("--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat",
                                 f"--hostname=test-{port}@%h"),
        "web": web_command("127.0.0.1", port, log_level="warning"),
    }
    processes = {}
    for name, command in commands.items():
        handle = open(logs[name], "w")  # noqa: SIM115 - the child writes to it for the whole session
        processes[name] = subprocess.Popen(command, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT)
    stack = LiveStack(f"http://127.0.0.1:{port}", processes, logs)
    try:
        _wait_for(lambda: "ready." in logs["worker"].read_text(), "celery worker", logs)

        def web_up() -> bool:
            stack.check_alive()
            try:
                return requests.get(f"{stack.base_url}/api/auth/csrf/", timeout=1).status_code == 200
            except requests.RequestException:
                return False

        _wait_for(web_up, "uvicorn", logs)
        yield stack
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


def pytest_collection_modifyitems(config, items):
    """Browser tests last: Playwright's sync API keeps an event loop on the main thread while it runs,
    which async tests and async_to_sync after it would trip over."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
