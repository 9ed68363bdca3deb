"""`make run` as real processes: `python -m roboracer.run` on a free port, with a var/ of its own (so its embedded
Redis, pid file and schedule are private), on the test database. Killed workers and runners leave no
scheduler behind, a new run never ends up with two, and `enforce-deadlines` goes out about once a second —
counted on the wire, with Redis's MONITOR, as the scheduler pushes each task onto the broker queue."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import pytest
import redis

from tests.conftest import ROOT, _database_url
from tests.helpers import wait_until
from tests.live import free_port

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal: Linux only")

# The scheduler sends `enforce-deadlines` every CHECK_EVERY seconds here (production: every second), so one
# scheduler sends about 5 in a WINDOW and two would send about 10: the same counts as the production interval
# over 5 s, in half the time.
CHECK_EVERY = 0.5
WINDOW = 2.5  # seconds over which `enforce-deadlines` is counted
LOCK_SECONDS = 4.0  # the scheduler lock's expiry in these runs (production: roboracer.beat.LOCK_TIMEOUT, 10 s)


def _our_processes(var_dir: Path) -> list[psutil.Process]:
    """Every process started for this test's var/ (the runner, Redis, worker, beat, uvicorn, their children),
    found by the ROBORACER_VAR_DIR they inherited, whoever their parent is now; or, for redis-server (which
    writes its title over its environment), by its socket under var/."""
    found = []
    for process in psutil.process_iter():
        try:
            if process.pid == os.getpid():
                continue
            if (process.environ().get("ROBORACER_VAR_DIR") == str(var_dir)
                    or any(f"{var_dir}/" in arg for arg in process.cmdline())):
                found.append(process)
        except psutil.Error:
            continue
    return found


def _is_scheduler(process: psutil.Process) -> bool:
    """A Celery beat: `celery ... beat`, or a worker with an embedded one (`--beat`, `-B`) and its child."""
    try:
        args = process.cmdline()
    except psutil.Error:
        return False
    return "celery" in args and ("beat" in args or "--beat" in args or "-B" in args)


def _schedulers(var_dir: Path) -> list[psutil.Process]:
    return [process for process in _our_processes(var_dir) if _is_scheduler(process)]


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _kill_all(var_dir: Path) -> None:
    for _ in range(3):
        processes = _our_processes(var_dir)
        if not processes:
            return
        for process in processes:
            try:
                process.kill()
            except psutil.Error:
                pass
        psutil.wait_procs(processes, timeout=5)


class Run:
    """One `python -m roboracer.run`, its output in a file."""

    def __init__(self, var_dir: Path, env: dict[str, str], name: str, port: int | None = None):
        self.var_dir = var_dir
        self.port = port or free_port()
        self.output = var_dir / f"{name}.out"
        with open(self.output, "w") as handle:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "roboracer.run"], cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT,
                env={**env, "PORT": str(self.port)}, start_new_session=True)

    def text(self) -> str:
        return self.output.read_text()

    def wait_running(self) -> None:
        wait_until(lambda: "RoboRacer is running" in self.text() or self.process.poll() is not None,
                   "make run prints its address", output=self.output)
        assert self.process.poll() is None, self.text()

    def children(self) -> dict[str, int]:
        state = json.loads((self.var_dir / "run.json").read_text())
        return {name: entry["pid"] for name, entry in state["children"].items()}

    def wait_exit(self, timeout: float = 60.0) -> int:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired as error:
            raise AssertionError(f"make run did not stop:\n{self.text()[-4000:]}") from error


class SendCounter:
    """Redis MONITOR on the run's embedded Redis: when each `enforce-deadlines` task was pushed to the queue."""

    def __init__(self, socket: Path):
        self.times: list[float] = []
        self.client = redis.Redis(unix_socket_path=str(socket))
        self.monitor = self.client.monitor().__enter__()
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        try:
            for command in self.monitor.listen():
                text = command.get("command", "")
                if text.startswith("LPUSH") and "games.tasks.enforce_deadlines" in text:
                    self.times.append(time.monotonic())
        except (redis.RedisError, OSError, ValueError, AttributeError):
            pass  # the connection was closed: the run is over

    def checks_in_window(self, output: Path) -> int:
        """Wait for the first send, then count the sends in the next WINDOW seconds."""
        first = wait_until(lambda: self.times and self.times[0], "a first enforce-deadlines", output=output)
        start = max(first, time.monotonic())
        time.sleep(WINDOW)  # the sampling window itself: the test counts what is sent in it
        return sum(1 for sent in self.times if start <= sent < start + WINDOW)

    def close(self) -> None:
        try:
            self.monitor.connection.disconnect()
        except Exception:  # noqa: BLE001 - best effort when the Redis is already gone
            pass
        self.client.close()


