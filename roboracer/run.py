"""`make run`: the whole site on one machine — embedded Redis (unless REDIS_URL is set), a Celery worker
with beat, and the ASGI server — stopped together, cleanly, on Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from roboracer import embedded_redis
from roboracer.redis_url import socket_path

HOST = os.environ.get("HOST", "127.0.0.1")
PORT = os.environ.get("PORT", "8000")


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def web_command(host: str, port: int | str, log_level: str = "info", workers: int | None = None) -> list[str]:
    """The ASGI server as every mode runs it (make run, the test suite's live stack). `workers` (default
    WEB_WORKERS, else 1) uvicorn processes share the port: Python runs one core per process, and the
    channel layer reaches every process's sockets."""
    workers = workers or int(os.environ.get("WEB_WORKERS") or 1)
    return [sys.executable, "-m", "uvicorn", "roboracer.asgi:application", "--host", host, "--port", str(port),
            "--log-level", log_level, "--ws", "websockets-sansio", "--lifespan", "off",
            *(["--workers", str(workers)] if workers > 1 else []),
            # Open WebSockets must not keep a stopping server alive: clients reconnect and resync.
            "--timeout-graceful-shutdown", "5"]


def worker_command(*options: str, concurrency: int | None = None) -> list[str]:
    """A Celery worker; `options` adds beat, log level, host name... `concurrency` (default
    WORKER_CONCURRENCY, else 1) resolves that many turns at once in as many processes (prefork); 1 is a
    single process (solo pool)."""
    concurrency = concurrency or int(os.environ.get("WORKER_CONCURRENCY") or 1)
    pool = ["--pool=prefork", f"--concurrency={concurrency}"] if concurrency > 1 else ["--pool=solo"]
    return [sys.executable, "-m", "celery", "-A", "roboracer", "worker", *pool, *options]


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")
    from django.conf import settings

    var = Path(settings.VAR_DIR)
    redis_process = None
    redis_socket = None
    if not os.environ.get("REDIS_URL"):
        redis_socket = Path(socket_path(settings.REDIS_URL))
        if embedded_redis.reachable(settings.REDIS_URL):
            print(f"Using the Redis already answering on {redis_socket}")
        else:
            redis_process = embedded_redis.start(redis_socket, var / "redis.log")
            print(f"Embedded Redis on {redis_socket}")
    elif not embedded_redis.reachable(settings.REDIS_URL):
        print(f"REDIS_URL={settings.REDIS_URL} does not answer", file=sys.stderr)
        return 1

    children = [
        subprocess.Popen(
            worker_command("--beat", "--loglevel=INFO", f"--schedule={settings.CELERY_BEAT_SCHEDULE_FILENAME}"),
            start_new_session=True,  # Ctrl-C reaches only this runner, which stops them in order
        ),
        subprocess.Popen(web_command(HOST, PORT), start_new_session=True),
    ]
    web = children[1]
    deadline = time.monotonic() + 60
    while web.poll() is None and time.monotonic() < deadline and not _listening(HOST, int(PORT)):
        time.sleep(0.1)
    if web.poll() is None:
        print(f"\nRoboRacer is running at http://{HOST}:{PORT}/  (Ctrl-C stops everything)\n", flush=True)

    stopping = False

    def request_stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    exit_code = 0
    try:
        while not stopping:
            for child in children:
                if child.poll() is not None:
                    print(f"{child.args[2:4]} exited with code {child.returncode}; stopping", file=sys.stderr)
                    stopping, exit_code = True, 1
            time.sleep(0.2)
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
        if redis_process is not None:
            embedded_redis.stop(redis_process, redis_socket)
        print("RoboRacer stopped.")
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
