"""`make cluster`: the site as a cluster of hosts on one Linux machine (docs/cluster.md).

Every role is a host of its own: a network namespace with its own address on a bridge, its own var/ directory
(var/cluster/<role>/), its own processes. Hosts share nothing but the network: no unix socket, no file; the
secret key and every setting come from the environment this runner gives them. Needs root (namespaces, the
bridge), HAProxy, redis-server and PostgreSQL's server binaries (/usr/lib/postgresql/*/bin); `.ci/run` installs
what is missing.

    db         PostgreSQL, a fresh data directory (initdb) under var/cluster/db/, run as the `postgres` user
    redis      redis-server, nothing kept on disk
    lb         HAProxy: HTTP and WebSockets to web1 and web2, health checks on both
    web1 web2  uvicorn (ASGI), static files by WhiteNoise (CLUSTER_PAIRS=1..3 web+worker pairs; 2 by default)
    worker1 worker2  Celery workers of the turn queue (CLUSTER_CPU_QUOTA=0.2: each web and worker host a cgroup
               of a fifth of a core, as the scaling benchmark tests/bench/cluster_scaling.py runs it)
    computers  the computer players' queue worker
    beat       the scheduler

The runner migrates, loads the bundled courses, prints the address to open (the load balancer's, reachable
from this machine's own namespace through the bridge) and supervises: a host whose process exits is started
again after RESTART_DELAY seconds, unless var/cluster/control/hold-<role> exists (a fault scenario keeps a host
down that way: tests/cluster/faults.py). Ctrl-C (or SIGTERM) stops every process, removes the namespaces and
the bridge. A second start after the runner was killed (even by SIGKILL) first stops what the first left:
every process in a namespace of ours, the namespaces, the bridge.

    python -m roboracer.cluster            start, run until Ctrl-C
    python -m roboracer.cluster --down     stop what a killed runner left
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import psycopg
import redis

from roboracer import parent_death
from roboracer.cluster_hosts import (  # noqa: F401 (the hosts' names, as tests/cluster reads them here)
    BRIDGE,
    GATEWAY,
    HOSTS,
    LB_PORT,
    NETNS_PREFIX,
    RESTART_DELAY,
    ROOT,
    STATE_FILE,
    STOP_ORDER,
    SUBNET,
    VAR,
    WEB_HOSTS,
    WEB_PORT,
    WORKER_HOSTS,
    _process,
    _run,
    address,
    app_env,
    database_url,
    haproxy_config,
    kill_host,
    make_cgroup,
    missing_prerequisites,
    netns,
    our_namespaces,
    pg_bin,
    pids_in,
    redis_url,
    setup_network,
    teardown,
    url,
)
from roboracer.run import beat_command, web_command, worker_command

RELAY_DB_PORT, RELAY_REDIS_PORT = 15432, 16379


def latency_file(role: str) -> Path:
    """The delay in ms (one line) a web host's relay adds on its way to PostgreSQL and Redis."""
    return VAR / "control" / f"latency-{role}"


