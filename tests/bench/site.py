"""Site benchmark: many concurrent 4-player games through the whole live stack. Prints figures, not pass/fail.

The stack: PostgreSQL and Redis (the machine's; database `bench`, Redis db 5 by default), a Celery worker
resolving two turns at once (WORKER_CONCURRENCY=2) and uvicorn with two processes on one port
(WEB_WORKERS=2), one of each per core, started on loopback with the commands roboracer.run defines
(tests/live.py). The driver is
one asyncio process (aiohttp): every user signs up over the API (CSRF cookie, then sign-up), creators
create games on Bolt Bay with 4 seats, three others join each (the game starts when full), and every
player opens the game's WebSocket and reads its snapshot (its hand).

Each turn of each game: every player thinks for a random time (uniform in 0..--think seconds, 20 by
default: people take that long to pick five chips, and it makes 100 games offer about 5 turns a second;
--think 2 is an overload test the machine cannot keep up with), then submits a legal program: five chips from its hand as a multiset, frozen registers keeping their chip. The
player with the longest think submits last, once the other programs have been answered, so its request is
the one that makes the turn execute. Latency is measured from the moment just BEFORE the last program's
request is sent to the arrival of `turn_resolved` (the message that carries the turn's phase events, the
first phase event among them) at each of the game's four WebSockets; one sample per (client, turn). The
figures from the last program's response are printed too. After `turn_dealt` the server pushes each player
its snapshot with the new hand (as the browser gets it); a player that gets none within 15 s sends
`{"type": "sync"}` instead (counted as a resync).

The driver stands in for 400 browsers on machines of their own, so its cyclic garbage collector is off
while the games play: with it on, its full collections (half a million live objects, none freed) paused it
for up to 250 ms, and that pause counted as the site's latency.

Printed: games, players, turns resolved, wall time of the play phase, turns resolved per second, latency
p50/p90/p99/max, the peak RSS (VmHWM, summed over each process tree) of the web server(s) and the worker,
and the CPU seconds each party used while the games played.

Bot modules (issue 15): --modules on creates every game with all 17 modules, and every bot sends a random
legal module action with each program (install, charge, activate), built from its snapshot (hand, battery,
module, prices) and checked locally with the engine's own action check. --modules both runs the benchmark
without modules, then with them, on the same stack settings, and prints both p99s and their ratio (the
issue's target: with modules at most 1.5x without, at 100 games).

Run: make bench-site, or .venv/bin/python tests/bench/site.py [--games 100] [--turns 3] [--think 20]
[--web-workers 2] [--worker-concurrency 2] [--web 1] [--modules off|on|both] ...
Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench, dropped and re-created each
run) and REDIS_URL (default redis://127.0.0.1:6379/5, flushed each run); a URL you set is only migrated
(and its Redis not flushed), and the user names carry a per-run tag.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import live  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"
COURSE = "bolt-bay"
SEATS = 4
PASSWORD = "bench passphrase 1"
TURN_TIMEOUT = 60.0
RESYNC_AFTER = 15.0  # no turn_dealt (or no pushed snapshot after it) this long: ask for a snapshot
WALL = time.time() - time.perf_counter()  # perf_counter() + WALL: the wall clock, to compare with the server's


class BenchError(Exception):
    pass


# --- services -------------------------------------------------------------------------------------------


def prepare_database(url: str, fresh: bool) -> None:
    """Check PostgreSQL answers; (re)create the database when `fresh`, else create it if missing."""
    import psycopg

    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise BenchError(f"DATABASE_URL must be a PostgreSQL URL, not {url}")
    name = parts.path.lstrip("/")
    admin = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            exists = conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone()
            if exists and fresh:
                conn.execute(f'drop database "{name}" with (force)')
                exists = None
            if not exists:
                conn.execute(f'create database "{name}"')
    except psycopg.OperationalError as error:
        raise BenchError(f"PostgreSQL unreachable at {parts.hostname}:{parts.port or 5432}: {error}") from None


def prepare_redis(url: str, flush: bool) -> None:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        client.ping()
        if flush:
            client.flushdb()
        client.close()
    except redis.RedisError as error:
        raise BenchError(f"Redis unreachable at {url}: {error}") from None


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**os.environ, **env},
                            capture_output=True, text=True)
    if result.returncode:
        raise BenchError(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")


def process_tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    todo.extend(int(child) for child in handle.read().split())
        except OSError:
            pass
    return pids


def peak_rss_mb(pid: int) -> tuple[float, int]:
    """VmHWM summed over the process tree (an upper bound of the tree's peak), and the number of processes."""
    total, count = 0, 0
    for member in process_tree(pid):
        try:
            with open(f"/proc/{member}/status") as handle:
                for line in handle:
                    if line.startswith("VmHWM:"):
                        total += int(line.split()[1])
                        count += 1
        except OSError:
            pass
    return total / 1024, count


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15])  # utime, stime, and those of reaped children
        except OSError:
            pass
    return total / CLOCK_TICKS