@pytest.fixture
def var_dir(transactional_db):
    """A var/ for the runs of one test (short: its Redis socket lives there), on the test database; every
    process started for it is killed afterwards, whatever happened."""
    path = Path(tempfile.mkdtemp(prefix="rr-proc-", dir="/tmp"))
    try:
        yield path
    finally:
        _kill_all(path)
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def run_env(var_dir):
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}  # its own embedded Redis
    env.update(ROBORACER_VAR_DIR=str(var_dir), DATABASE_URL=_database_url(), HOST="127.0.0.1",
               PYTHONUNBUFFERED="1", ROBORACER_DEADLINE_CHECK_SECONDS=str(CHECK_EVERY),
               ROBORACER_BEAT_LOCK_SECONDS=str(LOCK_SECONDS))
    return env


def _assert_one_scheduler_at_one_check_a_second(run: Run) -> None:
    """One scheduler, sending `enforce-deadlines` once per CHECK_EVERY (a second in production)."""
    counter = SendCounter(run.var_dir / "redis.sock")
    try:
        checks = counter.checks_in_window(run.output)
    finally:
        counter.close()
    schedulers = _schedulers(run.var_dir)
    assert [process.pid for process in schedulers] == [run.children()["beat scheduler"]], run.text()[-3000:]
    assert 3 <= checks <= 7, f"{checks} enforce-deadlines in {WINDOW} s\n{run.text()[-3000:]}"


def test_a_killed_worker_stops_the_run_and_leaves_no_scheduler(var_dir, run_env):
    first = Run(var_dir, run_env, "first")
    first.wait_running()
    _assert_one_scheduler_at_one_check_a_second(first)

    os.kill(first.children()["celery worker"], signal.SIGKILL)
    assert first.wait_exit() == 1
    assert "The celery worker" in first.text() and "was killed by SIGKILL; stopping everything" in first.text()
    assert "RoboRacer stopped." in first.text()
    assert _our_processes(var_dir) == [], "a process of the stopped run is still alive"

    second = Run(var_dir, run_env, "second")
    second.wait_running()
    assert f"RoboRacer is running at http://127.0.0.1:{second.port}/" in second.text()
    _assert_one_scheduler_at_one_check_a_second(second)

    second.process.send_signal(signal.SIGINT)  # Ctrl-C
    assert second.wait_exit() == 0
    assert second.text().rstrip().endswith("RoboRacer stopped.")
    assert _our_processes(var_dir) == []
    assert not (var_dir / "run.json").exists()


def test_a_killed_runner_takes_its_children_along_and_a_new_run_clears_the_rest(var_dir, run_env):
    first = Run(var_dir, run_env, "first")
    first.wait_running()
    children = first.children()

    first.process.kill()  # SIGKILL: no chance to stop anything
    first.process.wait()
    # The kernel tells worker, beat and web server (parent-death signal); they stop on their own. The
    # embedded Redis is left for the next run to stop: the others may still need it while they shut down.
    gone = {name: pid for name, pid in children.items() if name != "redis"}
    wait_until(lambda: not any(_alive(pid) for pid in gone.values()), "the children of the killed runner stop",
               timeout=30)
    assert _schedulers(var_dir) == []
    assert _alive(children["redis"])

    second = Run(var_dir, run_env, "second")
    second.wait_running()
    assert f"Stopping redis left over from an earlier run: pid {children['redis']}" in second.text()
    assert not _alive(children["redis"])
    _assert_one_scheduler_at_one_check_a_second(second)
    second.process.send_signal(signal.SIGINT)
    assert second.wait_exit() == 0


