// The game screen's sync protocol (docs/frontend.md), with no DOM: a snapshot first, then events in
// version order, then a sync. It keeps the version the screen shows, queues events (and replays, and a
// deal's pushed snapshot) behind the turn that is playing, drops duplicates, asks the server for a
// snapshot (a `sync` over the socket) when it sees a gap, when a pushed snapshot was overtaken by
// events, after a reconnect's refusal, or when a deal's push does not come.
//
// The screen (screen.ts) gives it a `SyncHost`: what applying a snapshot and playing an event mean there,
// and the socket's sync request. Timers are injected so the unit tests (tests/sync.test.ts) drive time.
import type { EventMessage, ServerMessage, Snapshot, SnapshotMessage } from "./types";

/** How long a player waits for the deal's pushed snapshot before asking for one. */
export const PUSH_WAIT_MS = 3000;
/** A sync whose answer never came may be asked again after this long. */
export const SYNC_ANSWER_MS = 5000;

/** `at`: the browser's clock (ms) when the message arrived: a report of the server's clocks is read
 * against the moment it was received, not the moment its turn in the queue came (after an animation). */
export type QueueItem =
  | { kind: "event"; msg: EventMessage; at: number }
  | { kind: "replay"; turn: number }
  | { kind: "pushed"; msg: SnapshotMessage; at: number };

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const browserTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SyncHost {
  /** Draw a snapshot (the truth: whatever was playing stops). The sync has taken its version already. */
  applySnapshot(game: Snapshot, version: number, receivedAt: number): void;
  /** The next event in version order (the sync has taken its version already); may animate. */
  playEvent(msg: EventMessage, receivedAt: number): Promise<void> | void;
  /** Replay a past turn (queued behind what plays). */
  replay(turn: number): Promise<void>;
  /** An event shown as soon as it arrives (chat, clocks), newer than the version shown; it is still
   * played in version order later. */
  early?(msg: EventMessage, receivedAt: number): void;
  /** A message outside the event stream (a team chat line). */
  other?(msg: ServerMessage, receivedAt: number): void;
  /** Ask the server for a snapshot (the socket's `sync`); false when it could not be sent. Absent: no socket. */
  sendSync?(): boolean;
}

export class GameSync {
  /** The version of the state the screen shows; null before the first snapshot. */
  version: number | null = null;
  /** The turn of the last snapshot taken. */
  private turn: number | null = null;
  private readonly queue: QueueItem[] = [];
  private pumping = false;
  /** A sync was sent and its answer (a snapshot) has not come yet. */
  syncPending = false;
  private pushTimer: unknown = undefined;
  private syncTimer: unknown = undefined;

  constructor(private readonly host: SyncHost, private readonly timers: Timers = browserTimers) {}

  /** What is waiting in the queue (tests, and a replay asking whether another follows). */
  get pending(): readonly QueueItem[] {
    return this.queue;
  }

  /** The next queued item is a replay (a whole-game replay goes on from its own stored state). */
  nextIsReplay(): boolean {
    return this.queue[0]?.kind === "replay";
  }

  /** A message from the game socket. */
  onMessage(msg: ServerMessage, at: number): void {
    if (msg.type === "snapshot" && msg.game && msg.pushed) {
      // A deal's snapshot waits behind the events before it (the turn's animation), then replaces them.
      this.enqueue({ kind: "pushed", msg, at });
    } else if (msg.type === "snapshot" && msg.game) {
      this.snapshot(msg.game, typeof msg.version === "number" ? msg.version : msg.game.version, at);
    } else if ((msg as { type?: unknown }).type === "error" && (msg as { code?: unknown }).code === "rate_limited") {
      // A sync refused for now (the socket allows a few a second): ask again when the server says, or the
      // change that asked for it would stay unseen until the next event.
      const wait = Number((msg as { retry_after?: unknown }).retry_after);
      this.timers.clear(this.syncTimer);
      this.syncTimer = this.timers.set(() => {
        this.syncPending = false;
        this.requestSync();
      }, (Number.isFinite(wait) && wait > 0 ? wait * 1000 : 1000) + 50);
    } else if (msg.type === "event" && typeof msg.version === "number") {
      // Chat lines and clocks do not wait behind a turn's animation: shown now (a chat line is
      // shown once, by id; clocks carry their own server time), counted in version order later.
      if (this.version !== null && msg.version > this.version) this.host.early?.(msg, at);
      this.enqueue({ kind: "event", msg, at });
    } else if (msg.type !== "event" && msg.type !== "snapshot") {
      this.host.other?.(msg, at);
    }
  }

  /** The socket opened (again): a sync asked before it closed will not be answered. */
  socketOpened(): void {
    this.syncPending = false;
  }

  /** A snapshot that is the truth (the socket's answer to a sync, a first load): applied whatever its version. */
  snapshot(game: Snapshot, version: number, at: number): void {
    this.timers.clear(this.pushTimer);
    this.timers.clear(this.syncTimer);
    this.version = version;
    this.turn = typeof game.turn === "number" ? game.turn : null;
    this.syncPending = false;
    this.host.applySnapshot(game, version, at);
  }

  /** A snapshot fetched over HTTP: one from the socket may have won the race, so only a newer one
   * (`orSame`: or one as new, the answer to my own action) is taken. */
  offerSnapshot(game: Snapshot, at: number, orSame = false): boolean {
    if (typeof game?.version !== "number") return false;
    const newer = this.version === null || game.version > this.version || (orSame && game.version === this.version);
    if (newer) this.snapshot(game, game.version, at);
    return newer;
  }

  enqueue(item: QueueItem): void {
    this.queue.push(item);
    void this.pump();
  }

  /** After a turn, a player's new hand comes pushed with their snapshot; ask for one only if it does not
   * (spectators, `seated` false, get no push). */
  awaitPush(seated: boolean): void {
    if (!seated) {
      this.requestSync();
      return;
    }
    this.timers.clear(this.pushTimer); // any snapshot clears it
    this.pushTimer = this.timers.set(() => this.requestSync(), PUSH_WAIT_MS);
  }

  /** Ask the server for a snapshot, once until it answers (or SYNC_ANSWER_MS pass). */
  requestSync(): void {
    if (this.syncPending || !this.host.sendSync) return;
    if (this.host.sendSync()) {
      this.syncPending = true;
      // If the answer never comes, allow asking again.
      this.timers.clear(this.syncTimer);
      this.syncTimer = this.timers.set(() => { this.syncPending = false; }, SYNC_ANSWER_MS);
    }
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const item = this.queue.shift() as QueueItem;
        if (item.kind === "replay") await this.host.replay(item.turn);
        else if (item.kind === "pushed") this.applyPushed(item.msg, item.at);
        else await this.event(item.msg, item.at);
      }
    } finally {
      this.pumping = false;
    }
  }

  private applyPushed(msg: SnapshotMessage, at: number): void {
    const version = typeof msg.version === "number" ? msg.version : msg.game.version;
    if (this.version === null || version >= this.version) {
      this.snapshot(msg.game, version, at);
    } else if (this.turn !== null && msg.game.turn > this.turn) {
      // Events of the new turn (another player's program) overtook it: its hand is news, its events
      // are not, so ask for a current snapshot now rather than wait for the timer.
      this.requestSync();
    }
  }

  private async event(msg: EventMessage, at: number): Promise<void> {
    if (this.version === null) {
      this.requestSync();
      return;
    }
    if (msg.version <= this.version) return; // old news
    if (msg.version > this.version + 1) {
      this.requestSync(); // we missed something
      return;
    }
    this.version = msg.version;
    await this.host.playEvent(msg, at);
  }
}
