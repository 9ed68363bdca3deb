"""Fault scenarios against a running cluster (`make cluster`, roboracer/cluster.py): each runs the bounded
workload (tests/cluster/workload.py), injects its fault mid-game, then checks the history.

    python -m tests.cluster.faults SCENARIO [--games 6] [--turns 6] [--think 1]
    make cluster-fault SCENARIO=kill-web

Scenarios:
    none            the workload alone (the baseline)
    kill-web        kill -9 every process of web1's host mid-game, keep it down 5 s; its clients reconnect through
                    the load balancer to web2 and resync
    kill-worker     kill -9 worker1's host while a turn is being resolved, keep it down 5 s
    restart-redis   kill -9 the Redis host, start it again 2 s later (empty: it keeps nothing)
    restart-postgres  kill -9 the PostgreSQL host (postmaster and backends), start it again 2 s later (crash
                    recovery)
    partition-worker  cut worker1 off from Redis for 20 s (iptables DROP in its namespace), then heal
    partition-web-db  cut web1 off from PostgreSQL for 20 s (iptables DROP in its namespace), then heal
    latency-web     +50 ms per round trip from both web hosts to PostgreSQL and Redis for 20 s (their relays)
    stop-beat       kill beat's host as turn 4 is dealt, with 15 s move clocks and one silent player per game;
                    keep it down until every deadline is 2 s overdue; they must be enforced once it is back
A host kept down has a hold file (var/cluster/control/hold-<role>) that the runner's supervision honours; once
it is removed the runner starts the host again.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from roboracer import cluster  # noqa: E402
from tests.cluster.workload import Fault, Run, Verdict, check, now, workload  # noqa: E402


def read_state() -> dict:
    path = cluster.VAR / cluster.STATE_FILE
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        raise SystemExit(f"no running cluster ({path} missing): start one with `make cluster`") from None
    return state


async def wait_for(what: str, predicate, timeout: float, interval: float = 0.2) -> None:
    deadline = now() + timeout
    while now() < deadline:
        try:
            if await asyncio.to_thread(predicate):
                return
        except Exception:  # noqa: BLE001 - not yet
            pass
        await asyncio.sleep(interval)
    raise TimeoutError(f"{what}: not within {timeout:g} s")


def hold(role: str) -> Path:
    path = cluster.VAR / "control" / f"hold-{role}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(str(time.time()))
    return path


def restarts(role: str) -> int:
    return read_state()["hosts"][role]["restarts"]


async def crash(run: Run, role: str, down: float, back, name: str, detail: str = "") -> None:
    """kill -9 every process of `role`'s host, keep it down `down` s, let the runner start it again, and wait
    until `back()` says it serves again: the fault's window."""
    before = restarts(role)
    held = hold(role)
    fault = Fault(name, now(), detail=detail)
    run.faults.append(fault)
    killed = cluster.kill_host(role)
    fault.detail = (detail + "; " if detail else "") + f"killed {len(killed)} process(es)"
    try:
        await asyncio.sleep(down)
    finally:
        held.unlink(missing_ok=True)
    await wait_for(f"{role} started again", lambda: restarts(role) > before, 30)
    await wait_for(f"{role} serves again", back, 90)
    fault.ended = now()


async def mid_game(run: Run, turn: int = 2) -> None:
    """Until every game has resolved `turn` turns."""
    while run.progress() < turn:
        await asyncio.sleep(0.05)


def web_back(role: str):
    return lambda: cluster.web_answers(role)


def log_count(role: str, text: str) -> int:
    return (cluster.VAR / role / "log").read_text(errors="replace").count(text)


async def kill_web(run: Run) -> None:
    await mid_game(run)
    await crash(run, "web1", 5.0, web_back("web1"), "kill-web")


async def kill_worker(run: Run) -> None:
    """kill -9 a worker host while it is inside a resolution's transaction: PostgreSQL's pg_stat_activity shows
    which worker's connection is in a transaction (polled every few ms), and that worker dies."""
    import psycopg

    await mid_game(run)
    dsn = run.state["database_url"].replace("postgres://", "postgresql://", 1)
    workers = {cluster.address(role): role for role in ("worker1", "worker2")}
    victim, detail = "worker1", "no transaction of a worker seen: worker1 killed between turns"
    with psycopg.connect(dsn, autocommit=True) as conn:
        deadline = now() + 20
        while now() < deadline:
            row = conn.execute("select host(client_addr), state, left(query, 60) from pg_stat_activity "
                               "where datname = 'roboracer' and state in ('active', 'idle in transaction') "
                               "and host(client_addr) = any(%s) "
                               # a turn's resolution (its programs, hands, Turn row, the game locked), not
                               # a beat task's look for due deadlines
                               "and query ~ '(games_turn|games_program|games_hand|FOR UPDATE)' limit 1",
                               (list(workers),)).fetchone()
            if row:
                victim = workers[row[0]]
                detail = f"{victim} killed in a transaction ({row[1]}: {row[2]!r})"
                break
            await asyncio.sleep(0.003)
    readies = log_count(victim, "ready.")
    await crash(run, victim, 5.0, lambda: log_count(victim, "ready.") > readies, "kill-worker", detail)