def test_a_new_run_stops_every_child_a_killed_runner_left(var_dir, run_env):
    """The runner SIGKILLed and started again at once, while its children are still shutting down (or, where
    there is no parent-death signal, still running): the new run stops them first, from the pid file."""
    first = Run(var_dir, run_env, "first")
    first.wait_running()
    old = first.children()
    first.process.kill()
    first.process.wait()

    second = Run(var_dir, run_env, "second")
    second.wait_running()
    assert not any(_alive(pid) for pid in old.values())
    _assert_one_scheduler_at_one_check_a_second(second)
    second.process.send_signal(signal.SIGINT)
    assert second.wait_exit() == 0


def test_a_second_run_on_the_same_var_refuses_to_start(var_dir, run_env):
    first = Run(var_dir, run_env, "first")
    first.wait_running()
    second = Run(var_dir, run_env, "second")
    assert second.wait_exit() == 1
    assert f"RoboRacer is already running (runner pid {first.process.pid})" in second.text()
    _assert_one_scheduler_at_one_check_a_second(first)
    first.process.send_signal(signal.SIGINT)
    assert first.wait_exit() == 0


def test_a_stray_scheduler_on_the_same_redis_sends_nothing(var_dir, run_env):
    run = Run(var_dir, run_env, "run")
    run.wait_running()
    stray_log = var_dir / "stray.out"
    with open(stray_log, "w") as handle:
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "roboracer", "beat", "--loglevel=INFO",
             f"--schedule={var_dir / 'stray-schedule'}"],
            cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True,
            env={**run_env, "REDIS_URL": f"unix://{var_dir / 'redis.sock'}"})
    wait_until(lambda: "is starting." in stray_log.read_text(), "the stray scheduler starts", output=stray_log)
    # Its first tick: it tries the lock, finds it held, and says so.
    wait_until(lambda: "standing by, sending nothing" in stray_log.read_text(), "the stray scheduler stands by",
               output=stray_log)

    counter = SendCounter(var_dir / "redis.sock")
    try:
        checks = counter.checks_in_window(run.output)
    finally:
        counter.close()
    assert len(_schedulers(var_dir)) == 2
    assert 3 <= checks <= 7, f"{checks} enforce-deadlines in {WINDOW} s with two beat processes"
    # It says why it sends nothing, and who does.
    standby = [line for line in stray_log.read_text().splitlines() if "standing by, sending nothing" in line]
    assert standby and f":{run.children()['beat scheduler']}:" in standby[0], stray_log.read_text()[-2000:]
    run.process.send_signal(signal.SIGINT)
    assert run.wait_exit() == 0


def test_an_embedded_beat_dies_with_its_worker(var_dir, run_env):
    """`celery worker --beat` (what the test stacks run): the beat is a child of the worker; SIGKILL the
    worker alone and the beat must not go on scheduling as an orphan."""
    from roboracer import embedded_redis
    from roboracer.run import worker_command

    socket = var_dir / "redis.sock"
    redis_process = embedded_redis.start(socket)
    try:
        log = var_dir / "worker.out"
        with open(log, "w") as handle:
            worker = subprocess.Popen(
                worker_command("--beat", "--loglevel=INFO", f"--schedule={var_dir / 'schedule'}"),
                cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True,
                env={**run_env, "REDIS_URL": f"unix://{socket}"})
        wait_until(lambda: "ready." in log.read_text(), "the worker", output=log)
        beat = wait_until(lambda: psutil.Process(worker.pid).children(), "the embedded beat", output=log)
        assert len(beat) == 1

        worker.kill()  # the worker alone, not its process group
        worker.wait()
        wait_until(lambda: not _alive(beat[0].pid), "the orphaned beat stops", timeout=15, output=log)
    finally:
        embedded_redis.stop(redis_process, socket)


def test_ctrl_c_while_starting_stops_what_was_started(var_dir, run_env):
    run = Run(var_dir, run_env, "run")
    wait_until(lambda: "Embedded Redis on" in run.text(), "the embedded Redis", output=run.output)
    run.process.send_signal(signal.SIGINT)
    assert run.wait_exit() == 0
    assert run.text().rstrip().endswith("RoboRacer stopped."), run.text()[-3000:]
    assert "Traceback" not in run.text()
    assert _our_processes(var_dir) == []


