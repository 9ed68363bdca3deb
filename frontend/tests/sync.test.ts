// The game screen's sync protocol (sync.ts) without a browser: a snapshot first, then events in version
// order; duplicates dropped, a gap asks for a sync, events queue behind a turn that plays, a deal's pushed
// snapshot waits its turn and asks for a sync when events overtook it, a lost push is asked for, a
// refused sync is asked again, and a reconnect allows a new sync.
import assert from "node:assert/strict";
import { test } from "node:test";
import { GameSync, PUSH_WAIT_MS, SYNC_ANSWER_MS, type SyncHost, type Timers } from "../src/sync";
import type { EventMessage, ServerMessage, Snapshot } from "../src/types";

/** Timers that run when the test says. */
class FakeTimers implements Timers {
  now = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; fn: () => void }>();
  set(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, fn });
    return id;
  }
  clear(handle: unknown): void {
    this.due.delete(handle as number);
  }
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const first = [...this.due.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!first) break;
      this.due.delete(first[0]);
      this.now = first[1].at;
      first[1].fn();
    }
    this.now = until;
  }
  get count(): number {
    return this.due.size;
  }
}

function snap(version: number, turn = 1, extra: Partial<Snapshot> = {}): Snapshot {
  return { version, turn, status: "programming", seats: [], ...extra } as unknown as Snapshot;
}

function ev(version: number, kind = "seat_ready", data: Record<string, unknown> = {}): EventMessage {
  return { type: "event", version, kind, data };
}

/** A host that records what it was asked to do; events of kind "turn_resolved" play until `finish()`. */
class Host implements SyncHost {
  readonly log: string[] = [];
  syncs = 0;
  socketOpen = true;
  private finishers: (() => void)[] = [];
  applySnapshot(game: Snapshot, version: number): void {
    this.log.push(`snapshot v${version} t${game.turn}`);
  }
  playEvent(msg: EventMessage): Promise<void> | void {
    this.log.push(`event v${msg.version} ${msg.kind}`);
    if (msg.kind === "turn_resolved") return new Promise((resolve) => this.finishers.push(resolve));
  }
  async replay(turn: number): Promise<void> {
    this.log.push(`replay ${turn}`);
  }
  early(msg: EventMessage): void {
    this.log.push(`early v${msg.version} ${msg.kind}`);
  }
  other(msg: ServerMessage): void {
    this.log.push(`other ${msg.type}`);
  }
  sendSync(): boolean {
    if (!this.socketOpen) return false;
    this.syncs++;
    return true;
  }
  /** The animation of the turn that plays ends. */
  async finish(): Promise<void> {
    for (const f of this.finishers.splice(0)) f();
    await settle();
  }
}

