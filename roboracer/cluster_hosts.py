"""The cluster's hosts (roboracer/cluster.py): their addresses, network namespaces and bridge, their environment,
the load balancer's configuration, and how a host is found, killed or torn down. No process is supervised here."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
VAR = Path(os.environ.get("CLUSTER_VAR_DIR") or ROOT / "var" / "cluster")
STATE_FILE = "cluster.json"
SUBNET = os.environ.get("CLUSTER_SUBNET", "10.39.0")  # a /24 of our own
BRIDGE = "rr39br0"
NETNS_PREFIX = "rr39-"
GATEWAY = f"{SUBNET}.1"  # the bridge's own address, in this machine's namespace
# Web+worker pairs (the scaling benchmark, tests/bench/cluster_scaling.py, starts 1, 2 and 3): 2 unless
# CLUSTER_PAIRS says otherwise. The fault scenarios need the two of the default.
PAIRS = int(os.environ.get("CLUSTER_PAIRS") or 2)
if not 1 <= PAIRS <= 3:
    raise SystemExit("CLUSTER_PAIRS: 1, 2 or 3")
WEB_HOSTS = tuple(f"web{n}" for n in range(1, PAIRS + 1))
WORKER_HOSTS = tuple(f"worker{n}" for n in range(1, PAIRS + 1))
_WORKER_ADDRESS = {"worker1": 31, "worker2": 32, "worker3": 35}  # .33 and .34 are taken
HOSTS = {"db": 10, "redis": 11, "lb": 12, **{web: 20 + n for n, web in enumerate(WEB_HOSTS, start=1)},
         **{worker: _WORKER_ADDRESS[worker] for worker in WORKER_HOSTS}, "computers": 33, "beat": 34}
# A CPU quota, in cores, for each web and worker host (a cgroup of its own: the scaling benchmark gives each a
# small equal share so that PostgreSQL, Redis, HAProxy and the load generator are not the limit); 0: none.
CPU_QUOTA = float(os.environ.get("CLUSTER_CPU_QUOTA") or 0)
CGROUP_CPU = Path("/sys/fs/cgroup/cpu")  # cgroup v1's cpu controller (this machine); v2 below if not mounted
WEB_PORT = 8000
LB_PORT = 80
RESTART_DELAY = float(os.environ.get("CLUSTER_RESTART_DELAY") or 2.0)
# Stopped in this order: no new requests, no new scheduling, no new work, then the services.
STOP_ORDER = ("lb", *WEB_HOSTS, "beat", *WORKER_HOSTS, "computers", "redis", "db")


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
    remove_cgroups()


def cgroup_dir(role: str) -> Path | None:
    """The host's own cpu cgroup when the cluster gives web and worker hosts a quota, else None."""
    if not CPU_QUOTA or role not in (*WEB_HOSTS, *WORKER_HOSTS):
        return None
    if CGROUP_CPU.is_dir():  # v1
        return CGROUP_CPU / f"{NETNS_PREFIX}{role}"
    return Path("/sys/fs/cgroup") / f"{NETNS_PREFIX}{role}"  # v2 (the cpu controller enabled at the root)


def make_cgroup(role: str) -> Path | None:
    """Create the host's cgroup with its quota (CPU_QUOTA cores of a 100 ms period)."""
    path = cgroup_dir(role)
    if path is None:
        return None
    path.mkdir(exist_ok=True)
    period = 100_000
    if (path / "cpu.cfs_quota_us").exists():
        (path / "cpu.cfs_period_us").write_text(str(period))
        (path / "cpu.cfs_quota_us").write_text(str(int(CPU_QUOTA * period)))
    else:
        (path / "cpu.max").write_text(f"{int(CPU_QUOTA * period)} {period}")
    return path


def remove_cgroups() -> None:
    for parent in (CGROUP_CPU, Path("/sys/fs/cgroup")):
        if parent.is_dir():
            for path in parent.glob(f"{NETNS_PREFIX}*"):
                try:
                    path.rmdir()  # empty once its processes are gone
                except OSError:
                    pass


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
        "DATABASE_IDLE_TX_TIMEOUT": "5",  # a host cut off mid-transaction holds no game's lock for long
    }


def haproxy_config(bind: str | None = None, servers: dict[str, str] | None = None, host: str | None = None,
                   written_by: str = "roboracer/cluster.py") -> str:
    """HAProxy's configuration: the cluster's (its addresses), or with `bind`, `servers` (name: host) and the
    health check's `host` header, docker-compose's (deploy/haproxy.cfg, checked by tests/test_compose.py)."""
    lb = host or address("lb")
    bind = bind or lb
    servers = "\n".join(
        f"    server {web} {servers[web] if servers else address(web)}:{WEB_PORT} check inter 1s fall 2 rise 2 "
        "on-marked-down shutdown-sessions" for web in WEB_HOSTS) + "\n" + "\n".join(
        # The same hosts unchecked, used only while every checked one is down: a database outage fails every
        # host's health check (a select 1), and they must serve again the moment it is back, not 2 checks later.
        f"    server {web}-any {servers[web] if servers else address(web)}:{WEB_PORT} backup"
        for web in WEB_HOSTS)
    return f"""# Written by {written_by}
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
    bind {bind}:{LB_PORT}
    option forwardfor
    default_backend web

backend web
    balance roundrobin
    option allbackups
    option httpchk
    http-check send meth GET uri /api/health/ ver HTTP/1.1 hdr Host {lb}
    http-check expect status 200
    http-response set-header X-Served-By %s
{servers}

frontend stats
    bind {bind}:8404
    stats enable
    stats uri /
    stats refresh 2s
"""