def test_a_killed_prefork_worker_leaves_no_pool_process(var_dir, run_env):
    run = Run(var_dir, {**run_env, "WORKER_CONCURRENCY": "2"}, "run")
    run.wait_running()
    worker = psutil.Process(run.children()["celery worker"])
    pool = wait_until(lambda: len(worker.children()) == 2 and worker.children(), "the worker's pool",
                      output=run.output)
    worker.kill()
    assert run.wait_exit() == 1
    assert not any(_alive(process.pid) for process in pool)
    assert _our_processes(var_dir) == []


def test_the_pid_file_never_names_a_process_that_only_reused_a_pid(tmp_path):
    """var/run.json names processes by pid and start time: a live process with a recorded pid but another
    start time is not ours and is left alone; a corrupt file is ignored."""
    from roboracer.run import stop_leftovers

    stranger = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        started = psutil.Process(stranger.pid).create_time()
        state = tmp_path / "run.json"
        state.write_text(json.dumps({"runner": {"pid": stranger.pid, "started": started - 100},
                                     "children": {"beat scheduler": {"pid": stranger.pid, "started": started - 100}}}))
        assert stop_leftovers(state) is None
        assert stranger.poll() is None, "a process that only reused a recorded pid was stopped"

        state.write_text(json.dumps({"runner": {"pid": stranger.pid, "started": started}, "children": {}}))
        assert "already running (runner pid" in stop_leftovers(state)
        assert stranger.poll() is None

        state.write_text(json.dumps({"runner": {"pid": 1, "started": None},
                                     "children": {"celery worker": {"pid": stranger.pid, "started": started}}}))
        assert stop_leftovers(state) is None
        assert stranger.poll() is not None  # recorded pid and start time: ours, stopped (psutil reaped it)

        for garbage in ("not json", "[]", '{"children": {"web": {"pid": "x"}}}'):
            state.write_text(garbage)
            assert stop_leftovers(state) is None
    finally:
        stranger.kill()
        stranger.wait()


def test_a_standing_by_scheduler_takes_over_when_the_holder_stops_or_dies(var_dir, run_env):
    """Two `celery beat` on one Redis: the second stands by; it takes over at once when the first stops
    (the lock is released on the way out), and within the lock's expiry when the holder is SIGKILLed."""
    from roboracer import embedded_redis
    LOCK_TIMEOUT = LOCK_SECONDS  # noqa: N806 - the lock's expiry in these beats (run_env sets it)

    socket = var_dir / "redis.sock"
    redis_process = embedded_redis.start(socket)
    env = {**run_env, "REDIS_URL": f"unix://{socket}"}

    def beat(name: str) -> tuple[subprocess.Popen, Path]:
        log = var_dir / f"{name}.out"
        with open(log, "w") as handle:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "roboracer", "beat", "--loglevel=INFO",
                 f"--schedule={var_dir / name}-schedule"],
                cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True, env=env)
        return process, log

    try:
        first, first_log = beat("first")
        wait_until(lambda: "took the scheduler lock" in first_log.read_text(), "first takes the lock",
                   output=first_log)
        second, second_log = beat("second")
        wait_until(lambda: "standing by" in second_log.read_text(), "second stands by", output=second_log)

        first.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        assert first.wait(timeout=30) == 0
        wait_until(lambda: "took the scheduler lock" in second_log.read_text(), "second takes over", timeout=5,
                   output=second_log)
        assert time.monotonic() - stopped < 5

        third, third_log = beat("third")
        wait_until(lambda: "standing by" in third_log.read_text(), "third stands by", output=third_log)
        second.kill()
        second.wait()
        killed = time.monotonic()
        wait_until(lambda: "took the scheduler lock" in third_log.read_text(), "third takes over",
                   timeout=LOCK_TIMEOUT + 10, output=third_log)
        assert time.monotonic() - killed <= LOCK_TIMEOUT + 3
        third.send_signal(signal.SIGTERM)
        assert third.wait(timeout=30) == 0, third_log.read_text()[-3000:]
    finally:
        embedded_redis.stop(redis_process, socket)