/** Let the queue's promises run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function setup(): { host: Host; timers: FakeTimers; sync: GameSync } {
  const host = new Host();
  const timers = new FakeTimers();
  return { host, timers, sync: new GameSync(host, timers) };
}

test("events before any snapshot ask for one and are not played", async () => {
  const { host, sync } = setup();
  sync.onMessage(ev(3), 0);
  await settle();
  assert.deepEqual(host.log, []);
  assert.equal(host.syncs, 1);
  assert.equal(sync.version, null);
  sync.onMessage({ type: "snapshot", version: 3, game: snap(3) }, 0);
  assert.deepEqual(host.log, ["snapshot v3 t1"]);
  assert.equal(sync.version, 3);
  assert.equal(sync.syncPending, false);
});

test("events play in version order; duplicates and old news are dropped", async () => {
  const { host, sync } = setup();
  sync.snapshot(snap(5), 5, 0);
  sync.onMessage(ev(6), 0);
  sync.onMessage(ev(6), 0); // the same event twice
  sync.onMessage(ev(4), 0); // older than the snapshot
  sync.onMessage(ev(5), 0); // the snapshot's own
  sync.onMessage(ev(7, "seat_unready"), 0);
  await settle();
  // Nothing animates: v6 plays as it comes, so its copy is neither shown early nor played again.
  assert.deepEqual(host.log, ["snapshot v5 t1", "early v6 seat_ready", "event v6 seat_ready", "early v7 seat_unready",
    "event v7 seat_unready"]);
  assert.equal(sync.version, 7);
  assert.equal(host.syncs, 0);
});

test("a gap asks for one sync, not one per missing event, and the sync's snapshot goes on from there", async () => {
  const { host, sync } = setup();
  sync.snapshot(snap(5), 5, 0);
  sync.onMessage(ev(7), 0); // 6 was missed
  sync.onMessage(ev(8), 0);
  await settle();
  assert.equal(host.syncs, 1);
  assert.equal(sync.syncPending, true);
  assert.equal(sync.version, 5); // nothing after the gap was played
  assert.ok(!host.log.some((l) => l.startsWith("event")));
  sync.onMessage({ type: "snapshot", version: 8, game: snap(8) }, 0);
  assert.equal(sync.syncPending, false);
  sync.onMessage(ev(9, "chat"), 0);
  await settle();
  assert.deepEqual(host.log.filter((l) => l.startsWith("event")), ["event v9 chat"]);
  assert.equal(sync.version, 9);
});

test("events that arrive while a turn animates wait for it; shown-now kinds are shown at once", async () => {
  const { host, sync } = setup();
  sync.snapshot(snap(10), 10, 0);
  sync.onMessage(ev(11, "turn_resolved"), 0);
  await settle();
  sync.onMessage(ev(12, "chat"), 0);
  sync.onMessage(ev(13, "clocks"), 0);
  await settle();
  // The chat line and the clocks are shown early, but played (counted) only after the turn.
  assert.deepEqual(host.log, ["snapshot v10 t1", "early v11 turn_resolved", "event v11 turn_resolved",
    "early v12 chat", "early v13 clocks"]);
  assert.equal(sync.pending.length, 2);
  await host.finish();
  assert.deepEqual(host.log.slice(5), ["event v12 chat", "event v13 clocks"]);
  assert.equal(sync.version, 13);
});

test("events reordered in transit: the later one asks for a sync, the earlier one still plays", async () => {
  const { host, sync } = setup();
  sync.snapshot(snap(1), 1, 0);
  sync.onMessage(ev(3), 0);
  sync.onMessage(ev(2), 0);
  await settle();
  assert.equal(host.syncs, 1);
  assert.deepEqual(host.log.filter((l) => l.startsWith("event")), ["event v2 seat_ready"]);
  assert.equal(sync.version, 2);
});

test("a deal's pushed snapshot waits behind the turn's animation, then replaces the state", async () => {
  const { host, sync, timers } = setup();
  sync.snapshot(snap(20, 4), 20, 0);
  sync.onMessage(ev(21, "turn_resolved"), 0);
  await settle();
  sync.onMessage({ type: "snapshot", version: 22, game: snap(22, 5), pushed: true }, 0);
  await settle();
  assert.ok(!host.log.includes("snapshot v22 t5"), "applied before the animation ended");
  // The turn ended: the screen waits for the push.
  sync.awaitPush(true);
  assert.equal(timers.count, 1);
  await host.finish();
  assert.equal(host.log.at(-1), "snapshot v22 t5");
  assert.equal(sync.version, 22);
  timers.advance(PUSH_WAIT_MS * 2); // the snapshot cleared the push timer
  assert.equal(host.syncs, 0);
});

test("a pushed snapshot overtaken by the new turn's events asks for a sync at once", async () => {
  const { host, sync } = setup();
  sync.snapshot(snap(30, 6), 30, 0);
  // The deal (v31) was applied from a sync answer, then another player's seat_ready (v32) came.
  sync.onMessage({ type: "snapshot", version: 32, game: snap(32, 7) }, 0);
  sync.onMessage(ev(33), 0);
  await settle();
  assert.equal(sync.version, 33);
  // The pushed snapshot of the same deal (v31, turn 7): older than what is shown and of the turn shown,
  // so it is dropped without a sync.
  sync.onMessage({ type: "snapshot", version: 31, game: snap(31, 7), pushed: true }, 0);
  await settle();
  assert.equal(host.syncs, 0);
  assert.equal(sync.version, 33);
  // A push of turn 8 older than the events shown: its hand is news, so a sync is asked.
  sync.onMessage({ type: "snapshot", version: 32, game: snap(32, 8), pushed: true }, 0);
  await settle();
  assert.equal(host.syncs, 1);
  assert.equal(sync.version, 33);
  assert.ok(!host.log.includes("snapshot v32 t8"));
});

test("a push that does not come is asked for; spectators ask at once", async () => {
  const { host, sync, timers } = setup();
  sync.snapshot(snap(1), 1, 0);
  sync.awaitPush(true);
  timers.advance(PUSH_WAIT_MS - 1);
  assert.equal(host.syncs, 0);
  timers.advance(1);
  assert.equal(host.syncs, 1);
  const other = setup();
  other.sync.snapshot(snap(1), 1, 0);
  other.sync.awaitPush(false);
  assert.equal(other.host.syncs, 1);
});

test("one sync at a time until answered; a lost answer allows another after a while", () => {
  const { host, sync, timers } = setup();
  sync.snapshot(snap(1), 1, 0);
  sync.requestSync();
  sync.requestSync();
  assert.equal(host.syncs, 1);
  timers.advance(SYNC_ANSWER_MS);
  assert.equal(sync.syncPending, false);
  sync.requestSync();
  assert.equal(host.syncs, 2);
});

test("a sync refused as rate limited is asked again after retry_after", () => {
  const { host, sync, timers } = setup();
  sync.snapshot(snap(1), 1, 0);
  sync.requestSync();
  assert.equal(host.syncs, 1);
  sync.onMessage({ type: "error", code: "rate_limited", retry_after: 2 } as unknown as ServerMessage, 0);
  timers.advance(2000);
  assert.equal(host.syncs, 1);
  timers.advance(50);
  assert.equal(host.syncs, 2);
  assert.equal(sync.syncPending, true);
});

test("a reconnect allows a new sync; a closed socket sends none and asks again later", () => {
  const { host, sync } = setup();
  sync.snapshot(snap(1), 1, 0);
  sync.requestSync();
  assert.equal(host.syncs, 1);
  sync.requestSync(); // pending: not again
  assert.equal(host.syncs, 1);
  sync.socketOpened(); // the socket reconnected: the old request will not be answered
  sync.requestSync();
  assert.equal(host.syncs, 2);
  const closed = setup();
  closed.host.socketOpen = false;
  closed.sync.requestSync();
  assert.equal(closed.sync.syncPending, false);
  closed.host.socketOpen = true;
  closed.sync.requestSync();
  assert.equal(closed.host.syncs, 1);
});

test("HTTP snapshots: only newer ones (or as new, for my own action's answer) are taken", () => {
  const { host, sync } = setup();
  assert.equal(sync.offerSnapshot(snap(4), 0), true);
  assert.equal(sync.offerSnapshot(snap(4), 0), false);
  assert.equal(sync.offerSnapshot(snap(3), 0, true), false);
  assert.equal(sync.offerSnapshot(snap(4), 0, true), true);
  assert.equal(sync.offerSnapshot(snap(6), 0), true);
  assert.deepEqual(host.log, ["snapshot v4 t1", "snapshot v4 t1", "snapshot v6 t1"]);
  // The socket's snapshot (a sync's answer) is the truth, even if older.
  sync.onMessage({ type: "snapshot", version: 5, game: snap(5) }, 0);
  assert.equal(sync.version, 5);
});

test("replays queue behind a playing turn; team chat and unknown messages go to the host", async () => {
  const { host, sync } = setup();
  sync.snapshot(snap(1), 1, 0);
  sync.onMessage(ev(2, "turn_resolved"), 0);
  await settle();
  sync.enqueue({ kind: "replay", turn: 1 });
  sync.enqueue({ kind: "replay", turn: 2 });
  await settle();
  assert.ok(!host.log.includes("replay 1"));
  assert.equal(sync.nextIsReplay(), true);
  sync.onMessage({ type: "team_chat", message: { id: 1 } } as unknown as ServerMessage, 0);
  assert.equal(host.log.at(-1), "other team_chat");
  await host.finish();
  assert.deepEqual(host.log.slice(-2), ["replay 1", "replay 2"]);
  assert.equal(sync.nextIsReplay(), false);
});
