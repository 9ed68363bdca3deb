"""The live stack as subprocesses on loopback: ASGI web server(s) and a Celery worker, started with the
command lines `roboracer.run` defines. Used by the test suite's `live_stack` fixture and by the site
benchmark (tests/bench/site.py); it imports no Django, so a caller chooses the services through `env`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.request import urlopen

from tests.helpers import wait_until

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveStack:
    """Running processes by name ("worker", "web", then "web2", ... for extra web servers) and their logs."""

    # The worker that serves each queue, by the name of its process ("worker": the default queue, "celery").
    QUEUE_WORKERS = {"celery": "worker", "computers": "computers"}

    def __init__(self, base_urls: list[str], processes: dict[str, subprocess.Popen], logs: dict[str, Path]):
        self.base_urls = base_urls
        self.processes = processes
        self.logs = logs
        self.commands: dict[str, list[str]] = {}
        self.env: dict[str, str] = {}
        self.root = ROOT

    @property
    def base_url(self) -> str:
        return self.base_urls[0]

    @property
    def ws_url(self) -> str:
        return self.base_url.replace("http://", "ws://")

    def check_alive(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise AssertionError(f"{name} exited ({process.returncode}):\n{self.logs[name].read_text()[-3000:]}")

    def spawn(self, name: str) -> None:
        """Start (or start again) one process; its log is appended to."""
        handle = open(self.logs[name], "a")  # noqa: SIM115 - the child writes to it while it runs
        # A session of its own: signals reach the whole process tree (a worker started with --beat has
        # beat as a child process, which must not outlive it).
        self.processes[name] = subprocess.Popen(self.commands[name], cwd=self.root, env=self.env, stdout=handle,
                                                stderr=subprocess.STDOUT, start_new_session=True)

    def worker_readies(self) -> int:
        return self.logs["worker"].read_text().count("ready.")

    def kill(self, name: str) -> None:
        """SIGKILL to the process and its children: no chance to finish or acknowledge anything."""
        _signal_tree(self.processes[name], signal.SIGKILL)
        self.processes[name].wait()

    def restart_worker(self) -> None:
        """A new worker in place of the old one (killed or stopped); returns once it is ready."""
        readies = self.worker_readies()
        self.spawn("worker")
        wait_until(lambda: self.check_alive() or self.worker_readies() > readies, "the new celery worker is ready",
                   output=self.logs, interval=0.2)

    def send_task(self, name: str, *args, queue: str = "celery") -> None:
        """Send a task by name to this stack's broker (its REDIS_URL, which may not be the test settings')."""
        from roboracer.celery import app
        from roboracer.redis_url import kombu_url

        with app.connection_for_write(kombu_url(self.env["REDIS_URL"])) as connection:
            app.send_task(name, args=list(args), queue=queue, connection=connection)

    def caught_up(self, queue: str = "celery", timeout: float = 60.0) -> None:
        """Return once the worker of `queue` has run every task that was on that queue when this was called.

        A marker task is sent behind them and this waits for its log line: the worker takes one task at a time,
        in the order they were sent (one worker of one process, CELERY_WORKER_PREFETCH_MULTIPLIER 1, late acks),
        so the marker runs after every task before it has finished (none is sent with a countdown). A test that looks for a second (wrong) execution
        waits here instead of for a while: a duplicate that was queued has run by then. The marker is
        `send_turn_emails` for no seats: it sends nothing, touches no row, and logs one line."""
        worker = self.QUEUE_WORKERS[queue]
        assert f"{worker}2" not in self.processes and "--pool=solo" in self.commands[worker], \
            "a marker shows that the queue's tasks have run only with one worker of one process"
        token = -time.monotonic_ns()  # a turn number no game has: the log line names this call alone
        self.send_task("games.tasks.send_turn_emails", 0, token, [], queue=queue)
        line = f"game 0 turn {token}: 0 turn e-mail(s)"
        wait_until(lambda: self.check_alive() or line in self.logs[worker].read_text(),
                   f"the {worker} ran the marker task sent to the {queue} queue", timeout=timeout,
                   output={worker: self.logs[worker]})

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM to every process tree (a Celery worker finishes its task, uvicorn closes its sockets), then
        wait; SIGKILL what is left."""
        for process in self.processes.values():
            if process.poll() is None:
                _signal_tree(process, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
            _signal_tree(process, signal.SIGKILL)  # children that outlived their parent
            process.wait()


def _signal_tree(process: subprocess.Popen, signum: int) -> None:
    try:
        os.killpg(process.pid, signum)  # the process leads its own session and group
    except ProcessLookupError:
        pass


def start(
    *,
    env: dict[str, str],
    log_dir: Path,
    worker_options: Sequence[str] = (),
    web_servers: int = 1,
    web_workers: int = 1,
    worker_concurrency: int = 1,
    web_log_level: str = "warning",
    name: str = "live",
    root: Path = ROOT,
    turn_workers: int = 1,
) -> LiveStack:
    """Start a Celery worker (its log level is INFO: readiness is read from its log) and `web_servers`
    uvicorn servers (of `web_workers` processes each) on free loopback ports; return once all of them
    answer. Stop it with `.stop()`. `root` is the source tree the processes run (another commit's, for a
    benchmark that compares two), with the command lines that tree's roboracer/run.py defines."""
    if root == ROOT:
        from roboracer.run import web_command, worker_command
    else:
        import importlib.util

        spec = importlib.util.spec_from_file_location("_roboracer_run_of_other_tree", root / "roboracer" / "run.py")
        other = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(other)
        web_command, worker_command = other.web_command, other.worker_command

    log_dir.mkdir(parents=True, exist_ok=True)
    ports = [free_port() for _ in range(web_servers)]
    env = {**os.environ, **env, "PYTHONUNBUFFERED": "1"}
    if root != ROOT:  # its packages first, before this checkout's (installed in the virtualenv as editable)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    quiet = ("--without-gossip", "--without-mingle", "--without-heartbeat")
    commands = {
        # `turn_workers` Celery workers for the turn queue ("worker", then "worker2", ...), each with its own
        # pool of `worker_concurrency` processes: more than one is scaling out (make bench-site --web 2).
        **{("worker" if index == 0 else f"worker{index + 1}"): worker_command(
            "--loglevel=INFO", *quiet, f"--hostname={name}-{ports[0]}-{index + 1}@%h", *worker_options,
            concurrency=worker_concurrency) for index in range(turn_workers)},
        # The computer players' own queue and worker, as `make run` has them (docs/computer-players.md).
        "computers": worker_command("--loglevel=INFO", *quiet, "--queues=computers",
                                    f"--hostname={name}-computers-{ports[0]}@%h"),
    }
    for index, port in enumerate(ports):
        commands["web" if index == 0 else f"web{index + 1}"] = web_command("127.0.0.1", port, log_level=web_log_level,
                                                                                 workers=web_workers)
    logs = {process_name: log_dir / f"{process_name}.log" for process_name in commands}
    stack = LiveStack([f"http://127.0.0.1:{port}" for port in ports], {}, logs)
    stack.commands, stack.env, stack.root = commands, env, root
    try:
        for process_name in commands:
            logs[process_name].write_text("")
            stack.spawn(process_name)
        for worker in (process_name for process_name in commands if process_name.startswith("worker")):
            wait_until(lambda worker=worker: stack.check_alive() or "ready." in logs[worker].read_text(),
                       f"celery {worker} is ready", output=logs, interval=0.2)
        wait_until(lambda: stack.check_alive() or "ready." in logs["computers"].read_text(),
                   "the computers worker is ready", output=logs, interval=0.2)

        def web_up() -> bool:
            stack.check_alive()
            try:
                return all(urlopen(f"{url}/api/auth/csrf/", timeout=1).status == 200 for url in stack.base_urls)
            except OSError:
                return False

        wait_until(web_up, "uvicorn answers", output=logs, interval=0.2)
    except BaseException:
        stack.stop()
        raise
    return stack
