"""`make run`: the whole site on one machine — embedded Redis (unless REDIS_URL is set), a Celery worker, the
beat scheduler, and the ASGI server — stopped together, cleanly, on Ctrl-C.

No scheduler is ever left behind or doubled (docs/site.md, "Processes of make run"):
- beat is a process of its own, not a child of the worker, so a worker that dies takes no scheduler with it
  and leaves none behind;
- every child gets SIGTERM from the kernel when this runner dies, even by SIGKILL (Linux's parent-death
  signal, roboracer.parent_death);
- var/run.json names this runner and its children: a second `make run` on the same var/ refuses to start
  while the first runs, and stops what a killed runner left behind before starting anything;
- the scheduler itself holds a Redis lock (roboracer.beat), so even a stray `celery beat` sends nothing twice.
If any child exits, the runner stops everything and says so; it restarts nothing by itself."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
from django.conf import settings  # lazy: read at first use, after DJANGO_SETTINGS_MODULE is set

from roboracer import embedded_redis, parent_death
from roboracer.redis_url import socket_path

HOST = os.environ.get("HOST", "127.0.0.1")
PORT = os.environ.get("PORT", "8000")
STATE_FILE = "run.json"


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


def beat_command(*options: str) -> list[str]:
    """The beat scheduler as a process of its own (the scheduler class is in the settings: roboracer.beat)."""
    return [sys.executable, "-m", "celery", "-A", "roboracer", "beat", *options]


# --- var/run.json: who is running, so that a later run can tell what a killed one left behind ---------------

def _started(pid: int) -> float | None:
    """The creation time of process `pid`, or None if there is none (a pid with its time names one process:
    pids are reused, pid and time together are not)."""
    try:
        return psutil.Process(pid).create_time()
    except psutil.Error:
        return None


def _same_process(entry: dict) -> bool:
    if not isinstance(entry.get("pid"), int) or not isinstance(entry.get("started"), float | int):
        return False
    started = _started(entry["pid"])
    return started is not None and abs(started - entry["started"]) < 0.05


def _write_state(path: Path, processes: dict[str, subprocess.Popen]) -> None:
    state = {"runner": {"pid": os.getpid(), "started": _started(os.getpid())},
             "children": {name: {"pid": process.pid, "started": _started(process.pid)}
                          for name, process in processes.items()}}
    path.write_text(json.dumps(state, indent=1))


def _group_members(entry: dict) -> list[psutil.Process]:
    """Processes of the session a recorded child led (it was started with a session of its own, so its own
    children share its process group even once it is gone), created no earlier than it."""
    if not isinstance(entry.get("pid"), int) or not isinstance(entry.get("started"), float | int):
        return []  # it was gone before its start time could be read
    if _started(entry["pid"]) is not None and not _same_process(entry):
        return []  # the pid (and so the group) is another process's now
    members = []
    for process in psutil.process_iter(["create_time"]):
        try:
            if os.getpgid(process.pid) == entry["pid"] and process.info["create_time"] >= entry["started"] - 0.05:
                members.append(process)
        except (OSError, psutil.Error):
            continue
    return members


def stop_leftovers(path: Path, timeout: float = 15.0) -> str | None:
    """Read the state a previous run left. If that runner still runs, return why this one must not start.
    Otherwise stop (SIGTERM, then SIGKILL after `timeout`) every process it started that still runs, with its
    children, and forget it."""
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(state, dict):
        return None
    runner = state.get("runner") or {}
    if runner.get("pid") != os.getpid() and _same_process(runner):
        return f"RoboRacer is already running (runner pid {runner['pid']}); stop it first (Ctrl-C there)"
    leftovers = {name: _group_members(entry) for name, entry in (state.get("children") or {}).items()}
    leftovers = {name: members for name, members in leftovers.items() if members}
    for name, members in leftovers.items():
        print(f"Stopping {name} left over from an earlier run: pid {', '.join(str(p.pid) for p in members)}",
              file=sys.stderr)
        for member in members:
            try:
                member.terminate()
            except psutil.Error:
                pass
    everyone = [member for members in leftovers.values() for member in members]
    _gone, alive = psutil.wait_procs(everyone, timeout=timeout)
    for member in alive:
        try:
            member.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=5)
    path.unlink(missing_ok=True)
    return None


def _spawn(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(
        command,
        start_new_session=True,  # Ctrl-C reaches only this runner, which stops them in order
        preexec_fn=parent_death.preexec(),  # ... and its death, however it comes, reaches them (Linux)
    )


def _describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")
    var = Path(settings.VAR_DIR)
    state_path = var / STATE_FILE
    refusal = stop_leftovers(state_path)
    if refusal:
        print(refusal, file=sys.stderr)
        return 1

    stopping = False

    def request_stop(signum, frame):
        nonlocal stopping
        stopping = True

    # From here on Ctrl-C and SIGTERM only ask for a stop: whatever has been started is stopped in order below.
    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    processes: dict[str, subprocess.Popen] = {}  # all we started, recorded in var/run.json as they start
    children: dict[str, subprocess.Popen] = {}  # those watched: if one exits, everything stops
    redis_process = None
    redis_socket = None
    exit_code = 0
    try:
        if not os.environ.get("REDIS_URL"):
            redis_socket = Path(socket_path(settings.REDIS_URL))
            if embedded_redis.reachable(settings.REDIS_URL):
                print(f"Using the Redis already answering on {redis_socket}")
            else:
                redis_process = processes["redis"] = embedded_redis.start(redis_socket, var / "redis.log")
                _write_state(state_path, processes)
                print(f"Embedded Redis on {redis_socket}")
        elif not embedded_redis.reachable(settings.REDIS_URL):
            print(f"REDIS_URL={settings.REDIS_URL} does not answer", file=sys.stderr)
            return 1

        # Named by what they are, in the order they stop: the web server first (no new work), then the
        # scheduler, then the worker (it finishes its task).
        commands = {
            "web server (uvicorn)": web_command(HOST, PORT),
            "beat scheduler": beat_command("--loglevel=INFO", f"--schedule={settings.CELERY_BEAT_SCHEDULE_FILENAME}"),
            "celery worker": worker_command("--loglevel=INFO", "--queues=celery", "--hostname=turns@%h"),
            "computer players' worker": worker_command("--loglevel=INFO", "--queues=computers",
                                                       "--hostname=computers@%h"),
        }
        for name, command in commands.items():
            if not stopping:
                children[name] = processes[name] = _spawn(command)
                _write_state(state_path, processes)

        web = children.get("web server (uvicorn)")
        deadline = time.monotonic() + 60
        while (not stopping and web.poll() is None and time.monotonic() < deadline
               and not _listening(HOST, int(PORT))):
            time.sleep(0.1)
        if not stopping and web.poll() is None:
            print(f"\nRoboRacer is running at http://{HOST}:{PORT}/  (Ctrl-C stops everything)\n", flush=True)
        while not stopping:
            for name, child in children.items():
                if child.poll() is not None:
                    print(f"The {name} (pid {child.pid}) {_describe_exit(child.returncode)}; stopping "
                          "everything (make run restarts nothing by itself: run it again)", file=sys.stderr,
                          flush=True)
                    stopping, exit_code = True, 1
                    break
            else:
                time.sleep(0.2)
    finally:
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children.values():
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        for child in children.values():
            try:  # what is left of its session: the children of one that was killed (a group outlives its leader)
                os.killpg(child.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if redis_process is not None:
            embedded_redis.stop(redis_process, redis_socket)
        state_path.unlink(missing_ok=True)
        print("RoboRacer stopped.", flush=True)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
