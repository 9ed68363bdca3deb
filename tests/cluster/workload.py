"""The cluster's workload and its checker (like Jepsen: run a bounded workload, inject a fault, check the history).

The workload: GAMES four-player games on Bolt Bay, TURNS turns each, every player a client of its own through the
load balancer (so over both web hosts): an aiohttp session with its own keep-alive connection and one game
WebSocket. Each client thinks uniform(0, THINK) s, sends its program as a "program" frame on the socket (as the
browser does), waits for the next deal's pushed snapshot (asking for one with a sync when none comes), and reads
the game over HTTP once a turn. When its socket closes (its web host died), it reconnects through the load
balancer (to the other web host) and resyncs from the snapshot; a program sent but not answered is sent again
unless that snapshot shows it stored. Every client records what it sent, what was acknowledged, every event
version and snapshot it received, every reconnect and every HTTP status, with the time.

The checker reads the cluster's database afterwards and asserts, for a run with its fault windows:
- every acknowledged program is the one its resolved turn played (Turn.programs);
- every turn is resolved exactly once (one Turn row and one turn_resolved event per game and turn) and every
  game played all its turns;
- every client ends with contiguous versions: its last version is the game's, every event it applied followed
  the one before (or a snapshot), and it needed at most one resync (a reconnect or a gap repaired from a
  snapshot) per fault;
- no 5xx answer outside the fault windows;
and it measures the time to recover: from the fault to the first turn resolved after it, the slowest game's.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COURSE = "bolt-bay"
SEATS = 4
# No deal's snapshot this long after a program: ask for one. Longer than the worst case of beat's sweep, which
# sends a lost resolution again (games.tasks: stuck for 10 s, swept every 5 s): that wait is the fault's.
RESYNC_AFTER = 20.0
CONNECT_FOR = 90.0  # a client gives up reconnecting after this long
GRACE = 3.0  # seconds after a fault window's end during which a 5xx still counts as the fault's
# An event that skips versions is held this long for the missing ones before the client asks for a snapshot.
# Each event is published after its commit by the process that stored it, so two events of one game stored
# a few ms apart on two web hosts can reach Redis in the other order (docs/cluster.md, "Status"): that is a
# delivery out of order, not a loss, and the client puts them back in order without a resync.
REORDER_WAIT = 0.5


class WorkloadError(Exception):
    pass


def now() -> float:
    return time.monotonic()


@dataclass
class Fault:
    name: str
    started: float
    ended: float | None = None  # when the host was back (or the fault healed)
    detail: str = ""


@dataclass
class Run:
    state: dict  # the cluster's state file (roboracer/cluster.py)
    games: int
    turns: int
    think: float
    seed: int = 1
    clients: list[Client] = field(default_factory=list)
    game_ids: list[int] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    began: float = 0.0
    ended: float = 0.0
    resolved: dict[int, dict[int, float]] = field(default_factory=dict)  # game -> turn -> first arrival
    # Games made with these options too (a scenario's move clock: {"timer_preset": "custom", "move_time": 15, ...})
    game_options: dict = field(default_factory=dict)
    # The turn in which each game's first player sends nothing (its deadline falls due; beat's policy plays it)
    withhold_turn: int | None = None
    # A client asks for a snapshot after this long without the next deal: longer than the faults that hold a
    # game without losing anything (a 20 s partition), so that one sync repairs what a fault lost.
    resync_after: float = 30.0

    def progress(self) -> int:
        """The turn every game has resolved at least (0 before the first)."""
        finished = {client.game_id for client in self.clients if client.finished}
        return min((self.last_resolved(g) for g in self.game_ids if g not in finished), default=self.turns)

    def leading(self) -> int:
        """The turn the game furthest ahead has resolved (0 before the first)."""
        return max(map(self.last_resolved, self.game_ids), default=0)

    def last_resolved(self, game_id: int) -> int:
        return max(self.resolved.get(game_id, {}), default=0)


class Client:
    def __init__(self, run: Run, username: str, session_key: str, rng: random.Random):
        self.run = run
        self.username = username
        self.session_key = session_key
        self.rng = rng
        self.base_url = run.state["url"].rstrip("/")
        self.history: list[tuple] = []  # (time, kind, data...)
        self.http: list[tuple[float, str, int]] = []  # (time, what, status)
        self.game_id: int | None = None
        self.bot: int | None = None
        self.session = None
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.snapshot: dict | None = None
        self.version = 0
        self.resyncing = False
        self.buffered: list[dict] = []
        self.held: dict[int, dict] = {}  # events past a gap, waiting REORDER_WAIT s for the missing versions
        self.gap_timer: asyncio.TimerHandle | None = None
        self.reordered = 0  # gaps the missing versions filled within REORDER_WAIT s (no resync)
        self.connected = asyncio.Event()
        self.changed = asyncio.Event()
        self.replies: dict[int, asyncio.Future] = {}
        self.next_id = 0
        self.connects = 0
        self.resyncs = 0  # reconnect snapshots and gaps repaired from a snapshot
        self.withhold_turn_skipped: bool | None = None  # None until the withheld turn comes
        self.withholds = False  # this client sends nothing in run.withhold_turn (its game's first player)
        self.stall_syncs = 0  # syncs asked for because no deal came in RESYNC_AFTER s (a stalled cluster)
        self.acked: dict[int, list[str]] = {}  # turn -> chips the server acknowledged
        self.sent: dict[int, list[str]] = {}
        self.servers: list[str] = []  # the web host of each socket (HAProxy's X-Served-By)
        self.errors: list[str] = []
        self.finished = False  # a game_finished event or a finished snapshot

    def log(self, kind: str, *data) -> None:
        self.history.append((now(), kind, *data))

    # --- HTTP ------------------------------------------------------------------------------------------------

    async def open(self) -> None:
        import aiohttp
        from yarl import URL

        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                             connector=aiohttp.TCPConnector(limit=2, keepalive_timeout=2),
                                             timeout=aiohttp.ClientTimeout(total=30))
        self.session.cookie_jar.update_cookies({"sessionid": self.session_key}, response_url=URL(self.base_url))
        await self.request("GET", "/api/auth/csrf/", retry=True)

    def csrf(self) -> str:
        return next((cookie.value for cookie in self.session.cookie_jar if cookie.key == "csrftoken"), "")

    async def request(self, method: str, path: str, body: dict | None = None, retry: bool = False
                      ) -> tuple[int, dict]:
        """One request through the load balancer; its status is recorded. With `retry`, a connection error or a
        5xx is tried again (for up to CONNECT_FOR s) for requests that are safe to repeat."""
        import aiohttp

        deadline = now() + CONNECT_FOR
        while True:
            headers = {"X-CSRFToken": self.csrf()} if method != "GET" else {}
            try:
                async with self.session.request(method, f"{self.base_url}{path}", json=body,
                                                headers=headers) as response:
                    text = await response.text()
                    self.http.append((now(), f"{method} {path}", response.status))
                    if response.status < 500 or not retry or now() > deadline:
                        try:
                            return response.status, json.loads(text) if text else {}
                        except ValueError:
                            return response.status, {"detail": text[:200]}
            except (TimeoutError, aiohttp.ClientError) as error:
                self.http.append((now(), f"{method} {path}", 0))
                if not retry or now() > deadline:
                    raise WorkloadError(f"{self.username}: {method} {path}: {error!r}") from None
            await asyncio.sleep(0.3)

    # --- the game socket -------------------------------------------------------------------------------------

    async def connect(self) -> None:
        """Open the game's socket through the load balancer and wait for its snapshot, trying again (for up to
        CONNECT_FOR s) while no web host takes it or it closes first. A reconnect's snapshot is a resync."""
        import aiohttp

        deadline = now() + CONNECT_FOR
        while True:
            if now() > deadline:
                raise WorkloadError(f"{self.username}: no socket through the load balancer in {CONNECT_FOR:g} s")
            try:
                self.connected.clear()
                ws = await self.session.ws_connect(f"{self.base_url}/ws/games/{self.game_id}/",
                                                   origin=self.base_url, max_msg_size=0, autoping=True,
                                                   heartbeat=5)
            except aiohttp.WSServerHandshakeError as error:
                self.http.append((now(), "websocket handshake", error.status))
                self.log("connect_failed", error.status)
                await asyncio.sleep(0.3)
                continue
            except (aiohttp.ClientError, TimeoutError, OSError) as error:
                self.log("connect_failed", repr(error)[:80])
                await asyncio.sleep(0.3)
                continue
            self.ws = ws
            server = ws._response.headers.get("X-Served-By", "?")
            self.servers.append(server)
            self.log("connect", server)
            self.resyncing = True  # until the snapshot comes
            self.buffered = []
            self.drop_held()
            self.reader = asyncio.create_task(self.read(ws))
            waiter = asyncio.create_task(self.connected.wait())
            await asyncio.wait([waiter, self.reader], timeout=30, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if self.connected.is_set():
                self.connects += 1
                if self.connects > 1:  # the first snapshot of a reconnect: a resync
                    self.resyncs += 1
                return
            self.log("no_snapshot")
            if not ws.closed:
                await ws.close()
            await asyncio.gather(self.reader, return_exceptions=True)

    async def read(self, ws) -> None:
        import aiohttp

        try:
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    break
                self.receive(json.loads(frame.data))
        except Exception as error:  # noqa: BLE001 - a broken socket is a disconnect
            self.log("read_error", repr(error)[:80])
        self.log("disconnect", ws.close_code)
        if self.ws is ws:
            self.ws = None
        for future in self.replies.values():
            if not future.done():
                future.set_result(None)
        self.replies.clear()
        self.changed.set()

    def receive(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "snapshot":
            version = message["version"]
            self.log("snapshot", version, bool(message.get("pushed")))
            if version < self.version and self.resyncing:
                self.errors.append(f"a snapshot at version {version} after version {self.version}: events lost")
            if version >= self.version or self.resyncing:
                self.snapshot, self.version = message["game"], version
                self.resyncing = False
                held = sorted(self.held.items())
                self.drop_held()
                buffered, self.buffered = self.buffered, []
                for event in [event for _, event in held] + buffered:
                    self.apply(event)
                self.connected.set()
                self.changed.set()
            else:  # a pushed snapshot that events already overtook: ask for a current one
                self.sync()
        elif kind == "event":
            if self.resyncing:
                self.buffered.append(message)
            else:
                self.apply(message)
        elif kind in ("program_accepted", "error") and message.get("id") in self.replies:
            future = self.replies.pop(message["id"])
            if not future.done():
                future.set_result(message)
        elif kind == "error":
            self.errors.append(f"error frame: {message}")

    def drop_held(self) -> None:
        self.held = {}
        if self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None

    def apply(self, message: dict) -> None:
        version = message["version"]
        if version <= self.version:
            self.log("covered", version)  # already in the snapshot
            return
        if version > self.version + 1:  # a gap: delivered out of order, or lost (at most once, a web host lost)
            self.held[version] = message
            if self.gap_timer is None:
                self.log("held", self.version, version)
                self.gap_timer = asyncio.get_running_loop().call_later(REORDER_WAIT, self.gap_expired)
            return
        self.apply_next(message)
        if self.held:
            while self.version + 1 in self.held:
                self.apply_next(self.held.pop(self.version + 1))
            self.held = {v: event for v, event in self.held.items() if v > self.version}
            if not self.held:  # the gap filled in time: the events came out of order, none was lost
                self.reordered += 1
                self.log("reordered", self.version)
                self.gap_timer.cancel()
                self.gap_timer = None

    def gap_expired(self) -> None:
        """The missing versions did not come in REORDER_WAIT s: a gap, repaired from a snapshot."""
        self.gap_timer = None
        if not self.held or self.resyncing:
            return
        held = [event for _, event in sorted(self.held.items())]
        self.held = {}
        self.log("gap", self.version, held[0]["version"])
        self.resyncs += 1
        self.buffered = held
        self.resyncing = True
        self.sync()

    def apply_next(self, message: dict) -> None:
        version = message["version"]
        self.version = version
        self.log("event", version, message["kind"])
        if message["kind"] == "game_finished":
            self.finished = True
        if message["kind"] == "turn_resolved":
            turn = message["data"]["turn"]
            first = self.run.resolved.setdefault(self.game_id, {})
            first.setdefault(turn, now())
        self.changed.set()

    def sync(self) -> None:
        if self.ws is not None and not self.ws.closed:
            self.log("sync")
            asyncio.get_running_loop().create_task(self._send({"type": "sync"}))

    async def _send(self, frame: dict) -> bool:
        ws = self.ws
        if ws is None or ws.closed:
            return False
        try:
            await ws.send_str(json.dumps(frame))
            return True
        except (ConnectionError, RuntimeError):
            return False

    # --- playing ---------------------------------------------------------------------------------------------

    def program(self) -> list[str] | None:
        me = (self.snapshot or {}).get("me")
        if not me or me["program"] is not None:
            return None
        frozen = {entry["register"]: entry["chip"] for entry in me["frozen"]}
        pool = list(me["hand"])
        bot = next((b for b in self.snapshot.get("bots", []) if b["id"] == me["bot"]), None)
        if me.get("ejected") or (bot and bot["at"] is None and bot["lives"] == 0) or len(pool) < 5 - len(frozen):
            return None
        self.rng.shuffle(pool)
        return [frozen[index] if index in frozen else pool.pop() for index in range(5)]

    async def submit(self, turn: int, chips: list[str]) -> str:
        """'acked', 'refused' or 'lost' (the socket closed before an answer)."""
        self.next_id += 1
        future = self.replies[self.next_id] = asyncio.get_running_loop().create_future()
        self.sent[turn] = chips
        self.log("send", turn, chips)
        # `version`: the view it was chosen from, so that a copy held up on the way (a web host cut off from
        # the database) cannot replace the one sent again after a reconnect (docs/api.md).
        if not await self._send({"type": "program", "id": self.next_id, "turn": turn, "chips": chips,
                                 "reboot": False, "version": self.version}):
            self.replies.pop(self.next_id, None)
            self.log("send_failed", turn)
            return "lost"
        try:
            reply = await asyncio.wait_for(future, 30)
        except TimeoutError:
            self.log("no_answer", turn)
            return "lost"
        if reply is None:
            self.log("no_answer", turn)
            return "lost"
        if reply["type"] == "program_accepted":
            self.acked[turn] = reply["chips"]
            self.log("ack", turn, reply["chips"])
            return "acked"
        self.log("refused", turn, reply.get("code"), reply.get("detail"))
        return "refused"

    async def ensure_connected(self) -> None:
        if self.ws is None or self.ws.closed:
            if self.reader is not None:
                await asyncio.gather(self.reader, return_exceptions=True)
            await self.connect()

    async def play(self) -> None:
        turns = self.run.turns
        while True:
            await self.ensure_connected()
            snapshot = self.snapshot
            if self.finished or snapshot["status"] == "finished" or snapshot["turn"] > turns:
                return
            turn = snapshot["turn"]
            withheld = self.withholds and turn == self.run.withhold_turn
            if withheld and self.withhold_turn_skipped is None:
                # a player whose bot cannot program this turn (dead) has no deadline to miss
                self.withhold_turn_skipped = snapshot["status"] != "programming" or self.program() is None
                self.log("withheld", turn, self.withhold_turn_skipped)
            if snapshot["status"] == "programming" and turn not in self.acked and not withheld:
                chips = self.program()
                if chips is not None:
                    await asyncio.sleep(self.rng.uniform(0, self.run.think))
                    outcome = await self.submit(turn, chips)
                    if outcome == "lost":
                        continue  # reconnect; the snapshot says whether it was stored
                    if outcome == "refused":
                        if self.snapshot is snapshot:  # refused for a reason a fresh snapshot may show
                            self.sync()
                            await self.wait_change(5)
                        continue
                    status, _ = await self.request("GET", f"/api/games/{self.game_id}/")
                    if status != 200 and status < 500:  # a 5xx is judged by its time (the fault windows)
                        self.errors.append(f"GET game {self.game_id}: {status}")
            # wait for the next deal (a newer snapshot), asking for one when none comes
            if not await self.wait_change(self.run.resync_after, turn=turn):
                if self.resyncing:  # a snapshot is already on its way (a gap's sync)
                    await self.wait_change(5)
                elif self.ws is not None and not self.ws.closed:
                    self.stall_syncs += 1
                    self.log("stall", turn, self.version)
                    self.sync()
                    await self.wait_change(5)

    async def wait_change(self, timeout: float, turn: int | None = None) -> bool:
        """Until a snapshot of a turn other than `turn` (with None: any change), or a lost socket; False after
        `timeout` s without one."""
        deadline = now() + timeout
        while True:
            self.changed.clear()
            if self.ws is None or self.ws.closed:
                return True
            if turn is not None and (self.snapshot["turn"] != turn or self.snapshot["status"] == "finished"
                                     or self.finished):
                return True
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - now()))
            except TimeoutError:
                return False
            if turn is None:
                return True

    async def close(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        if self.session is not None:
            await self.session.close()


def make_users(state: dict, prefix: str, count: int) -> list[tuple[str, str]]:
    """Users and their sessions, made in the cluster's database (tests/bench/bench_users.py), with its secret key."""
    import os
    import tempfile

    env = {**os.environ, "DATABASE_URL": state["database_url"], "REDIS_URL": state["redis_url"],
           "SECRET_KEY": state["secret_key"], "DJANGO_SETTINGS_MODULE": "roboracer.settings",
           "ROBORACER_VAR_DIR": tempfile.mkdtemp(prefix="roboracer-cluster-users-")}
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "bench" / "bench_users.py"), prefix, str(count)],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode:
        raise WorkloadError(f"bench_users.py failed:\n{result.stdout}{result.stderr}")
    return [tuple(pair) for pair in json.loads(result.stdout)]


