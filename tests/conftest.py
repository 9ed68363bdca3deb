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

    def _readies(self) -> int:
        return self.logs["worker"].read_text().count("ready.") if self.logs["worker"].exists() else 0

    def start(self, name: str) -> None:
        """(Re)start one process; its log is appended to, so `ready.` counts tell restarts apart."""
        if name == "worker":
            self.worker_readies = self._readies()
        handle = open(self.logs[name], "a")  # noqa: SIM115 - the child writes to it while it lives
        self.processes[name] = subprocess.Popen(
            self.commands[name], cwd=ROOT, env=self.env, stdout=handle, stderr=subprocess.STDOUT
        )

    def wait_ready(self, name: str | None = None) -> None:
        names = [name] if name else list(self.processes)
        if "worker" in names:
            _wait_for(lambda: self._readies() > self.worker_readies, "celery worker", self.logs)
        if "web" in names:

            def web_up() -> bool:
                self.check_alive()
                try:
                    return requests.get(f"{self.base_url}/api/auth/csrf/", timeout=1).status_code == 200
                except requests.RequestException:
                    return False

            _wait_for(web_up, "uvicorn", self.logs)

    def kill(self, name: str) -> None:
        """SIGKILL: the process gets no chance to finish or acknowledge anything."""
        process = self.processes[name]
        process.kill()
        process.wait()

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_for(predicate, what: str, stack_logs: dict[str, Path], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    tails = "\n".join(f"--- {name}\n{path.read_text()[-3000:]}" for name, path in stack_logs.items())
    raise RuntimeError(f"{what} not ready within {timeout} s\n{tails}")


def launch(tag: str, redis_url: str, *, web: bool = True, beat: bool = False) -> LiveStack:
    """Start a Celery worker (with beat if asked) and, if asked, uvicorn, on the test database and the given
    Redis; wait until they are ready. The caller stops them with `stack.stop()`."""
    from roboracer.run import web_command, worker_command

    LOG_DIR.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1"}
    options = ["--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat",
               f"--hostname={tag}-{port}@%h"]
    if beat:
        options += ["--beat", f"--schedule={LOG_DIR / f'{tag}-{port}-beat-schedule'}"]
    commands = {"worker": worker_command(*options)}
    if web:
        commands["web"] = web_command("127.0.0.1", port, log_level="warning")
    stack = LiveStack(f"http://127.0.0.1:{port}", {}, {name: LOG_DIR / f"{tag}-{name}.log" for name in commands})
    stack.env = env
    stack.commands = commands
    for path in stack.logs.values():
        path.write_text("")
    for name in commands:
        stack.start(name)
    try:
        stack.wait_ready()
    except BaseException:
        stack.stop()
        raise
    return stack


@pytest.fixture(scope="session")
def live_stack(django_db_setup, django_db_blocker):
    """uvicorn + a Celery worker on the test database; tests using it need `transactional_db`."""
    from roboracer.celery import app

    app.control.purge()  # tasks left over from an earlier run must not reach this run's worker
    stack = launch("test", settings.REDIS_URL)
    try:
        yield stack
    finally:
        stack.stop()


def pytest_collection_modifyitems(config, items):
    """Browser tests last: Playwright's sync API keeps an event loop on the main thread while it runs,
    which async tests and async_to_sync after it would trip over."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