async def restart_redis(run: Run) -> None:
    import redis

    await mid_game(run)
    await crash(run, "redis", 2.0, lambda: redis.Redis.from_url(run.state["redis_url"],
                                                                socket_connect_timeout=1).ping(), "restart-redis")


async def restart_postgres(run: Run) -> None:
    import psycopg

    await mid_game(run)
    dsn = run.state["database_url"].replace("postgres://", "postgresql://", 1)
    await crash(run, "db", 2.0, lambda: psycopg.connect(dsn, connect_timeout=2).close() or True,
                "restart-postgres")


def iptables(role: str, *rule: str) -> None:
    import subprocess

    subprocess.run(["ip", "netns", "exec", cluster.netns(role), "iptables", *rule], check=True, capture_output=True)


async def partition(run: Run, name: str, *, host: str, peer: str) -> Fault:
    """The fault `name`: `host` cut off from `peer` for 20 s (iptables DROP both ways inside host's namespace:
    packets vanish, no reset), then healed. The caller ends the fault once it has waited for what it needs."""
    address = cluster.address(peer)
    fault = Fault(name, now(), detail=f"{host} <-/-> {peer} {address} for 20 s")
    run.faults.append(fault)
    iptables(host, "-A", "OUTPUT", "-d", address, "-j", "DROP")
    iptables(host, "-A", "INPUT", "-s", address, "-j", "DROP")
    try:
        await asyncio.sleep(20)
    finally:
        iptables(host, "-F")
    return fault


async def partition_worker(run: Run) -> None:
    """Cut worker1 off from Redis for 20 s (iptables DROP both ways inside worker1's namespace: its packets to
    Redis vanish, no reset), then heal. Its broker connection hangs; worker2 takes the queue."""
    await mid_game(run)
    fault = await partition(run, "partition-worker", host="worker1", peer="redis")
    fault.ended = now()


async def partition_web_db(run: Run) -> None:
    """Cut web1 off from PostgreSQL for 20 s (iptables DROP both ways inside web1's namespace), then heal. Its
    requests and socket handlers hang on the database; HAProxy's health check marks it down and shuts its
    sessions; the clients reconnect to web2."""
    await mid_game(run)
    fault = await partition(run, "partition-web-db", host="web1", peer="db")
    await wait_for("web1 serves again", web_back("web1"), 60)
    fault.ended = now()


LATENCY_MS = 50


async def latency_web(run: Run) -> None:
    """50 ms more on every round trip from both web hosts to PostgreSQL and Redis for 20 s (their relays,
    roboracer/cluster_relay.py), then back to none. Nothing fails; everything the web hosts do gets slower."""
    await mid_game(run)
    fault = Fault("latency-web", now(), detail=f"+{LATENCY_MS} ms per round trip web -> db and redis for 20 s")
    run.faults.append(fault)
    files = [cluster.latency_file(web) for web in cluster.WEB_HOSTS]
    for path in files:
        path.write_text(str(LATENCY_MS))
    try:
        await asyncio.sleep(20)
    finally:
        for path in files:
            path.unlink(missing_ok=True)
    fault.ended = now()


MOVE_TIME = 15  # seconds: the shortest move clock the site allows (games/clocks.py MIN_MOVE_TIME)