class Cluster:
    def __init__(self, secret_key: str):
        self.secret_key = secret_key
        self.processes: dict[str, subprocess.Popen] = {}
        self.died_at: dict[str, float] = {}
        self.restarts: dict[str, int] = {role: 0 for role in HOSTS}
        (VAR / "control").mkdir(parents=True, exist_ok=True)

    def command(self, role: str) -> tuple[list[str], dict[str, str] | None]:
        quiet = ("--without-gossip", "--without-mingle")
        if role == "db":
            data = VAR / "db" / "data"
            return (["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", pg_bin("postgres"),
                     "-D", str(data), "-c", f"listen_addresses={address('db')}", "-c", "unix_socket_directories=",
                     "-c", "max_connections=200", "-c", "shared_buffers=64MB"], None)
        if role == "redis":
            return (["redis-server", "--bind", address("redis"), "--port", "6379", "--protected-mode", "no",
                     "--save", "", "--appendonly", "no", "--dir", str(VAR / "redis")], None)
        if role == "lb":
            return ["haproxy", "-db", "-f", str(VAR / "lb" / "haproxy.cfg")], None
        env = app_env(role, self.secret_key)
        if role in WEB_HOSTS:
            # PostgreSQL and Redis through the host's own relay (roboracer/cluster_relay.py), whose delay the
            # control file var/cluster/control/latency-<role> sets (the latency scenario; 0 otherwise)
            env = {**env, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{RELAY_DB_PORT}/roboracer",
                   "REDIS_URL": f"redis://127.0.0.1:{RELAY_REDIS_PORT}/0"}
            return [sys.executable, "-m", "roboracer.cluster_relay", "--control", str(latency_file(role)),
                    f"127.0.0.1:{RELAY_DB_PORT}={address('db')}:5432",
                    f"127.0.0.1:{RELAY_REDIS_PORT}={address('redis')}:6379",
                    "--", *web_command("0.0.0.0", WEB_PORT)], env
        if role.startswith("worker"):
            return worker_command("--loglevel=INFO", *quiet, "--queues=celery", f"--hostname=turns@{role}",
                                  concurrency=1), env
        if role == "computers":
            return worker_command("--loglevel=INFO", *quiet, "--queues=computers", "--hostname=computers@computers",
                                  concurrency=1), env
        if role == "beat":
            return beat_command("--loglevel=INFO", f"--schedule={VAR / 'beat' / 'celerybeat-schedule'}"), env
        raise KeyError(role)

    def start(self, role: str) -> subprocess.Popen:
        command, env = self.command(role)
        log = open(VAR / role / "log", "ab")  # noqa: SIM115 - the child writes to it
        process = subprocess.Popen(["ip", "netns", "exec", netns(role), *command], cwd=ROOT, env=env,
                                   stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True, preexec_fn=_preexec(make_cgroup(role)))
        log.close()
        self.processes[role] = process
        self.died_at.pop(role, None)
        self.write_state()
        return process

    def write_state(self) -> None:
        state = {
            "runner": {"pid": os.getpid(), "started": psutil.Process().create_time()},
            "url": url(), "database_url": database_url(), "redis_url": redis_url(), "secret_key": self.secret_key,
            "hosts": {role: {"address": address(role), "netns": netns(role),
                             "pid": self.processes[role].pid if role in self.processes else None,
                             "restarts": self.restarts[role]} for role in HOSTS},
        }
        # Written beside and renamed over, so that a reader (the fault scenarios poll it for restarts) never
        # sees it half written: a reader that did failed kill-web with "no running cluster".
        path = VAR / STATE_FILE
        partial = path.with_suffix(".tmp")
        with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as out:
            out.write(json.dumps(state, indent=1))  # 0o600 from the start: it holds the secret key
        os.replace(partial, path)

    def held(self, role: str) -> bool:
        return (VAR / "control" / f"hold-{role}").exists()

    def supervise_once(self) -> None:
        """Start again a host whose process exited, RESTART_DELAY s after it did (unless held down)."""
        now = time.monotonic()
        for role, process in list(self.processes.items()):
            if process.poll() is None:
                continue
            if role not in self.died_at:
                self.died_at[role] = now
                print(f"cluster: {role} exited ({_describe(process.returncode)}); "
                      f"{'held down' if self.held(role) else f'starting it again in {RESTART_DELAY:g} s'}",
                      flush=True)
                kill_host(role)  # what is left of the host (a killed postmaster's backends)
            elif not self.held(role) and now - self.died_at[role] >= RESTART_DELAY:
                self.restarts[role] += 1
                self.start(role)
                print(f"cluster: {role} started again (pid {self.processes[role].pid})", flush=True)

    def stop(self) -> None:
        for role in STOP_ORDER:
            process = self.processes.get(role)
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGINT if role == "db" else signal.SIGTERM)  # PostgreSQL: fast shutdown
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            kill_host(role)


def _preexec(cgroup: Path | None):
    """In the child before exec: die with the runner, and join the host's cpu cgroup (its quota) if it has one,
    so the host's every process (and what it forks) counts against it."""
    die_with_parent = parent_death.preexec()

    def run() -> None:
        die_with_parent()
        if cgroup is not None:
            with open(cgroup / "cgroup.procs", "w") as procs:
                procs.write(str(os.getpid()))

    return run


def _describe(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit code {returncode}"


def _wait(what: str, check, timeout: float, process: subprocess.Popen | None = None, log: Path | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:] if log else ""
            raise RuntimeError(f"{what}: the process exited ({_describe(process.returncode)})\n{tail}")
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what}: not within {timeout:g} s" + (f"\n{log.read_text(errors='replace')[-2000:]}"
                                                              if log else ""))


def web_answers(role: str) -> bool:
    try:
        request = urllib.request.Request(f"http://{address(role)}:{WEB_PORT}/api/health/",
                                         headers={"Host": address("lb")})
        return urllib.request.urlopen(request, timeout=2).status == 200
    except OSError:
        return False


def stop_leftovers() -> str | None:
    """If a runner is running, why this one must not start; otherwise remove what a killed one left."""
    try:
        state = json.loads((VAR / STATE_FILE).read_text())
        runner = state["runner"]
        alive = _process(runner["pid"])
        if alive is not None and runner["pid"] != os.getpid() and abs(alive.create_time() - runner["started"]) < 0.05:
            return f"the cluster is already running (runner pid {runner['pid']}); stop it first (Ctrl-C there)"
    except (OSError, ValueError, KeyError, TypeError):
        pass
    teardown()
    return None


