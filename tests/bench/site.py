"""Site benchmark: many concurrent 4-player games through the whole live stack. Prints figures, not pass/fail.

The stack: PostgreSQL and Redis (the machine's; database `bench`, Redis db 5 by default), a Celery worker
resolving two turns at once (WORKER_CONCURRENCY=2), the computer players' worker, and uvicorn with two
processes on one port (WEB_WORKERS=2), one of each per core, started on loopback with the commands
roboracer.run defines (tests/live.py). The driver is one asyncio process (aiohttp): the users and their
sessions are made in the database in one go (tests/bench/bench_users.py; --sign-up api signs each up over the
API instead, a password hash each), each gets a CSRF cookie, creators create games on Bolt Bay with 4 seats,
three others join each (the game starts when full), and every player opens the game's WebSocket and reads its
snapshot (its hand).

Each turn of each game: every player thinks for a random time (uniform in 0..--think seconds, 20 by
default: people take that long to pick five chips, and it makes 100 games offer about 5 turns a second;
--think 0 is the stack's capacity), then submits a legal program: five chips from its hand as a multiset,
frozen registers keeping their chip. Programs go as a "program" frame on the open game socket, as the browser
sends them (--submit http: POST .../program/; a tree without program frames, --against an older commit, gets
HTTP). The player with the longest think submits last, once the other programs have been answered, so its
program is the one that makes the turn execute. Latency is measured from the moment just BEFORE the last
program is sent to the arrival of `turn_resolved` (the message that carries the turn's phase events) at each
of the game's four WebSockets; one sample per (client, turn). After `turn_dealt` the server pushes each player
its snapshot with the new hand (as the browser gets it); a player that gets none within 15 s sends
`{"type": "sync"}` instead (counted as a resync).

The driver stands in for 400 browsers on machines of their own, so its cyclic garbage collector is off
while the games play: with it on, its full collections (half a million live objects, none freed) paused it
for up to 250 ms, and that pause counted as the site's latency.

Printed: games, players, turns resolved, wall time of the play phase, turns resolved per second, latency
p50/p90/p99/max, the peak RSS (VmHWM, summed over each process tree) of the web server(s) and the worker,
the CPU seconds each party used while the games played, and the CPU per turn resolved of each.

Modes (docs/performance.md):
- --curve: one run per number of games (25, 50, 100, 200, 400), then a --think 0 run (the capacity, in turns
  resolved per second and per core), and a table of p50/p99, turns/s, CPU per turn per process, peak memory,
  version gaps, missed turns and tracebacks for each.
- --against REV: every run is made on commit REV too (extracted with git archive, its own command lines),
  interleaved with this checkout's: the before/after comparison in one run on one machine.
- --profile: py-spy samples the web and worker processes during play; prints where the CPU goes, by layer
  and by our own functions, in ms per turn (tests/bench/profiling.py).
- --web N: N uvicorn servers on ports of their own (players spread over them) and N Celery turn workers, one
  process each by default: scaling out.
- --modules on|both: games with all 17 bot modules and a random legal module action with every program;
  both runs without then with them and prints the ratio of their p99s.

Run: make bench-site, or .venv/bin/python tests/bench/site.py [--games 100] [--turns 3] [--think 20]
[--curve] [--against REV] [--profile] [--web 1] [--web-workers 2] [--worker-concurrency 2] ...
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
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import live  # noqa: E402
from tests.bench.bench_db import CLOCK_TICKS, BenchError, cpu_seconds, pids_named, prepare_database  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"
COURSE = "bolt-bay"
SEATS = 4
PASSWORD = "bench passphrase 1"
TURN_TIMEOUT = 60.0
RESYNC_AFTER = 15.0  # no turn_dealt (or no pushed snapshot after it) this long: ask for a snapshot
WALL = time.time() - time.perf_counter()  # perf_counter() + WALL: the wall clock, to compare with the server's


# --- services -------------------------------------------------------------------------------------------


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


def manage(env: dict[str, str], *args: str, root: Path = ROOT) -> None:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=root, env={**os.environ, **env},
                            capture_output=True, text=True)
    if result.returncode:
        raise BenchError(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")


def bench_users(env: dict[str, str], prefix: str, count: int, root: Path = ROOT) -> list[tuple[str, str]]:
    """`count` users, each with a session as log-in stores it (tests/bench/bench_users.py): [(name, key)]."""
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "bench" / "bench_users.py"), prefix, str(count),
                             str(root)], cwd=root, env={**os.environ, **env}, capture_output=True, text=True)
    if result.returncode:
        raise BenchError(f"bench_users.py failed:\n{result.stdout}{result.stderr}")
    return [tuple(pair) for pair in json.loads(result.stdout)]


def source_tree(revision: str) -> Path:
    """The files of `revision` of this repository, extracted into a temporary folder (git archive)."""
    resolved = subprocess.run(["git", "rev-parse", "--verify", f"{revision}^{{commit}}"], cwd=ROOT,
                              capture_output=True, text=True)
    if resolved.returncode:
        raise BenchError(f"--against {revision}: not a commit of this repository")
    commit = resolved.stdout.strip()
    folder = Path(tempfile.gettempdir()) / f"roboracer-bench-{commit[:12]}"
    if not (folder / "manage.py").exists():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


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


def pid_is_python(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip().startswith(("python", "celery", "uvicorn"))
    except OSError:
        return False


class CpuMeter:
    """CPU seconds used by the stack's processes, the driver, PostgreSQL and Redis between start and stop
    (a process's own time plus that of its children it has reaped, e.g. PostgreSQL's connection backends)."""

    def __init__(self, stack: live.LiveStack, redis_url: str):
        redis = urlsplit(redis_url)
        self.groups = {
            "web": lambda: [p for name, proc in stack.processes.items() if name.startswith("web")
                            for p in process_tree(proc.pid)],
            "worker": lambda: [p for name, proc in stack.processes.items() if name.startswith("worker")
                               for p in process_tree(proc.pid)],
            "computers": lambda: process_tree(stack.processes["computers"].pid),
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
        self._replies: dict[int, asyncio.Future] = {}  # program frames sent over the socket, by their id
        self._next_id = 0
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

    async def use_session(self, session_key: str) -> None:
        """Signed in already (a session made by bench_users.py): send its cookie, and get a CSRF cookie."""
        from yarl import URL

        self.session.cookie_jar.update_cookies({"sessionid": session_key}, response_url=URL(self.base_url))
        status, data = await self.request("GET", "/api/auth/csrf/")
        if status != 200:
            raise BenchError(f"GET /api/auth/csrf/ answered {status}")

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
            elif kind in ("program_accepted", "error") and message.get("id") in self._replies:
                future = self._replies.pop(message["id"])
                if not future.done():
                    future.set_result(message)
            else:
                self.errors.append(f"unexpected message {message}")

    async def submit(self, game_id: int, body: dict, over_socket: bool) -> None:
        """A program: POST /api/games/<id>/program/, or a "program" frame on the open socket and its answer."""
        if not over_socket:
            await self.post(f"/api/games/{game_id}/program/", body)
            return
        self._next_id += 1
        future = self._replies[self._next_id] = asyncio.get_running_loop().create_future()
        await self.ws.send_str(json.dumps({"type": "program", "id": self._next_id, **body}))
        reply = await asyncio.wait_for(future, TURN_TIMEOUT)
        if reply["type"] != "program_accepted":
            raise BenchError(f"{self.username}: program frame refused: {reply.get('code')}: {reply.get('detail')}")

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
                    results: Results, modules: bool = False, over_socket: bool = False, offset: float = 0.0) -> None:
    import aiohttp

    try:
        await asyncio.sleep(offset)  # --start spread: this game's players sit down this much later
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
                await player.submit(game_id, body, over_socket)

            await asyncio.gather(*(submit(p, chips, delay) for (p, chips), delay in zip(programs[:-1], delays,
                                                                                        strict=False)))
            sent = answered = None
            if programs:
                last, body = programs[-1]
                await asyncio.sleep(max(0.0, started + delays[-1] - time.perf_counter()))
                sent = time.perf_counter()
                try:
                    await last.submit(game_id, body, over_socket)
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


async def drive(stack: live.LiveStack, args, cpu: CpuMeter, tag: str,
                accounts: list[tuple[str, str]] | None, profiler=None) -> tuple[Results, dict]:
    rng = random.Random(args.seed)
    urls = stack.base_urls
    names = [name for name, _ in accounts] if accounts else [f"{tag}-{i:04d}" for i in range(args.games * SEATS)]
    players = [Player(urls[i % len(urls)], name) for i, name in enumerate(names)]
    tables = [players[g * SEATS:(g + 1) * SEATS] for g in range(args.games)]
    timings = {}
    try:
        begun = time.perf_counter()
        if accounts:
            await bounded(64, [player.use_session(key) for player, (_, key) in zip(players, accounts, strict=True)])
        else:
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

        if args.idle:
            # The stack's fixed cost: every socket open, every game waiting for programs, nobody moving.
            await asyncio.sleep(2)  # the last snapshots sent
            cpu.start()
            await asyncio.sleep(args.idle)
            timings["idle"] = cpu.stop()

        results = Results()
        # The driver stands in for 400 browsers on machines of their own: its cyclic garbage collector, which
        # paused it for up to 250 ms walking half a million live objects (and freed none), must not count as
        # the site's latency. Reference counting still frees what play discards.
        gc.collect()
        gc.disable()
        cpu.start()
        if profiler is not None:
            profiler.start({group: [pid for pid in pids() if pid_is_python(pid)]
                            for group, pids in cpu.groups.items() if group in ("web", "worker", "computers")})
        begun = time.perf_counter()
        try:
            # --start spread: each game's first turn begins at a moment of its own in the first think window,
            # as on a site where games start one after another; together: all at once, a tournament round.
            offsets = [rng.uniform(0, args.think) if args.start == "spread" else 0.0 for _ in game_ids]
            await asyncio.gather(*(play_game(table, game_id, args.turns, args.think, random.Random(rng.random()),
                                             results, args.with_modules, args.submit_ws, offset)
                                   for table, game_id, offset in zip(tables, game_ids, offsets, strict=True)))
        finally:
            gc.enable()
            if profiler is not None:
                profiler.stop()
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


CURVE = (25, 50, 100, 200, 400)
GROUPS = ("web", "worker", "computers", "postgres", "redis")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=int(os.environ.get("BENCH_GAMES", 100)))
    parser.add_argument("--turns", type=int, default=int(os.environ.get("BENCH_TURNS", 3)))
    parser.add_argument("--think", type=float, default=float(os.environ.get("BENCH_THINK", 20.0)),
                        help="each player thinks uniform(0, THINK) seconds before submitting (default 20)")
    parser.add_argument("--web", type=int, default=int(os.environ.get("BENCH_WEB", 1)),
                        help="uvicorn servers on ports of their own, players spread over them, and as many Celery "
                             "worker processes for turns (default 1)")
    parser.add_argument("--web-workers", type=int, default=os.environ.get("BENCH_WEB_WORKERS"),
                        help="processes per uvicorn server, sharing its port (uvicorn --workers; default 2, "
                             "one per core; 1 with --web 2 or more)")
    parser.add_argument("--worker-concurrency", type=int, default=os.environ.get("BENCH_WORKER_CONCURRENCY"),
                        help="turns each Celery turn worker resolves at once, in as many processes (default 2; "
                             "1 with --web 2 or more: two servers and two worker processes)")
    parser.add_argument("--worker-option", action="append", default=[],
                        help="extra option for the Celery worker, e.g. --worker-option=--pool=threads")
    parser.add_argument("--start", choices=["together", "spread"], default=os.environ.get("BENCH_START", "together"),
                        help="together (default): every game's first turn starts at once, as a tournament round "
                             "does; spread: each game starts at a random moment in the first think window, as "
                             "games do on a site in its steady state")
    parser.add_argument("--idle", type=float, default=0.0, metavar="SECONDS",
                        help="before play, measure the CPU the stack uses for SECONDS with every socket open and "
                             "nobody moving (its fixed cost per second)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modules", choices=["off", "on", "both"], default=os.environ.get("BENCH_MODULES", "off"),
                        help="games with all bot modules and a random legal action per bot and turn (on), or "
                             "a run without then one with them, and the ratio of their p99s (both)")
    parser.add_argument("--sign-up", choices=["fixture", "api"], default="fixture",
                        help="fixture (default): the users and their sessions are made in the database in one go "
                             "(tests/bench/bench_users.py); api: each signs up over the API (a password hash each)")
    parser.add_argument("--submit", choices=["auto", "http", "ws"], default="auto",
                        help="programs go over HTTP (POST .../program/) or the game's open WebSocket (a "
                             "\"program\" frame); auto: the WebSocket where the tree has it (default)")
    parser.add_argument("--profile", action="store_true",
                        help="sample the web and worker processes with py-spy during play, print where the CPU goes")
    parser.add_argument("--against", metavar="REV",
                        help="also run every measurement on commit REV (extracted with git archive), interleaved "
                             "with this checkout's, and print both")
    parser.add_argument("--curve", nargs="?", const=",".join(map(str, CURVE)), metavar="GAMES,...",
                        help=f"one run per number of games (default {','.join(map(str, CURVE))}), a table of "
                             "latency, throughput, CPU per turn and memory for each, then the capacity with "
                             "--think 0 (at --capacity-games games)")
    parser.add_argument("--capacity-games", type=int, default=100,
                        help="games in the --think 0 capacity run of --curve (default 100)")
    args = parser.parse_args()
    # One process of each kind per core: 2 web processes and 2 worker processes on this 2-core machine, as one
    # server of two (the default) or as two servers of one with two workers of one (--web 2, scaling out).
    args.web_workers = int(args.web_workers or (2 if args.web == 1 else 1))
    args.worker_concurrency = int(args.worker_concurrency or (2 if args.web == 1 else 1))
    trees = [("this checkout", ROOT)]
    if args.against:
        try:
            trees.insert(0, (f"against {args.against}", source_tree(args.against)))
        except BenchError as error:
            print(f"bench-site: {error}", file=sys.stderr)
            return 2
    if args.curve:
        return curve(args, trees)
    if args.modules != "both":
        args.with_modules = args.modules == "on"
        code = 0
        for label, root in trees:
            if len(trees) > 1:
                print(f"=== {label} ===", flush=True)
            code = max(code, run(args, root)[0])
        return code
    p99 = {}
    for with_modules in (False, True):
        args.with_modules = with_modules
        print(f"=== {'with' if with_modules else 'without'} bot modules ===", flush=True)
        code, figures = run(args)
        if code:
            return code
        p99[with_modules] = figures["p99"]
    ratio = p99[True] / p99[False] if p99[False] else float("inf")
    print(f"=== p99 without modules {p99[False] * 1000:.0f} ms, with modules {p99[True] * 1000:.0f} ms: "
          f"ratio {ratio:.2f} (target at most 1.5) ===")
    return 0


def curve(args, trees: list[tuple[str, Path]]) -> int:
    """The --curve mode: every point (and the capacity run) on each tree in turn, then the tables."""
    args.with_modules = args.modules == "on"
    points = [int(games) for games in args.curve.split(",")]
    rows: list[tuple[str, dict]] = []
    code = 0
    for games in points:
        for label, root in trees:
            args.games = games
            print(f"=== {games} games, {label} ===", flush=True)
            status, figures = run(args, root)
            code = max(code, status)
            rows.append((label, figures))
    capacity: list[tuple[str, dict]] = []
    think = args.think
    for label, root in trees:
        args.games, args.think = args.capacity_games, 0.0
        print(f"=== capacity: {args.games} games, --think 0, {label} ===", flush=True)
        status, figures = run(args, root)
        code = max(code, status)
        capacity.append((label, figures))
    args.think = think
    print()
    print(f"=== the curve: {args.turns} turns per game, think uniform(0, {think:g}) s, games starting "
          f"{'at once' if args.start == 'together' else 'spread over the first think window'}, {args.web} web server(s) of "
          f"{args.web_workers} process(es), worker concurrency {args.worker_concurrency}, {os.cpu_count()} cores ===")
    print(*curve_table(rows), sep="\n")
    cores = os.cpu_count() or 1
    print(f"=== capacity with --think 0 ({args.capacity_games} games, {args.turns} turns each) ===")
    for label, figures in capacity:
        rate = figures.get("turns_per_s", 0.0)
        print(f"  {label}: {rate:.1f} turns resolved/s, {rate / cores:.1f} per core ({cores} cores); "
              f"p50 {figures.get('p50', 0) * 1000:.0f} ms, p99 {figures.get('p99', 0) * 1000:.0f} ms; "
              f"CPU {figures.get('cpu_per_turn', {}).get('total', 0):.0f} ms per turn")
    return code


def curve_table(rows: list[tuple[str, dict]]) -> list[str]:
    head = (f"{'games':>5} {'tree':<22} {'p50':>6} {'p99':>6} {'turns/s':>7}  CPU ms per turn: "
            f"{'web':>5} {'worker':>6} {'comp':>5} {'pg':>5} {'redis':>5} {'total':>6}  peak MB: {'web':>5} "
            f"{'worker':>6}  gaps missed tracebacks  CPU/before")
    lines = [head]
    before: dict | None = None  # the --against tree's figures, run just before this checkout's at that point
    for label, f in rows:
        if "p99" not in f:
            lines.append(f"{f.get('games', 0):>5} {label[:22]:<22} (did not run: {f.get('error', '?')})")
            before = None
            continue
        per = f["cpu_per_turn"]
        ratio = ""
        if label.startswith("against"):
            before = f
        elif before is not None and before["games"] == f["games"] and before["cpu_per_turn"]["total"]:
            ratio = f"{per['total'] / before['cpu_per_turn']['total']:.2f}"
            before = None
        lines.append(f"{f['games']:>5} {label[:22]:<22} {f['p50'] * 1000:>6.0f} {f['p99'] * 1000:>6.0f} "
                     f"{f['turns_per_s']:>7.1f}                  {per.get('web', 0):>5.0f} {per.get('worker', 0):>6.0f} "
                     f"{per.get('computers', 0):>5.0f} {per.get('postgres', 0):>5.0f} {per.get('redis', 0):>5.0f} "
                     f"{per['total']:>6.0f}           {f['memory'].get('web', 0):>5.0f} "
                     f"{f['memory'].get('worker', 0):>6.0f}  {f['gaps']:>4} {f['missed']:>6} {f['tracebacks']:>10}  {ratio:>10}")
    return lines


def run(args, root: Path = ROOT) -> tuple[int, dict]:
    """One benchmark run of the tree at `root`; returns (exit code, its figures)."""

    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    var = Path(tempfile.mkdtemp(prefix="roboracer-bench-site-"))
    env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url, "ROBORACER_VAR_DIR": str(var),
           "SECRET_KEY": "bench-site-not-secret", "DJANGO_SETTINGS_MODULE": "roboracer.settings"}
    if root != ROOT:
        env["PYTHONPATH"] = str(root)
    figures: dict = {"games": args.games}
    tag = f"b{int(time.time() * 10) % 1000000:06d}"
    try:
        prepare_database(database_url, fresh=database_url == DEFAULT_DATABASE_URL)
        prepare_redis(redis_url, flush=redis_url == DEFAULT_REDIS_URL)
        manage(env, "migrate", "--noinput", root=root)
        manage(env, "load_courses", root=root)
        accounts = bench_users(env, tag, args.games * SEATS, root) if args.sign_up == "fixture" else None
    except BenchError as error:
        print(f"bench-site: {error}", file=sys.stderr)
        return 2, {**figures, "error": str(error)[:80]}

    stack = live.start(env=env, log_dir=var / "logs", worker_options=args.worker_option, web_servers=args.web,
                       web_workers=args.web_workers, worker_concurrency=args.worker_concurrency,
                       name="bench", root=root, turn_workers=args.web)
    args.submit_ws = args.submit == "ws" or (args.submit == "auto" and tree_takes_ws_programs(root))
    profiler = None
    if args.profile:
        from tests.bench.profiling import Profiler

        profiler = Profiler(var / "profile") if Profiler.available() else None
        if profiler is None:
            print("bench-site: --profile needs py-spy (pip install py-spy); running without it", file=sys.stderr)
    try:
        try:
            import uvloop

            runner = uvloop.run
        except ImportError:
            runner = asyncio.run
        results, timings = runner(drive(stack, args, CpuMeter(stack, redis_url), tag, accounts, profiler))
        stack.check_alive()
        memory: dict[str, tuple[float, int]] = {}
        for name, process in stack.processes.items():  # web, web2... as "web"; worker, worker2... as "worker"
            group = name.rstrip("0123456789")
            mb, count = peak_rss_mb(process.pid)
            memory[group] = (memory.get(group, (0.0, 0))[0] + mb, memory.get(group, (0.0, 0))[1] + count)
    except BenchError as error:
        print(f"bench-site: {error}\nlogs in {var / 'logs'}", file=sys.stderr)
        return 1, {**figures, "error": str(error)[:80]}
    finally:
        stack.stop()
    p99 = percentile(results.latencies, 99) if results.latencies else 0.0
    tracebacks = {name: path.read_text(errors="replace").count("Traceback (most recent call last)")
                  for name, path in stack.logs.items()}

    worker_options = " ".join([f"concurrency {args.worker_concurrency}", *args.worker_option])
    players = args.games * SEATS
    print(f"site benchmark: {args.games} games x {SEATS} players on {COURSE}, {args.turns} turns each, "
          f"think uniform(0, {args.think:g}) s before each program, "
          + ("games starting at once" if args.start == "together" else "each game starting at a random moment of "
             "the first think window")
          + (", all 17 bot modules, a random legal module action with every program" if args.with_modules else ""))
    print(f"stack: {'tree ' + str(root) + ', ' if root != ROOT else ''}PostgreSQL "
          f"{urlsplit(database_url).path.lstrip('/')}, Redis {redis_url}, "
          f"{args.web} uvicorn server(s) of {args.web_workers} process(es), {args.web} Celery turn worker(s) of "
          f"{worker_options}; "
          f"programs over {'the WebSocket' if args.submit_ws else 'HTTP'}")
    print(f"set-up: {players} {'sessions made' if accounts else 'sign-ups'} in {timings['sign-up']:.1f} s; games "
          f"created, joined and {players} WebSockets open in {timings['games']:.1f} s")
    print(f"games {args.games}, players {players}, turns resolved {results.turns_resolved}, "
          f"wall time {timings['play']:.1f} s, {results.turns_resolved / timings['play']:.1f} turns resolved/s"
          + (" (the think time bounds it; --think 0 gives the stack's capacity)" if args.think else ""))
    if results.latencies:
        print(f"latency, last program sent -> turn_resolved (first phase event) at each client, "
              f"{len(results.latencies)} samples:\n  {spread(results.latencies)}")
        for turn, values in sorted(results.by_turn.items()):
            print(f"  turn {turn}{' (every game starts at once)' if turn == 1 and args.start == 'together' else ''}: {spread(values)}")
        print(f"  from the last program's answer instead: {spread(results.from_response)}")
        print(f"  the last program's round trip itself: {spread(results.last_request)}")
        print("where the time goes (the event rows' created_at):", *breakdown(database_url, results.marks), sep="\n")
    gaps, late = timings["gaps"]
    print(f"event streams: {gaps} version(s) missing when a later one arrived (a client resyncs), {late} of them "
          f"arrived afterwards (out of order), {gaps - late} never (at-most-once delivery); "
          f"{timings.get('resyncs', 0)} resync(s) after a deal or its pushed snapshot that never came, "
          f"{timings.get('overtaken', 0)} after a pushed snapshot that events of the next turn overtook")
    print("peak RSS (VmHWM summed over each process tree): "
          + ", ".join(f"{name} {mb:.0f} MB ({count} process{'es' if count > 1 else ''})"
                      for name, (mb, count) in memory.items()))
    turns = max(results.turns_resolved, 1)
    cpu_per_turn = {name: seconds * 1000 / turns for name, seconds in timings["cpu"].items()}
    cpu_per_turn["total"] = sum(value for name, value in cpu_per_turn.items() if name in GROUPS)
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end; "
          "CPU seconds during play: " + ", ".join(f"{name} {seconds:.1f}" for name, seconds in timings["cpu"].items())
          + f" (of {os.cpu_count() * timings['play']:.0f} on {os.cpu_count()} cores)")
    if "idle" in timings:
        print(f"idle, {args.idle:g} s with {players} sockets open and nobody moving, CPU ms a second: "
              + ", ".join(f"{name} {seconds * 1000 / args.idle:.1f}" for name, seconds in timings["idle"].items()))
    print("CPU per turn resolved: " + ", ".join(f"{name} {ms:.1f} ms" for name, ms in cpu_per_turn.items())
          + " (total: the site's processes, PostgreSQL and Redis; not the driver)")
    print("tracebacks in the server logs: " + ", ".join(f"{name} {count}" for name, count in tracebacks.items()))
    if profiler is not None:
        from tests.bench.profiling import tables

        print("where the CPU goes (py-spy samples during play, scaled to each group's CPU per turn):",
              *tables(profiler, timings["cpu"], results.turns_resolved), sep="\n")
    if any(tracebacks.values()):
        results.failures.append(f"the servers logged {sum(tracebacks.values())} traceback(s)")
    figures.update(p50=percentile(results.latencies, 50) if results.latencies else 0.0, p99=p99,
                   turns_per_s=results.turns_resolved / timings["play"], cpu_per_turn=cpu_per_turn,
                   memory={name: mb for name, (mb, _) in memory.items()}, gaps=gaps - late,
                   missed=args.games * args.turns - results.turns_resolved, tracebacks=sum(tracebacks.values()))
    if results.failures:
        print(f"FAILURES ({len(results.failures)}):", *results.failures[:20], sep="\n  ")
        print(f"logs in {var / 'logs'}")
        return 1, figures
    import shutil

    if profiler is not None:
        kept = Path(tempfile.gettempdir()) / "roboracer-bench-profile"
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(var / "profile", kept)
        print(f"py-spy's raw stacks (collapsed; flamegraph.pl or speedscope read them) in {kept}")
    shutil.rmtree(var, ignore_errors=True)
    return 0, figures


def tree_takes_ws_programs(root: Path) -> bool:
    """Whether that tree's game socket takes programs (a "program" frame): the newer ones do."""
    consumers = root / "games" / "consumers.py"
    return consumers.exists() and '"program"' in consumers.read_text()


if __name__ == "__main__":
    sys.exit(main())