def pids_named(name: str, argument: str = "") -> list[int]:
    """Processes called `name` (and with `argument` in their command line)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as handle:
                    if handle.read().strip() != name:
                        continue
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if argument.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


class CpuMeter:
    """CPU seconds used by the stack's processes, the driver, PostgreSQL and Redis between start and stop
    (a process's own time plus that of its children it has reaped, e.g. PostgreSQL's connection backends)."""

    def __init__(self, stack: live.LiveStack, redis_url: str):
        redis = urlsplit(redis_url)
        self.groups = {
            "web": lambda: [p for name, proc in stack.processes.items() if name.startswith("web")
                            for p in process_tree(proc.pid)],
            "worker": lambda: process_tree(stack.processes["worker"].pid),
            "driver": lambda: [os.getpid()],
            "postgres": lambda: pids_named("postgres"),
            "redis": lambda: pids_named("redis-server", f"{redis.hostname}:{redis.port or 6379}"),
        }
        self.before: dict[str, dict[int, float]] = {}

    def _sample(self) -> dict[str, dict[int, float]]:
        return {name: {pid: cpu_seconds([pid]) for pid in pids()} for name, pids in self.groups.items()}

    @staticmethod
    def _machine() -> float:
        """CPU seconds the whole machine has been busy (all but idle and iowait)."""
        with open("/proc/stat") as handle:
            ticks = [int(value) for value in handle.readline().split()[1:]]
        return (sum(ticks[:8]) - ticks[3] - ticks[4]) / CLOCK_TICKS

    def start(self) -> None:
        self.before = self._sample()
        self.machine = self._machine()

    def stop(self) -> dict[str, float]:
        after = self._sample()
        used = {name: sum(seconds - self.before[name].get(pid, 0.0) for pid, seconds in after[name].items())
                for name in after}
        used["other processes"] = max(0.0, self._machine() - self.machine - sum(used.values()))
        return used


# --- the players ---------------------------------------------------------------------------------------


class Player:
    """A user with its own cookie jar, one keep-alive connection and one WebSocket."""

    def __init__(self, base_url: str, username: str):
        import aiohttp

        self.base_url = base_url
        self.username = username
        self.session = aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True),  # cookies for an IP address host
            # uvicorn closes a keep-alive connection idle for 5 s; reusing one just then resets the request
            connector=aiohttp.TCPConnector(limit=2, keepalive_timeout=3),
            timeout=aiohttp.ClientTimeout(total=TURN_TIMEOUT),
        )
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.snapshot: dict | None = None
        self.version = 0
        self.skipped: set[int] = set()  # versions that had not arrived when a later one did
        self.gaps = 0  # such versions
        self.late = 0  # of them, how many arrived afterwards (out of order)
        self.resyncs = 0  # times no turn_dealt or pushed snapshot came and a snapshot was asked for instead
        self.overtaken = 0  # pushed snapshots older than an event already seen (then a snapshot is asked for)
        self.errors: list[str] = []
        self._resolved: dict[int, asyncio.Future] = {}
        self._dealt: dict[int, asyncio.Future] = {}
        self._pushed: dict[int, asyncio.Future] = {}
        self._snapshot_waiter: asyncio.Future | None = None
        self.finished: asyncio.Future = asyncio.get_running_loop().create_future()

    def _csrf(self) -> str:
        for cookie in self.session.cookie_jar:
            if cookie.key == "csrftoken":
                return cookie.value
        return ""

    async def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {"X-CSRFToken": self._csrf()} if method != "GET" else {}
        async with self.session.request(method, f"{self.base_url}{path}", json=body, headers=headers) as response:
            text = await response.text()
            try:
                return response.status, json.loads(text) if text else {}
            except ValueError:
                return response.status, {"detail": text[:200]}

    async def post(self, path: str, body: dict | None = None, expect: int = 200) -> dict:
        status, data = await self.request("POST", path, body or {})
        if status != expect:
            raise BenchError(f"{self.username}: POST {path} answered {status}: {str(data.get('detail', data))[:120]}")
        return data

    async def sign_up(self) -> None:
        status, _ = await self.request("GET", "/api/auth/csrf/")
        if status != 200:
            raise BenchError(f"GET /api/auth/csrf/ answered {status}")
        await self.post("/api/auth/signup/", {"username": self.username, "password": PASSWORD}, expect=201)

    async def connect(self, game_id: int) -> None:
        """Open the game's WebSocket (session cookie, Origin = the site) and wait for its snapshot."""
        self._snapshot_waiter = asyncio.get_running_loop().create_future()
        self.ws = await self.session.ws_connect(f"{self.base_url}/ws/games/{game_id}/", origin=self.base_url,
                                                max_msg_size=0, autoping=True)
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self._snapshot_waiter, TURN_TIMEOUT)

    async def _read(self) -> None:
        import aiohttp

        async for frame in self.ws:
            arrived = time.perf_counter()
            if frame.type != aiohttp.WSMsgType.TEXT:
                break
            message = json.loads(frame.data)
            kind = message.get("type")
            if kind == "snapshot" and message.get("pushed"):
                # A deal's snapshot with this player's new hand, pushed to their own sockets. One that
                # events of the new turn overtook (another player's quick program) is older than what this
                # client has seen: like the browser, it then asks for a current snapshot.
                current = message["version"] >= self.version
                if current:
                    self.snapshot, self.version = message["game"], message["version"]
                future = self._future(self._pushed, message["game"]["turn"])
                if not future.done():
                    future.set_result(message["game"] if current else None)
            elif kind == "snapshot":
                self.snapshot = message["game"]
                self.version = max(self.version, message["version"])
                if self._snapshot_waiter and not self._snapshot_waiter.done():
                    self._snapshot_waiter.set_result(message["game"])
            elif kind == "event":
                version = message["version"]
                if version > self.version:
                    self.skipped.update(range(self.version + 1, version))
                    self.gaps += version - self.version - 1
                    self.version = version
                elif version in self.skipped:
                    self.skipped.discard(version)
                    self.late += 1
                else:
                    continue  # already in the snapshot
                data = message["data"]
                if message["kind"] == "turn_resolved":
                    future = self._future(self._resolved, data["turn"])
                    if not future.done():
                        future.set_result((arrived, data))
                elif message["kind"] == "turn_dealt":
                    future = self._future(self._dealt, data["turn"])
                    if not future.done():
                        future.set_result(arrived)
                elif message["kind"] == "game_finished" and not self.finished.done():
                    self.finished.set_result(arrived)
            else:
                self.errors.append(f"unexpected message {message}")

    @staticmethod
    def _future(table: dict[int, asyncio.Future], turn: int) -> asyncio.Future:
        if turn not in table:
            table[turn] = asyncio.get_running_loop().create_future()
        return table[turn]

    def resolved(self, turn: int) -> asyncio.Future:
        return self._future(self._resolved, turn)

    async def next_turn(self, turn: int) -> bool:
        """After turn `turn` resolved: wait for the next deal (False when the game finished) and the snapshot
        the server pushes with it, as the browser does; ask for one (a resync) only if none comes."""
        dealt = self._future(self._dealt, turn + 1)
        done, _ = await asyncio.wait([dealt, self.finished], timeout=RESYNC_AFTER,
                                     return_when=asyncio.FIRST_COMPLETED)
        if self.finished in done and dealt not in done:
            return False
        snapshot = None
        if done:
            pushed = self._future(self._pushed, turn + 1)
            try:
                snapshot = await asyncio.wait_for(asyncio.shield(pushed), RESYNC_AFTER)
            except TimeoutError:
                self.resyncs += 1  # delivery is at most once: resync as a browser would
            else:
                if snapshot is None:
                    self.overtaken += 1
        else:
            self.resyncs += 1
        if snapshot is None:
            self._snapshot_waiter = asyncio.get_running_loop().create_future()
            await self.ws.send_str(json.dumps({"type": "sync"}))
            snapshot = await asyncio.wait_for(self._snapshot_waiter, TURN_TIMEOUT)
        if snapshot["status"] == "finished":
            return False
        if snapshot["turn"] != turn + 1:
            raise BenchError(f"{self.username}: the snapshot after turn {turn} is of turn {snapshot['turn']}")
        return True

    def action(self, rng: random.Random, chips: list[str]) -> dict | None:
        """A random legal module action for this player's bot this turn (None when it has none): the choices
        are tried in random order and the first the engine's action check accepts is sent."""
        from engine import bot_from_dict
        from engine.modules.actions import action_problem

        me, prices = self.snapshot["me"], self.snapshot.get("prices") or {}
        public = next((b for b in self.snapshot.get("bots", []) if b["id"] == me["bot"]), None)
        if not prices or public is None or public["at"] is None:
            return None
        bot = bot_from_dict({**public, "stored_chip": me.get("stored_chip"), "scan_due": me.get("scan_due", False)})
        # The hand matters to Turbo, Crab Legs and Storage; with frozen registers (damage 5+), the snapshot does
        # not say which chips the registers keep, so those activations are left out then.
        hand, program = (me["hand"], chips) if public["damage"] < 5 else (None, None)
        phase = rng.randint(1, 4)
        # The kind first (install, charge, activate: each as likely), then one of its forms: a uniform draw
        # over all forms would install a new module nearly every turn (17 of them) and rarely use one.
        kinds = [
            [{"install": name} for name in prices],
            [{"charge": n} for n in range(1, 6)],
            [{"activate": {}}, {"activate": {"phases": [phase]}}, {"activate": {"phases": [phase, phase + 1]}},
             {"activate": {"aim": rng.choice("LRB"), "front": rng.random() < 0.5}},
             {"activate": {"order": rng.choice(["first", "last"])}}],
        ]
        rng.shuffle(kinds)
        for choices in kinds:
            rng.shuffle(choices)
            for action in choices:
                if action_problem(bot, action, prices=prices, hand=hand, program=program) is None:
                    return action
        return None

    def program(self, rng: random.Random) -> list[str] | None:
        """A legal program from the current snapshot, or None when this player has nothing to submit."""
        me = (self.snapshot or {}).get("me")
        if not me or me["program"] is not None:
            return None  # a spectator, or rebooting (the server entered its program)
        frozen = {entry["register"]: entry["chip"] for entry in me["frozen"]}
        pool = list(me["hand"])
        bot = next((b for b in self.snapshot.get("bots", []) if b["id"] == me["bot"]), None)
        if me.get("ejected") or (bot and bot["at"] is None and bot["lives"] == 0) or len(pool) < 5 - len(frozen):
            return None  # out of the game
        # Damage 9 deals no chips and freezes all five registers: the player still sends that program.
        rng.shuffle(pool)
        return [frozen[index] if index in frozen else pool.pop() for index in range(5)]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        await self.session.close()


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)  # last request sent -> turn_resolved at a client
    by_turn: dict[int, list[float]] = field(default_factory=dict)  # the same, per turn number
    from_response: list[float] = field(default_factory=list)  # last response received -> turn_resolved
    last_request: list[float] = field(default_factory=list)  # the last program's request round trip
    # (game id, turn) -> (the last request sent, the turn_resolved arrivals), on the wall clock
    marks: dict[tuple[int, int], tuple[float, list[float]]] = field(default_factory=dict)
    turns_resolved: int = 0
    failures: list[str] = field(default_factory=list)


