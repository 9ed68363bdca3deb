"""docker-compose.yml describes the cluster's topology (roboracer/cluster.py, docs/cluster.md): the same roles,
the same command for each, the same settings (environment variables), the same load balancer configuration.
No Docker needed: the files are compared."""

from __future__ import annotations

from pathlib import Path

import yaml

from roboracer import cluster
from roboracer.cluster_hosts import HOSTS, WEB_HOSTS, app_env, haproxy_config

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def cluster_command(role: str) -> list[str]:
    """The host's command as the image runs it: `python` for this machine's interpreter, without the web hosts'
    latency relay (a test device of the cluster's), the beat schedule's path left out."""
    runner = cluster.Cluster.__new__(cluster.Cluster)  # no var/ directory made: command() only reads
    runner.secret_key = "x"
    command, _env = runner.command(role)
    if "--" in command and "roboracer.cluster_relay" in command:
        command = command[command.index("--") + 1:]
    command = ["python", *command[1:]]
    return [part.split("=")[0] if part.startswith("--schedule=") else part for part in command]


def compose_command(role: str) -> list[str]:
    command = SERVICES[role]["command"]
    return [part.split("=")[0] if part.startswith("--schedule=") else part for part in command]


def test_the_same_roles():
    assert set(SERVICES) - {"migrate"} == set(HOSTS)


def test_the_application_hosts_run_the_same_commands():
    for role in [*WEB_HOSTS, "worker1", "worker2", "computers", "beat"]:
        assert compose_command(role) == cluster_command(role), role


def test_the_application_hosts_get_the_same_settings(monkeypatch):
    import os

    monkeypatch.setattr(os, "environ", {})  # only what the cluster sets itself
    cluster_keys = set(app_env("web1", "x"))
    assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "CSRF_TRUSTED_ORIGINS"} <= cluster_keys
    for role in [*WEB_HOSTS, "worker1", "worker2", "computers", "beat", "migrate"]:
        assert cluster_keys <= set(SERVICES[role]["environment"]), (role, cluster_keys - set(SERVICES[role]["environment"]))


def test_the_same_load_balancer():
    lb = SERVICES["lb"]
    assert lb["image"].startswith("haproxy:")
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in lb["volumes"]
    committed = (ROOT / "deploy" / "haproxy.cfg").read_text()
    ours = haproxy_config(bind="*", servers={web: web for web in WEB_HOSTS}, host="localhost",
                          written_by=committed.splitlines()[0].removeprefix("# Written by "))
    assert committed == ours, "deploy/haproxy.cfg is not the cluster's configuration (regenerate it)"
    assert set(lb["depends_on"]) == set(WEB_HOSTS)


def test_the_databases_run_as_the_cluster_runs_them():
    assert "--save" in SERVICES["redis"]["command"] and "--appendonly" in SERVICES["redis"]["command"]
    db = " ".join(SERVICES["db"]["command"])
    assert "max_connections=200" in db and "shared_buffers=64MB" in db
