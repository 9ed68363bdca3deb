"""Scaling by adding hosts (issue 39): the cluster (roboracer/cluster.py) with 1, 2 and 3 web+worker pairs, each web
and worker host held to an equal small CPU quota (a cgroup: a fifth of a core by default), so that PostgreSQL,
Redis, HAProxy and this load generator are not the limit on a 2-core machine. For each size it runs the cluster's
workload (tests/cluster/workload.py: four-player games, every player a client through the load balancer) with
`--think 0` and prints the capacity (turns resolved a second), the scaling efficiency against linear from one
pair, and the CPU the load generator, PostgreSQL and Redis used, as shares of a core. A benchmark, not a test.
Root only, like `make cluster`.

    .venv/bin/python tests/bench/cluster_scaling.py [--pairs 1,2,3] [--quota 0.2] [--games 24] [--turns 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.cluster import workload  # noqa: E402

STATE = ROOT / "var" / "cluster" / "cluster.json"


def start_cluster(pairs: int, quota: float) -> subprocess.Popen:
    env = {**os.environ, "CLUSTER_PAIRS": str(pairs), "CLUSTER_CPU_QUOTA": str(quota), "PYTHONUNBUFFERED": "1"}
    runner = subprocess.Popen([sys.executable, "-m", "roboracer.cluster"], cwd=ROOT, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    ready = threading.Event()
    log = ROOT / "var" / f"cluster-scaling-{pairs}.log"

    def pump() -> None:
        with open(log, "w") as out:
            for line in runner.stdout:
                out.write(line)
                out.flush()
                if "RoboRacer cluster is running at" in line:
                    ready.set()

    threading.Thread(target=pump, daemon=True).start()
    began = time.monotonic()
    while not ready.is_set():
        if runner.poll() is not None or time.monotonic() - began > 300:
            runner.kill()
            raise SystemExit(f"the cluster of {pairs} pair(s) did not start: see {log}")
        time.sleep(0.2)
    return runner


def stop_cluster(runner: subprocess.Popen) -> None:
    runner.send_signal(signal.SIGINT)
    try:
        runner.wait(timeout=90)
    except subprocess.TimeoutExpired:
        runner.kill()
        runner.wait()


def host_cpu(state: dict, role: str) -> float:
    """CPU seconds used so far by every process of the host (its main process and its children)."""
    pid = state["hosts"][role]["pid"]
    total = 0.0
    try:
        root = psutil.Process(pid)
        for process in [root, *root.children(recursive=True)]:
            try:
                times = process.cpu_times()
                total += times.user + times.system
            except psutil.Error:
                pass
    except psutil.Error:
        pass
    return total


def measure(pairs: int, quota: float, games: int, turns: int) -> dict:
    runner = start_cluster(pairs, quota)
    try:
        state = json.loads(STATE.read_text())
        roles = ("db", "redis", "lb", *(f"web{n}" for n in range(1, pairs + 1)),
                 *(f"worker{n}" for n in range(1, pairs + 1)))
        run = workload.Run(state=state, games=games, turns=turns, think=0.0)
        marks = {}

        async def set_up_and_play() -> None:  # one event loop: the clients' sessions and sockets live in it
            try:
                await workload.set_up(run, f"s{pairs}{int(time.time()) % 100000:05d}")
                marks["cpu"] = {role: host_cpu(state, role) for role in roles}
                marks["mine"] = time.process_time()
                await workload.play(run)
                marks["mine"] = time.process_time() - marks["mine"]
                marks["cpu"] = {role: host_cpu(state, role) - marks["cpu"][role] for role in roles}
            finally:
                await asyncio.gather(*(client.close() for client in run.clients), return_exceptions=True)

        asyncio.run(set_up_and_play())
        wall = run.ended - run.began
        mine = marks["mine"]
        cpu = {role: used / wall for role, used in marks["cpu"].items()}
        resolved = sum(len(turns_seen) for turns_seen in run.resolved.values())
    finally:
        stop_cluster(runner)
    return {"pairs": pairs, "turns": resolved, "wall": wall, "capacity": resolved / wall, "generator": mine / wall,
            "db": cpu["db"], "redis": cpu["redis"], "lb": cpu["lb"],
            "web": sum(v for k, v in cpu.items() if k.startswith("web")) / pairs,
            "worker": sum(v for k, v in cpu.items() if k.startswith("worker")) / pairs}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", default="1,2,3", help="the web+worker pairs to measure, in order")
    parser.add_argument("--quota", type=float, default=0.2, help="cores per web and worker host")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--turns", type=int, default=8)
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("cluster_scaling: root only (network namespaces, cgroups)", file=sys.stderr)
        return 2
    rows = []
    for pairs in [int(p) for p in args.pairs.split(",")]:
        row = measure(pairs, args.quota, args.games, args.turns)
        rows.append(row)
        print(f"pairs {pairs}: {row['turns']} turns in {row['wall']:.1f} s = {row['capacity']:.2f} turns/s", flush=True)
    base = rows[0]["capacity"] / rows[0]["pairs"]
    print(f"\nCapacity with --think 0, {args.games} four-player games of {args.turns} turns, each web and worker host "
          f"held to {args.quota:g} of a core (cgroup cpu quota); CPU as shares of one core during the run")
    print("| pairs | turns/s | efficiency (1.0 = linear) | web host CPU | worker host CPU | PostgreSQL | Redis | "
          "HAProxy | load generator |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        efficiency = row["capacity"] / (base * row["pairs"])
        print(f"| {row['pairs']} | {row['capacity']:.2f} | {efficiency:.2f} | {row['web']:.2f} | {row['worker']:.2f} | "
              f"{row['db']:.2f} | {row['redis']:.2f} | {row['lb']:.2f} | {row['generator']:.2f} |")
    worst = min(row["capacity"] / (base * row["pairs"]) for row in rows)
    print(f"\ngoal: at least 0.8 of linear at every size: {'met' if worst >= 0.8 else 'NOT met'} (worst {worst:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