async def play_game(players: list[Player], game_id: int, turns: int, think: float, rng: random.Random,
                    results: Results, modules: bool = False) -> None:
    import aiohttp

    try:
        for turn in range(1, turns + 1):
            programs = [(player, player.program(rng)) for player in players]
            programs = [(player, {"turn": turn, "chips": chips, "reboot": False,
                                  **({"action": player.action(rng, chips)} if modules else {})})
                        for player, chips in programs if chips is not None]
            delays = sorted(rng.uniform(0, think) for _ in programs)
            rng.shuffle(programs)
            started = time.perf_counter()

            async def submit(player: Player, body: dict, delay: float) -> None:
                await asyncio.sleep(delay)
                await player.post(f"/api/games/{game_id}/program/", body)

            await asyncio.gather(*(submit(p, chips, delay) for (p, chips), delay in zip(programs[:-1], delays,
                                                                                        strict=False)))
            sent = answered = None
            if programs:
                last, body = programs[-1]
                await asyncio.sleep(max(0.0, started + delays[-1] - time.perf_counter()))
                sent = time.perf_counter()
                try:
                    await last.post(f"/api/games/{game_id}/program/", body)
                except TimeoutError:
                    raise BenchError(f"turn {turn}: {last.username}'s program (the last) got no answer in "
                                     f"{TURN_TIMEOUT:.0f} s") from None
                answered = time.perf_counter()
            try:
                arrivals = await asyncio.wait_for(asyncio.gather(*(asyncio.shield(p.resolved(turn)) for p in players)),
                                                  TURN_TIMEOUT)
            except TimeoutError:
                waiting = [p.username for p in players if not p.resolved(turn).done()]
                raise BenchError(f"turn {turn}: no turn_resolved in {TURN_TIMEOUT:.0f} s at {', '.join(waiting)}; "
                                 f"{len(programs)} of {len(players)} players had a program to send") from None
            for _, data in arrivals:
                if not data["events"] or data["events"][0].get("phase") != 1:
                    results.failures.append(f"game {game_id} turn {turn}: turn_resolved without phase events")
            if sent is not None:
                results.latencies.extend(arrived - sent for arrived, _ in arrivals)
                results.by_turn.setdefault(turn, []).extend(arrived - sent for arrived, _ in arrivals)
                results.from_response.extend(arrived - answered for arrived, _ in arrivals)
                results.last_request.append(answered - sent)
                results.marks[game_id, turn] = (sent + WALL, [arrived + WALL for arrived, _ in arrivals])
            results.turns_resolved += 1
            if turn < turns:
                going_on = await asyncio.gather(*(p.next_turn(turn) for p in players))
                if not all(going_on):
                    break
    except (BenchError, TimeoutError, aiohttp.ClientError) as error:
        results.failures.append(f"game {game_id}: {error!r}")


