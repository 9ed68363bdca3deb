"""The cluster's tests (`make test-cluster`): start the cluster (roboracer/cluster.py) as `make cluster` does, run
each fault scenario's workload against it and check its history (tests/cluster/workload.py), then stop it with
Ctrl-C and check that nothing is left.

This file's name does not match pytest's test_*.py on purpose: `make test` must never collect it (it needs root
and takes minutes); `make test-cluster` names it. With CI=true a missing prerequisite fails the run; elsewhere it
skips."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from roboracer import cluster
from tests.cluster import faults

ROOT = Path(__file__).resolve().parents[2]
CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
GAMES, TURNS, THINK = 40, 10, 1.5


@pytest.fixture(scope="module")
def running_cluster():
    missing = cluster.missing_prerequisites()
    if missing:
        message = "the cluster needs " + ", ".join(missing) + " (.ci/run installs them)"
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    log_path = ROOT / "var" / "cluster-test-runner.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    runner = subprocess.Popen([sys.executable, "-m", "roboracer.cluster"], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    ready = threading.Event()

    def pump():
        with open(log_path, "w") as log:
            for line in runner.stdout:
                lines.append(line)
                log.write(line)
                log.flush()
                if "RoboRacer cluster is running at" in line:
                    ready.set()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    began = time.monotonic()
    while not ready.is_set() and runner.poll() is None and time.monotonic() - began < 240:
        time.sleep(0.2)
    if not ready.is_set():
        runner.kill()
        pytest.fail("the cluster did not start:\n" + "".join(lines[-40:]))
    print(f"cluster started in {time.monotonic() - began:.0f} s")
    yield runner, lines
    if runner.poll() is None:
        runner.send_signal(signal.SIGINT)
        try:
            runner.wait(timeout=60)
        except subprocess.TimeoutExpired:
            runner.kill()
            subprocess.run([sys.executable, "-m", "roboracer.cluster", "--down"], cwd=ROOT)


def scenario(name: str) -> None:
    _run, verdict = faults.run_scenario(name, GAMES, TURNS, THINK)
    print(faults.report(name, verdict))
    assert verdict.ok, faults.report(name, verdict)


@pytest.mark.parametrize("name", ["none", "kill-web", "kill-worker", "restart-redis", "restart-postgres", "partition-worker", "partition-web-db", "latency-web", "stop-beat"])
def test_scenario(running_cluster, name):
    scenario(name)


def test_ctrl_c_stops_everything(running_cluster):
    runner, lines = running_cluster
    runner.send_signal(signal.SIGINT)
    assert runner.wait(timeout=60) == 0, "".join(lines[-30:])
    assert cluster.our_namespaces() == []
    assert not Path(f"/sys/class/net/{cluster.BRIDGE}").exists()
    assert not (cluster.VAR / cluster.STATE_FILE).exists()
    leftovers = subprocess.run(["pgrep", "-f", str(cluster.VAR)], capture_output=True, text=True).stdout.split()
    assert leftovers == [], f"processes left: {leftovers}"