async def set_up(run: Run, tag: str) -> None:
    accounts = make_users(run.state, tag, run.games * SEATS)
    rng = random.Random(run.seed)
    run.clients = [Client(run, name, key, random.Random(rng.random())) for name, key in accounts]
    await asyncio.gather(*(client.open() for client in run.clients))
    tables = [run.clients[g * SEATS:(g + 1) * SEATS] for g in range(run.games)]
    for table in tables:
        status, game = await table[0].request("POST", "/api/games/", {"course": COURSE, "max_seats": SEATS,
                                                                      **run.game_options})
        if status != 201:
            raise WorkloadError(f"creating a game answered {status}: {game}")
        for client in table:
            client.game_id = game["id"]
        table[0].withholds = True
        for client in table[1:]:
            status, data = await client.request("POST", f"/api/games/{game['id']}/join/")
            if status != 200:
                raise WorkloadError(f"joining game {game['id']} answered {status}: {data}")
        run.game_ids.append(game["id"])
    await asyncio.gather(*(client.connect() for client in run.clients))
    for client in run.clients:
        me = client.snapshot.get("me") or {}
        if client.snapshot["status"] != "programming" or not me.get("hand"):
            raise WorkloadError(f"{client.username}: the game did not start with a hand")
        client.bot = me["bot"]
        client.connects = 1  # the first socket is not a resync
        client.resyncs = 0