async def bounded(limit: int, coroutines) -> list:
    semaphore = asyncio.Semaphore(limit)

    async def run(coroutine):
        async with semaphore:
            return await coroutine

    return await asyncio.gather(*(run(c) for c in coroutines))


async def drive(stack: live.LiveStack, args, cpu: CpuMeter) -> tuple[Results, dict]:
    rng = random.Random(args.seed)
    tag = f"{int(time.time()) % 100000:05d}"
    urls = stack.base_urls
    players = [Player(urls[i % len(urls)], f"b{tag}-{i:04d}") for i in range(args.games * SEATS)]
    tables = [players[g * SEATS:(g + 1) * SEATS] for g in range(args.games)]
    timings = {}
    try:
        begun = time.perf_counter()
        await bounded(16, [player.sign_up() for player in players])
        timings["sign-up"] = time.perf_counter() - begun

        begun = time.perf_counter()
        create = {"course": COURSE, "max_seats": SEATS, **({"modules": "all"} if args.with_modules else {})}
        created = await bounded(32, [table[0].post("/api/games/", create, 201) for table in tables])
        game_ids = [game["id"] for game in created]

        async def seat(table: list[Player], game_id: int) -> None:
            for player in table[1:]:
                await player.post(f"/api/games/{game_id}/join/")

        await bounded(32, [seat(table, game_id) for table, game_id in zip(tables, game_ids, strict=True)])
        await bounded(64, [player.connect(game_id) for table, game_id in zip(tables, game_ids, strict=True)
                           for player in table])
        for player in players:
            if player.snapshot["status"] != "programming" or not player.snapshot["me"]["hand"]:
                raise BenchError(f"{player.username}: the game did not start with a hand: {player.snapshot}")
        timings["games"] = time.perf_counter() - begun

        results = Results()
        # The driver stands in for 400 browsers on machines of their own: its cyclic garbage collector, which
        # paused it for up to 250 ms walking half a million live objects (and freed none), must not count as
        # the site's latency. Reference counting still frees what play discards.
        gc.collect()
        gc.disable()
        cpu.start()
        begun = time.perf_counter()
        try:
            await asyncio.gather(*(play_game(table, game_id, args.turns, args.think, random.Random(rng.random()),
                                             results, args.with_modules)
                                   for table, game_id in zip(tables, game_ids, strict=True)))
        finally:
            gc.enable()
        timings["play"] = time.perf_counter() - begun
        timings["cpu"] = cpu.stop()
        timings["gaps"] = sum(player.gaps for player in players), sum(player.late for player in players)
        timings["resyncs"] = sum(player.resyncs for player in players)
        timings["overtaken"] = sum(player.overtaken for player in players)
        for player in players:
            results.failures.extend(f"{player.username}: {error}" for error in player.errors)
        return results, timings
    finally:
        await bounded(64, [player.close() for player in players])


