"""`make cluster`: the site as a cluster of hosts on one Linux machine (docs/cluster.md).

Every role is a host of its own: a network namespace with its own address on a bridge, its own var/ directory
(var/cluster/<role>/), its own processes. Hosts share nothing but the network: no unix socket, no file; the
secret key and every setting come from the environment this runner gives them. Needs root (namespaces, the
bridge), HAProxy, redis-server and PostgreSQL's server binaries (/usr/lib/postgresql/*/bin); `.ci/run` installs
what is missing.

    db         PostgreSQL, a fresh data directory (initdb) under var/cluster/db/, run as the `postgres` user
    redis      redis-server, nothing kept on disk
    lb         HAProxy: HTTP and WebSockets to web1 and web2, health checks on both
    web1 web2  uvicorn (ASGI), static files by WhiteNoise
    worker1 worker2  Celery workers of the turn queue
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

from roboracer import parent_death

ROOT = Path(__file__).resolve().parent.parent
VAR = Path(os.environ.get("CLUSTER_VAR_DIR") or ROOT / "var" / "cluster")
STATE_FILE = "cluster.json"
SUBNET = os.environ.get("CLUSTER_SUBNET", "10.39.0")  # a /24 of our own
BRIDGE = "rr39br0"
NETNS_PREFIX = "rr39-"
GATEWAY = f"{SUBNET}.1"  # the bridge's own address, in this machine's namespace
HOSTS = {"db": 10, "redis": 11, "lb": 12, "web1": 21, "web2": 22, "worker1": 31, "worker2": 32, "computers": 33,
         "beat": 34}
WEB_HOSTS = ("web1", "web2")
WEB_PORT = 8000
LB_PORT = 80
RESTART_DELAY = float(os.environ.get("CLUSTER_RESTART_DELAY") or 2.0)
# Stopped in this order: no new requests, no new scheduling, no new work, then the services.
STOP_ORDER = ("lb", "web1", "web2", "beat", "worker1", "worker2", "computers", "redis", "db")


def address(role: str) -> str:
    return f"{SUBNET}.{HOSTS[role]}"


def netns(role: str) -> str:
    return NETNS_PREFIX + role


def url() -> str:
    return f"http://{address('lb')}/"


def database_url() -> str:
    return f"postgres://postgres@{address('db')}:5432/roboracer"


def redis_url() -> str:
    return f"redis://{address('redis')}:6379/0"


def _run(*command: str, check: bool = True, quiet: bool = False) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True)
    if check and result.returncode:
        raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}): {result.stderr.strip()}")
    return result


def pg_bin(name: str) -> str:
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name)
                      if p.parent.name.isdigit() else 0)
    for folder in reversed(versions):
        if (folder / name).exists():
            return str(folder / name)
    raise RuntimeError("PostgreSQL's server binaries are missing (/usr/lib/postgresql/*/bin): "
                       "apt-get install postgresql")


def missing_prerequisites() -> list[str]:
    """What this machine lacks to run the cluster (empty when nothing)."""
    missing = []
    if os.geteuid() != 0:
        missing.append("root (network namespaces and the bridge)")
    for tool in ("ip", "haproxy", "redis-server", "setpriv", "iptables"):  # iptables: the partition scenario
        if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists():
            missing.append(tool)
    try:
        pg_bin("postgres")
        pg_bin("initdb")
    except RuntimeError:
        missing.append("PostgreSQL server binaries (/usr/lib/postgresql/*/bin)")
    return missing


# --- the network ------------------------------------------------------------------------------------------------

def our_namespaces() -> list[str]:
    listed = _run("ip", "netns", "list", check=False).stdout.split("\n")
    return [line.split()[0] for line in listed if line.startswith(NETNS_PREFIX)]


def pids_in(namespace: str) -> list[int]:
    result = _run("ip", "netns", "pids", namespace, check=False)
    return [int(pid) for pid in result.stdout.split()]


def kill_host(role: str, signum: int = signal.SIGKILL) -> list[int]:
    """Signal every process of the host (its namespace): with SIGKILL, the host has crashed."""
    pids = pids_in(netns(role))
    for pid in pids:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass
    return pids


def teardown(quiet: bool = False) -> None:
    """Every process in a namespace of ours killed, the namespaces and the bridge removed (their veth pairs go
    with the namespaces)."""
    for namespace in our_namespaces():
        pids = pids_in(namespace)
        if pids and not quiet:
            print(f"cluster: killing {len(pids)} process(es) left in {namespace}", file=sys.stderr)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        psutil.wait_procs([p for p in map(_process, pids) if p], timeout=5)
        _run("ip", "netns", "del", namespace, check=False)
    if Path(f"/sys/class/net/{BRIDGE}").exists():
        _run("ip", "link", "del", BRIDGE, check=False)


def _process(pid: int) -> psutil.Process | None:
    try:
        return psutil.Process(pid)
    except psutil.Error:
        return None


def setup_network() -> None:
    _run("ip", "link", "add", BRIDGE, "type", "bridge")
    _run("ip", "addr", "add", f"{GATEWAY}/24", "dev", BRIDGE)
    _run("ip", "link", "set", BRIDGE, "up")
    for role in HOSTS:
        namespace, outside = netns(role), f"rr39v{HOSTS[role]}"
        _run("ip", "netns", "add", namespace)
        _run("ip", "link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", namespace)
        _run("ip", "link", "set", outside, "master", BRIDGE)
        _run("ip", "link", "set", outside, "up")
        inside = ("ip", "netns", "exec", namespace, "ip")
        _run(*inside, "addr", "add", f"{address(role)}/24", "dev", "eth0")
        _run(*inside, "link", "set", "lo", "up")
        _run(*inside, "link", "set", "eth0", "up")
        _run(*inside, "route", "add", "default", "via", GATEWAY)


# --- the hosts --------------------------------------------------------------------------------------------------

def app_env(role: str, secret_key: str) -> dict[str, str]:
    """The environment of an application host: settings from the environment (roboracer/settings.py), its own
    var/ directory."""
    lb = address("lb")
    web_addresses = [address(web) for web in WEB_HOSTS]
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "roboracer.settings",
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url(),
        "SECRET_KEY": secret_key,
        "ALLOWED_HOSTS": ",".join([lb, *web_addresses, "localhost", "127.0.0.1"]),
        "CSRF_TRUSTED_ORIGINS": f"http://{lb}",
        "SITE_URL": f"http://{lb}",
        "ROBORACER_VAR_DIR": str(VAR / role),
        "FORWARDED_ALLOW_IPS": lb,  # uvicorn takes the client's address from HAProxy's X-Forwarded-For
        "PYTHONUNBUFFERED": "1",
        "CHANNEL_LAYER_PREFIX": os.environ.get("CHANNEL_LAYER_PREFIX") or "asgi",
    }


def haproxy_config() -> str:
    lb = address("lb")
    servers = "\n".join(
        f"    server {web} {address(web)}:{WEB_PORT} check inter 1s fall 2 rise 2 on-marked-down shutdown-sessions"
        for web in WEB_HOSTS)
    return f"""# Written by roboracer/cluster.py