async def play(run: Run, fault=None) -> None:
    """The workload, with `fault` (a coroutine function of the run, appending to run.faults) beside it."""
    run.began = now()
    players = [asyncio.create_task(client.play()) for client in run.clients]
    injector = asyncio.create_task(fault(run)) if fault else None
    try:
        done, pending = await asyncio.wait(players, timeout=300, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            if task.exception():
                raise task.exception()
        if pending:
            raise WorkloadError(f"{len(pending)} client(s) still playing after 300 s")
        if injector is not None:
            await injector
    finally:
        for task in players + ([injector] if injector else []):
            task.cancel()
        run.ended = now()


async def workload(state: dict, games: int, turns: int, think: float, fault=None, tag: str | None = None,
                   seed: int = 1) -> Run:
    run = Run(state=state, games=games, turns=turns, think=think, seed=seed)
    for key, value in getattr(fault, "run_options", {}).items():  # a scenario's move clock, withheld turn...
        setattr(run, key, value)
    tag = tag or f"c{int(time.time() * 10) % 1000000:06d}"
    try:
        await set_up(run, tag)
        await play(run, fault)
        await asyncio.sleep(1.0)  # the last events in flight
    finally:
        await asyncio.gather(*(client.close() for client in run.clients), return_exceptions=True)
    return run


# --- the checker ------------------------------------------------------------------------------------------------

@dataclass
class Verdict:
    violations: list[str] = field(default_factory=list)
    figures: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations


def check(run: Run) -> Verdict:
    import psycopg

    verdict = Verdict()
    v = verdict.violations
    dsn = run.state["database_url"].replace("postgres://", "postgresql://", 1)
    with psycopg.connect(dsn, connect_timeout=10) as conn:
        turns = {}  # (game, turn) -> programs
        for game_id, number, programs in conn.execute(
                "select game_id, number, programs from games_turn where game_id = any(%s)", (run.game_ids,)):
            turns[game_id, number] = programs
        resolved_events: dict[tuple[int, int], int] = {}
        for game_id, turn, count in conn.execute(
                "select game_id, (data->>'turn')::int, count(*) from games_gameevent where kind = 'turn_resolved' "
                "and game_id = any(%s) group by 1, 2", (run.game_ids,)):
            resolved_events[game_id, turn] = count
        events = {(g, ver): kind for g, ver, kind in conn.execute(
            "select game_id, version, kind from games_gameevent where game_id = any(%s)", (run.game_ids,))}
        expired = dict(conn.execute(
            "select game_id, count(*) from games_gameevent where kind = 'timer_expired' and game_id = any(%s) "
            "group by 1", (run.game_ids,)).fetchall())
        versions, finished_at = {}, {}
        for game_id, version, status, turn in conn.execute(
                "select id, version, status, turn from games_game where id = any(%s)", (run.game_ids,)):
            versions[game_id] = version
            if status == "finished":
                finished_at[game_id] = turn  # the last turn it played: a game may end before TURNS

    # every acknowledged program is in its resolved turn
    acked = lost = 0
    for client in run.clients:
        for turn, chips in client.acked.items():
            acked += 1
            programs = turns.get((client.game_id, turn))
            played = None if programs is None else programs.get(str(client.bot), programs.get(client.bot))
            if played != chips:
                lost += 1
                v.append(f"{client.username} game {client.game_id} turn {turn}: acknowledged {chips}, "
                         f"the resolved turn played {played}")
    # every turn resolved exactly once, every game played all its turns
    duplicated = 0
    for game_id in run.game_ids:
        for turn in range(1, min(run.turns, finished_at.get(game_id, run.turns)) + 1):
            count = resolved_events.get((game_id, turn), 0)
            if (game_id, turn) not in turns or count == 0:
                v.append(f"game {game_id}: turn {turn} never resolved")
            elif count > 1:
                duplicated += count - 1
                v.append(f"game {game_id}: turn {turn} resolved {count} times")
    # a withheld turn's deadline is enforced (a timer_expired event, the turn resolved with a program for the
    # silent player) and not before the scheduler is back (the fault's end): nothing else could have played it
    enforced_after = []
    if run.withhold_turn is not None:
        back = max((f.ended or run.ended) for f in run.faults) if run.faults else run.began
        for client in run.clients:
            if not client.withholds or client.withhold_turn_skipped is not False:  # the turn never came, or no deadline
                continue
            turn = run.withhold_turn
            programs = turns.get((client.game_id, turn))
            if programs is None:
                if finished_at.get(client.game_id, run.turns) >= turn:
                    v.append(f"game {client.game_id}: the withheld turn {turn} never resolved")
                continue
            if expired.get(client.game_id, 0) == 0:
                v.append(f"game {client.game_id}: turn {turn} resolved without a timer_expired event")
            if programs.get(str(client.bot), programs.get(client.bot)) is None:
                v.append(f"game {client.game_id}: turn {turn} played nothing for the silent {client.username}")
            at = run.resolved.get(client.game_id, {}).get(turn)
            if at is not None:
                if at < back:
                    v.append(f"game {client.game_id}: withheld turn {turn} resolved {back - at:.1f} s before the "
                             f"scheduler was back")
                enforced_after.append(at - back)
        if not enforced_after:
            v.append("no game's deadline was enforced (every withheld turn was skipped)")
    # every client ends with contiguous versions, after at most one resync per fault
    faults = len(run.faults)
    for client in run.clients:
        if client.version != versions.get(client.game_id):
            v.append(f"{client.username}: ended at version {client.version}, the game is at "
                     f"{versions.get(client.game_id)}")
        if client.resyncing or client.held:
            v.append(f"{client.username}: a gap never repaired")
        previous = None
        for entry in client.history:
            if entry[1] == "snapshot":
                previous = max(previous or 0, entry[2])
            elif entry[1] == "event":
                if previous is not None and entry[2] != previous + 1:
                    v.append(f"{client.username}: event {entry[2]} applied after version {previous}")
                previous = entry[2]
                if events.get((client.game_id, entry[2])) != entry[3]:
                    v.append(f"{client.username}: event {entry[2]} was {entry[3]}, stored as "
                             f"{events.get((client.game_id, entry[2]))}")
        # a sync after a deal that never came is a resync too: the stream stalled and a snapshot repaired it
        if client.resyncs + client.stall_syncs > faults:
            why = [entry[1:] for entry in client.history if entry[1] in ("gap", "connect", "stall", "no_snapshot")]
            v.append(f"{client.username}: {client.resyncs} resync(s) and {client.stall_syncs} sync(s) after a "
                     f"stalled deal for {faults} fault(s): {why[:6]}")
    # no 5xx outside the fault windows
    windows = [(f.started, (f.ended or run.ended) + GRACE) for f in run.faults]
    outside = inside = 0
    for client in run.clients:
        for at, what, status in client.http:
            if status >= 500 or status == 0:
                if any(start <= at <= end for start, end in windows):
                    inside += 1
                else:
                    outside += 1
                    v.append(f"{client.username}: {what} answered {status or 'no connection'} at "
                             f"{at - run.began:.1f} s, outside any fault window")
    # the time to recover: from the fault to the slowest game's first turn resolved after it
    recovery = {}
    for fault in run.faults:
        firsts = []
        for game_id in run.game_ids:
            after = [at for at in run.resolved.get(game_id, {}).values() if at >= fault.started]
            if after:
                firsts.append(min(after) - fault.started)
        recovery[fault.name] = max(firsts) if firsts else None
    servers = sorted({server for client in run.clients for server in client.servers})
    verdict.figures = {
        "games": run.games, "turns": run.turns, "clients": len(run.clients),
        "wall_s": round(run.ended - run.began, 1),
        "programs_acked": acked, "acked_lost": lost, "turns_duplicated": duplicated,
        "reconnects": sum(c.connects - 1 for c in run.clients), "resyncs": sum(c.resyncs for c in run.clients),
        "stall_syncs": sum(c.stall_syncs for c in run.clients),
        "reordered": sum(c.reordered for c in run.clients),
        "max_resyncs_per_client": max((c.resyncs for c in run.clients), default=0),
        "deadlines_enforced": len(enforced_after),
        "enforced_after_back_s": round(max(enforced_after), 1) if enforced_after else None,
        "5xx_in_fault_window": inside, "5xx_outside": outside, "web_hosts_used": servers,
        "recovery_s": {name: (round(seconds, 1) if seconds is not None else None)
                       for name, seconds in recovery.items()},
        "faults": [{"name": f.name, "at_s": round(f.started - run.began, 1),
                    "back_after_s": round(f.ended - f.started, 1) if f.ended else None, "detail": f.detail}
                   for f in run.faults],
    }
    if len(servers) < 2:
        v.append(f"the clients' sockets reached {servers} only, not both web hosts")
    for client in run.clients:
        for error in client.errors[:3]:
            v.append(f"{client.username}: {error}")
    return verdict