async def stop_beat(run: Run) -> None:
    """Stop beat's host (kill -9) as the first game's turn 4 is dealt, while every game's first player sends
    nothing in it: their 15 s move clocks (no game time, policy random) run out while no scheduler runs. Beat is
    kept down until every game is in turn 4 and every such deadline has passed by 2 s, then started again; the
    overdue deadlines must be enforced then (a random program for the silent player, the turn resolved). (It
    waited for every game's turn 4 before: with 40 games on a busy machine the games drift apart by more than
    the 15 s clock, and the leaders' deadlines were enforced before beat was stopped.)"""
    import psycopg

    while run.leading() < run.withhold_turn - 1:
        await asyncio.sleep(0.05)
    dsn = run.state["database_url"].replace("postgres://", "postgresql://", 1)

    def all_due() -> bool:
        with psycopg.connect(dsn, connect_timeout=5) as conn:
            waiting = conn.execute(
                "select count(*) from games_seat s join games_game g on g.id = s.game_id where g.id = any(%s) "
                "and g.status = 'programming' and g.turn = %s and s.deadline is not null "
                "and s.deadline > now() - interval '2 seconds'", (run.game_ids, run.withhold_turn)).fetchone()[0]
            behind = conn.execute(  # games still before turn 4 (a finished game is not behind)
                "select count(*) from games_game where id = any(%s) and turn < %s "
                "and status not in ('finished', 'cancelled')",
                (run.game_ids, run.withhold_turn)).fetchone()[0]
            return waiting == 0 and behind == 0

    before = restarts("beat")
    held = hold("beat")
    fault = Fault("stop-beat", now(), detail=f"beat killed at turn {run.withhold_turn}'s deal; {MOVE_TIME} s move "
                                             "clocks, one silent player per game")
    run.faults.append(fault)
    killed = cluster.kill_host("beat")
    fault.detail += f"; killed {len(killed)} process(es)"
    try:
        await wait_for("every withheld deadline passed", all_due, MOVE_TIME + 60, interval=0.5)
    finally:
        held.unlink(missing_ok=True)
    await wait_for("beat started again", lambda: restarts("beat") > before, 30)
    fault.ended = now()  # the scheduler's process is back; its first ticks send the overdue deadlines


stop_beat.run_options = {
    "game_options": {"timer_preset": "custom", "move_time": MOVE_TIME, "game_time": 0, "timeout_policy": "random"},
    "withhold_turn": 4,
    # the other players wait out the silent one's clock and beat's outage: that is not a stalled stream
    "resync_after": MOVE_TIME + 70,
}


SCENARIOS = {"none": None, "kill-web": kill_web, "kill-worker": kill_worker, "restart-redis": restart_redis,
             "restart-postgres": restart_postgres,
             "partition-worker": partition_worker, "partition-web-db": partition_web_db, "latency-web": latency_web, "stop-beat": stop_beat}


def run_scenario(name: str, games: int = 6, turns: int = 10, think: float = 1.5, seed: int = 1
                 ) -> tuple[Run, Verdict]:
    state = read_state()
    # Each scenario starts from a whole cluster: a web host still coming back from the scenario before (one that
    # failed half-way, say) would send every client to the other and fail this one too.
    for role in sorted(r for r in state["hosts"] if r.startswith("web")):
        asyncio.run(wait_for(f"{role} serves before {name}", web_back(role), 90))
    began = time.monotonic()
    run = asyncio.run(workload(state, games, turns, think, SCENARIOS[name], seed=seed))
    verdict = check(run)
    verdict.figures["scenario_s"] = round(time.monotonic() - began, 1)
    return run, verdict


def report(name: str, verdict: Verdict) -> str:
    f = verdict.figures
    lines = [f"scenario {name}: {'PASS' if verdict.ok else 'FAIL'}",
             f"  {f['games']} games x 4 players, {f['turns']} turns, played in {f['wall_s']} s "
             f"(scenario {f.get('scenario_s')} s); web hosts used: {', '.join(f['web_hosts_used'])}",
             f"  programs acknowledged {f['programs_acked']}, lost {f['acked_lost']}; turns resolved twice "
             f"{f['turns_duplicated']}",
             f"  reconnects {f['reconnects']}, resyncs {f['resyncs']} (at most {f['max_resyncs_per_client']} per "
             f"client), syncs after a stalled deal {f['stall_syncs']}, deadlines enforced {f['deadlines_enforced']} "
             f"(the last {f['enforced_after_back_s']} s after the host was back), gaps filled by events out of order "
             f"{f['reordered']}",
             f"  5xx (or no connection) in the fault window {f['5xx_in_fault_window']}, outside {f['5xx_outside']}"]
    for fault in f["faults"]:
        lines.append(f"  fault {fault['name']} at {fault['at_s']} s ({fault['detail']}): host back after "
                     f"{fault['back_after_s']} s; time to recover (slowest game's first turn resolved after the "
                     f"fault) {f['recovery_s'].get(fault['name'])} s")
    for violation in verdict.violations[:30]:
        lines.append(f"  VIOLATION {violation}")
    if len(verdict.violations) > 30:
        lines.append(f"  ... and {len(verdict.violations) - 30} more")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description="Run a fault scenario against the running cluster")
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--think", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    _run, verdict = run_scenario(args.scenario, args.games, args.turns, args.think, args.seed)
    print(report(args.scenario, verdict), flush=True)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