global
    maxconn 4096

defaults
    mode http
    option httplog
    log stdout format raw local0
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout http-keep-alive 4s
    option redispatch
    retries 3
    retry-on conn-failure  # only what never reached a server: a POST is never sent twice

frontend site
    bind {lb}:{LB_PORT}
    option forwardfor
    default_backend web

backend web
    balance roundrobin
    option httpchk
    http-check send meth GET uri /api/auth/csrf/ ver HTTP/1.1 hdr Host {lb}
    http-check expect status 200
    http-response set-header X-Served-By %s
{servers}

frontend stats
    bind {lb}:8404
    stats enable
    stats uri /
    stats refresh 2s
"""


class Cluster:
    def __init__(self, secret_key: str):
        self.secret_key = secret_key
        self.processes: dict[str, subprocess.Popen] = {}
        self.died_at: dict[str, float] = {}
        self.restarts: dict[str, int] = {role: 0 for role in HOSTS}
        (VAR / "control").mkdir(parents=True, exist_ok=True)

    def command(self, role: str) -> tuple[list[str], dict[str, str] | None]:
        from roboracer.run import beat_command, web_command, worker_command

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
            return web_command("0.0.0.0", WEB_PORT), env
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
                                   start_new_session=True, preexec_fn=parent_death.preexec())
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
        path = VAR / STATE_FILE
        path.write_text(json.dumps(state, indent=1))
        path.chmod(0o600)  # it holds the secret key

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
        request = urllib.request.Request(f"http://{address(role)}:{WEB_PORT}/api/auth/csrf/",
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

        import psycopg

        db = cluster.start("db")
        _wait("PostgreSQL answers", lambda: psycopg.connect(database_url().replace("/roboracer", "/postgres"),
                                                             connect_timeout=2).close() or True, 60, db,
              VAR / "db" / "log")
        with psycopg.connect(database_url().replace("/roboracer", "/postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE roboracer")
        redis_process = cluster.start("redis")
        import redis

        _wait("Redis answers", lambda: redis.Redis.from_url(redis_url(), socket_connect_timeout=1).ping(), 30,
              redis_process, VAR / "redis" / "log")
        # Migrations and the bundled courses, from web1's host (as a deploy step would run them)
        for step in (["migrate", "--noinput"], ["load_courses"]):
            result = subprocess.run(["ip", "netns", "exec", netns("web1"), sys.executable, "manage.py", *step],
                                    cwd=ROOT, env=app_env("web1", cluster.secret_key), capture_output=True, text=True)
            if result.returncode:
                raise RuntimeError(f"manage.py {' '.join(step)} failed:\n{result.stdout}{result.stderr}")
        print("cluster: database migrated, courses loaded", flush=True)
        for role in ("worker1", "worker2", "computers", "beat", "web1", "web2"):
            cluster.start(role)
        for role in WEB_HOSTS:
            _wait(f"{role} answers", lambda role=role: web_answers(role), 90, cluster.processes[role],
                  VAR / role / "log")
        for role in ("worker1", "worker2", "computers"):
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