def breakdown(database_url: str, marks: dict[tuple[int, int], tuple[float, list[float]]]) -> list[str]:
    """Where the time went, from the created_at of the turn_executing event (stored by the last program's
    request) and of the turn_resolved event (stored by the worker, just before its commit)."""
    import psycopg

    stored: dict[tuple[int, int], dict[str, float]] = {}
    with psycopg.connect(database_url.replace("postgres://", "postgresql://", 1)) as conn:
        rows = conn.execute("select game_id, (data->>'turn')::int, kind, extract(epoch from created_at) "
                            "from games_gameevent where kind in ('turn_executing', 'turn_resolved')")
        for game_id, turn, kind, at in rows:
            stored.setdefault((game_id, turn), {})[kind] = float(at)
    request, worker, delivery = [], [], []
    for key, (sent, arrivals) in marks.items():
        times = stored.get(key, {})
        if len(times) == 2:
            request.append(times["turn_executing"] - sent)
            worker.append(times["turn_resolved"] - times["turn_executing"])
            delivery.extend(arrived - times["turn_resolved"] for arrived in arrivals)
    return [f"  last request sent -> turn_executing stored (web): {spread(request)}",
            f"  turn_executing -> turn_resolved stored (commit, broker, worker): {spread(worker)}",
            f"  turn_resolved stored -> arrival at a client (commit, channel layer, web): {spread(delivery)}"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def spread(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"p50 {percentile(ms, 50):.0f}  p90 {percentile(ms, 90):.0f}  p99 {percentile(ms, 99):.0f}  "
            f"max {max(ms):.0f} ms (mean {statistics.fmean(ms):.0f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=int(os.environ.get("BENCH_GAMES", 100)))
    parser.add_argument("--turns", type=int, default=int(os.environ.get("BENCH_TURNS", 3)))
    parser.add_argument("--think", type=float, default=float(os.environ.get("BENCH_THINK", 20.0)),
                        help="each player thinks uniform(0, THINK) seconds before submitting (default 20)")
    parser.add_argument("--web", type=int, default=int(os.environ.get("BENCH_WEB", 1)),
                        help="uvicorn servers on ports of their own; players are spread over them (default 1)")
    parser.add_argument("--web-workers", type=int, default=int(os.environ.get("BENCH_WEB_WORKERS", 2)),
                        help="processes per uvicorn server, sharing its port (uvicorn --workers; default 2, "
                             "one per core)")
    parser.add_argument("--worker-concurrency", type=int, default=int(os.environ.get("BENCH_WORKER_CONCURRENCY", 2)),
                        help="turns the Celery worker resolves at once, in as many processes (default 2)")
    parser.add_argument("--worker-option", action="append", default=[],
                        help="extra option for the Celery worker, e.g. --worker-option=--pool=threads")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modules", choices=["off", "on", "both"], default=os.environ.get("BENCH_MODULES", "off"),
                        help="games with all bot modules and a random legal action per bot and turn (on), or "
                             "a run without then one with them, and the ratio of their p99s (both)")
    args = parser.parse_args()
    if args.modules != "both":
        args.with_modules = args.modules == "on"
        return run(args)[0]
    p99 = {}
    for with_modules in (False, True):
        args.with_modules = with_modules
        print(f"=== {'with' if with_modules else 'without'} bot modules ===", flush=True)
        code, p99[with_modules] = run(args)
        if code:
            return code
    ratio = p99[True] / p99[False] if p99[False] else float("inf")
    print(f"=== p99 without modules {p99[False] * 1000:.0f} ms, with modules {p99[True] * 1000:.0f} ms: "
          f"ratio {ratio:.2f} (target at most 1.5) ===")
    return 0


def run(args) -> tuple[int, float]:
    """One benchmark run; returns (exit code, the latency p99 in seconds)."""

    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    var = Path(tempfile.mkdtemp(prefix="roboracer-bench-site-"))
    env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url, "ROBORACER_VAR_DIR": str(var),
           "SECRET_KEY": "bench-site-not-secret", "DJANGO_SETTINGS_MODULE": "roboracer.settings"}
    try:
        prepare_database(database_url, fresh=database_url == DEFAULT_DATABASE_URL)
        prepare_redis(redis_url, flush=redis_url == DEFAULT_REDIS_URL)
        manage(env, "migrate", "--noinput")
        manage(env, "load_courses")
    except BenchError as error:
        print(f"bench-site: {error}", file=sys.stderr)
        return 2, 0.0

    stack = live.start(env=env, log_dir=var / "logs", worker_options=args.worker_option, web_servers=args.web,
                       web_workers=args.web_workers, worker_concurrency=args.worker_concurrency,
                       name="bench")
    try:
        try:
            import uvloop

            runner = uvloop.run
        except ImportError:
            runner = asyncio.run
        results, timings = runner(drive(stack, args, CpuMeter(stack, redis_url)))
        stack.check_alive()
        memory = {name: peak_rss_mb(process.pid) for name, process in stack.processes.items()}
    except BenchError as error:
        print(f"bench-site: {error}\nlogs in {var / 'logs'}", file=sys.stderr)
        return 1, 0.0
    finally:
        stack.stop()
    p99 = percentile(results.latencies, 99) if results.latencies else 0.0
    tracebacks = {name: path.read_text(errors="replace").count("Traceback (most recent call last)")
                  for name, path in stack.logs.items()}

    worker_options = " ".join([f"concurrency {args.worker_concurrency}", *args.worker_option])
    players = args.games * SEATS
    print(f"site benchmark: {args.games} games x {SEATS} players on {COURSE}, {args.turns} turns each, "
          f"think uniform(0, {args.think:g}) s before each program"
          + (", all 17 bot modules, a random legal module action with every program" if args.with_modules else ""))
    print(f"stack: PostgreSQL {urlsplit(database_url).path.lstrip('/')}, Redis {redis_url}, "
          f"{args.web} uvicorn server(s) of {args.web_workers} process(es), Celery worker {worker_options}")
    print(f"set-up: {players} sign-ups in {timings['sign-up']:.1f} s; games created, joined and "
          f"{players} WebSockets open in {timings['games']:.1f} s")
    print(f"games {args.games}, players {players}, turns resolved {results.turns_resolved}, "
          f"wall time {timings['play']:.1f} s, {results.turns_resolved / timings['play']:.1f} turns resolved/s"
          + (" (the think time bounds it; --think 0 gives the stack's capacity)" if args.think else ""))
    if results.latencies:
        print(f"latency, last program's request sent -> turn_resolved (first phase event) at each client, "
              f"{len(results.latencies)} samples:\n  {spread(results.latencies)}")
        for turn, values in sorted(results.by_turn.items()):
            print(f"  turn {turn}{' (every game starts at once)' if turn == 1 else ''}: {spread(values)}")
        print(f"  from the last program's response instead: {spread(results.from_response)}")
        print(f"  the last program's request itself: {spread(results.last_request)}")
        print("where the time goes (the event rows' created_at):", *breakdown(database_url, results.marks), sep="\n")
    gaps, late = timings["gaps"]
    print(f"event streams: {gaps} version(s) missing when a later one arrived (a client resyncs), {late} of them "
          f"arrived afterwards (out of order), {gaps - late} never (at-most-once delivery); "
          f"{timings.get('resyncs', 0)} resync(s) after a deal or its pushed snapshot that never came, "
          f"{timings.get('overtaken', 0)} after a pushed snapshot that events of the next turn overtook")
    print("peak RSS (VmHWM summed over each process tree): "
          + ", ".join(f"{name} {mb:.0f} MB ({count} process{'es' if count > 1 else ''})"
                      for name, (mb, count) in memory.items()))
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end; "
          "CPU seconds during play: " + ", ".join(f"{name} {seconds:.1f}" for name, seconds in timings["cpu"].items())
          + f" (of {os.cpu_count() * timings['play']:.0f} on {os.cpu_count()} cores)")
    print("tracebacks in the server logs: " + ", ".join(f"{name} {count}" for name, count in tracebacks.items()))
    if any(tracebacks.values()):
        results.failures.append(f"the servers logged {sum(tracebacks.values())} traceback(s)")
    if results.failures:
        print(f"FAILURES ({len(results.failures)}):", *results.failures[:20], sep="\n  ")
        print(f"logs in {var / 'logs'}")
        return 1, p99
    import shutil

    shutil.rmtree(var, ignore_errors=True)
    return 0, p99


if __name__ == "__main__":
    sys.exit(main())