def prepare_database(log) -> None:
    """A fresh data directory (initdb), owned by the `postgres` user, trusting the cluster's subnet."""
    data = VAR / "db" / "data"
    shutil.chown(VAR / "db", "postgres", "postgres")
    result = subprocess.run(["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", pg_bin("initdb"),
                             "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync",
                             "--locale=C.UTF-8"], cwd="/", capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(f"initdb failed:\n{result.stdout}{result.stderr}")
    with open(data / "pg_hba.conf", "w") as handle:
        handle.write("# roboracer/cluster.py: the cluster's own subnet only, no local socket\n"
                     f"host all all {SUBNET}.0/24 trust\n")


def main() -> int:
    parser = argparse.ArgumentParser(description="RoboRacer as a cluster of network namespaces (docs/cluster.md)")
    parser.add_argument("--down", action="store_true", help="only stop what a killed runner left, then exit")
    args = parser.parse_args()
    missing = missing_prerequisites()
    if missing:
        print("cluster: missing " + ", ".join(missing) + " (.ci/run installs them with apt-get)", file=sys.stderr)
        return 2
    refusal = stop_leftovers()
    if refusal:
        print(f"cluster: {refusal}", file=sys.stderr)
        return 1
    if args.down:
        (VAR / STATE_FILE).unlink(missing_ok=True)
        print("cluster: nothing left running")
        return 0

    stopping = False

    def request_stop(signum, frame):
        nonlocal stopping
        stopping = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    began = time.monotonic()
    cluster = None
    code = 0
    try:
        shutil.rmtree(VAR, ignore_errors=True)  # each start is a fresh cluster
        for role in HOSTS:
            (VAR / role).mkdir(parents=True, exist_ok=True)
        cluster = Cluster(os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50))
        cluster.write_state()
        setup_network()
        print(f"cluster: bridge {BRIDGE} {GATEWAY}/24, hosts " +
              ", ".join(f"{role} {address(role)}" for role in HOSTS), flush=True)
        prepare_database(None)
        (VAR / "lb" / "haproxy.cfg").write_text(haproxy_config())

        db = cluster.start("db")
        _wait("PostgreSQL answers", lambda: psycopg.connect(database_url().replace("/roboracer", "/postgres"),
                                                             connect_timeout=2).close() or True, 60, db,
              VAR / "db" / "log")
        with psycopg.connect(database_url().replace("/roboracer", "/postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE roboracer")
        redis_process = cluster.start("redis")
        _wait("Redis answers", lambda: redis.Redis.from_url(redis_url(), socket_connect_timeout=1).ping(), 30,
              redis_process, VAR / "redis" / "log")
        # Migrations and the bundled courses, from web1's host (as a deploy step would run them)
        for step in (["migrate", "--noinput"], ["load_courses"]):
            result = subprocess.run(["ip", "netns", "exec", netns("web1"), sys.executable, "manage.py", *step],
                                    cwd=ROOT, env=app_env("web1", cluster.secret_key), capture_output=True, text=True)
            if result.returncode:
                raise RuntimeError(f"manage.py {' '.join(step)} failed:\n{result.stdout}{result.stderr}")
        print("cluster: database migrated, courses loaded", flush=True)
        for role in (*WORKER_HOSTS, "computers", "beat", *WEB_HOSTS):
            cluster.start(role)
        for role in WEB_HOSTS:
            _wait(f"{role} answers", lambda role=role: web_answers(role), 90, cluster.processes[role],
                  VAR / role / "log")
        for role in (*WORKER_HOSTS, "computers"):
            _wait(f"{role} is ready", lambda role=role: "ready." in (VAR / role / "log").read_text(errors="replace"),
                  90, cluster.processes[role], VAR / role / "log")
        lb = cluster.start("lb")
        _wait("the load balancer answers", lambda: urllib.request.urlopen(f"{url()}api/auth/csrf/", timeout=2)
              .status == 200, 30, lb, VAR / "lb" / "log")
        print(f"\nRoboRacer cluster is running at {url()}  (HAProxy stats at http://{address('lb')}:8404/; "
              f"started in {time.monotonic() - began:.0f} s; Ctrl-C stops everything)\n", flush=True)
        while not stopping:
            cluster.supervise_once()
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    except RuntimeError as error:
        print(f"cluster: {error}", file=sys.stderr, flush=True)
        code = 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if cluster is not None:
            cluster.stop()
        teardown(quiet=True)
        (VAR / STATE_FILE).unlink(missing_ok=True)
        print("RoboRacer cluster stopped: processes, namespaces and bridge removed.", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
