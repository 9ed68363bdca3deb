// GameSocket's requests (a program over the game socket): each frame goes with a fresh id, the reply with
// that id resolves its own request, a timeout or a close resolves null, and replies never reach onMessage
// (main.ts reads an id-less `error` as a refused sync).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { GameSocket, MAX_FRAME_CHARS, programResult, type SocketReply } from "../src/net";
import type { ServerMessage } from "../src/types";

type Listener = (ev: { data?: unknown }) => void;

class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static last: FakeWebSocket | null = null;
  readyState = FakeWebSocket.CONNECTING;
  readonly sent: Record<string, unknown>[] = [];
  private readonly listeners = new Map<string, Listener[]>();
  constructor(readonly url: string) { FakeWebSocket.last = this; }
  addEventListener(type: string, fn: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  send(text: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error("not open");
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(): void { this.fire("close", {}); }
  // The server's side
  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.fire("open", {});
  }
  receive(msg: unknown): void { this.fire("message", { data: JSON.stringify(msg) }); }
  drop(): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.fire("close", {});
  }
  private fire(type: string, ev: { data?: unknown }): void {
    for (const fn of this.listeners.get(type) ?? []) fn(ev);
  }
}

/** The page's timers, run by hand: `tick(ms)` fires what falls due. */
const clock = {
  now: 0,
  next: 1,
  timers: new Map<number, { at: number; fn: () => void }>(),
  setTimeout(fn: () => void, ms = 0): number {
    const id = clock.next++;
    clock.timers.set(id, { at: clock.now + ms, fn });
    return id;
  },
  clearTimeout(id: number | undefined): void {
    if (id !== undefined) clock.timers.delete(id);
  },
  tick(ms: number): void {
    clock.now += ms;
    for (const [id, t] of [...clock.timers].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at > clock.now || !clock.timers.has(id)) continue;
      clock.timers.delete(id);
      t.fn();
    }
  },
};

(globalThis as unknown as { window: unknown }).window = { setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout };
(globalThis as unknown as { WebSocket: unknown }).WebSocket = FakeWebSocket;

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let socket: GameSocket | null = null;

function openSocket(): { sock: GameSocket; ws: FakeWebSocket; messages: ServerMessage[] } {
  const messages: ServerMessage[] = [];
  const sock = new GameSocket("ws://test/ws/games/1/", (m) => messages.push(m), () => undefined);
  socket = sock;
  sock.connect();
  const ws = FakeWebSocket.last as FakeWebSocket;
  ws.open();
  return { sock, ws, messages };
}

const PROGRAM = { type: "program", turn: 3, chips: ["m1", "m2", "m3", "rl", "rr"], reboot: false };

afterEach(() => {
  socket?.close();
  socket = null;
  clock.timers.clear();
});

test("each request goes with a fresh id and resolves with the reply of that id", async () => {
  const { sock, ws, messages } = openSocket();
  const first = sock.request(PROGRAM);
  const second = sock.request({ ...PROGRAM, reboot: true });
  assert.equal(ws.sent.length, 2);
  const [a, b] = ws.sent;
  assert.deepEqual({ ...a, id: undefined }, { ...PROGRAM, id: undefined });
  assert.equal(b.reboot, true);
  assert.ok(a.id !== undefined && b.id !== undefined && a.id !== b.id);
  // The second is answered first.
  const refused = { type: "error", id: b.id, code: "conflict", detail: "turn 3 is over", status: 409 };
  ws.receive(refused);
  const accepted = { type: "program_accepted", id: a.id, turn: 3, chips: PROGRAM.chips, reboot: false, action: null };
  ws.receive(accepted);
  assert.deepEqual(await second, refused);
  assert.deepEqual(await first, accepted);
  assert.deepEqual(messages, []);
});

test("replies are not delivered to onMessage, other frames are, an id-less error among them", async () => {
  const { sock, ws, messages } = openSocket();
  const pending = sock.request(PROGRAM);
  const id = ws.sent[0].id;
  const event = { type: "event", version: 7, kind: "seat_ready", data: { seat: 1 } };
  ws.receive(event);
  ws.receive({ type: "error", id, code: "rate_limited", detail: "too many programs; at most 2 a second", status: 429, retry_after: 0.5 });
  // A sync refused: no id, main.ts's to handle.
  const syncRefused = { type: "error", code: "rate_limited", detail: "too many syncs; at most 2 a second", retry_after: 0.3 };
  ws.receive(syncRefused);
  // A reply nobody waits for any more (its request gave up): dropped.
  ws.receive({ type: "program_accepted", id: "r999", turn: 3, chips: PROGRAM.chips, reboot: false, action: null });
  ws.receive({ type: "error", id: "r998", code: "invalid", detail: "chips: ...", status: 400 });
  const reply = await pending;
  assert.equal(reply?.type, "error");
  assert.deepEqual(messages, [event, syncRefused]);
});

test("no reply in time resolves null, and the late reply is dropped", async () => {
  const { sock, ws, messages } = openSocket();
  let settled: SocketReply | null | undefined;
  const pending = sock.request(PROGRAM).then((r) => { settled = r; return r; });
  clock.tick(7999);
  await flush();
  assert.equal(settled, undefined);
  clock.tick(1);
  assert.equal(await pending, null);
  ws.receive({ type: "program_accepted", id: ws.sent[0].id, turn: 3, chips: PROGRAM.chips, reboot: false, action: null });
  assert.deepEqual(messages, []);
});

test("a close before the reply resolves null; a closed socket sends nothing", async () => {
  const { sock, ws } = openSocket();
  const pending = sock.request(PROGRAM);
  ws.drop();
  assert.equal(await pending, null);
  assert.equal(await sock.request(PROGRAM), null);
  assert.equal(ws.sent.length, 1);
});

test("a socket not open yet, or closed by the page, answers null at once", async () => {
  const sock = new GameSocket("ws://test/ws/games/1/", () => undefined, () => undefined);
  socket = sock;
  assert.equal(await sock.request(PROGRAM), null); // never connected
  sock.connect();
  const ws = FakeWebSocket.last as FakeWebSocket;
  assert.equal(await sock.request(PROGRAM), null); // connecting
  ws.open();
  const pending = sock.request(PROGRAM);
  sock.close();
  assert.equal(await pending, null);
});

test("a frame longer than the server takes is not sent", async () => {
  const { sock, ws } = openSocket();
  assert.equal(await sock.request({ ...PROGRAM, action: { note: "x".repeat(MAX_FRAME_CHARS) } }), null);
  assert.equal(ws.sent.length, 0);
});

test("programResult reads a reply as postProgram's PostResult", () => {
  const base = { type: "error" as const, id: "r1" };
  assert.deepEqual(programResult({ type: "program_accepted", id: "r1", turn: 1, chips: [], reboot: false, action: null }), { ok: true });
  assert.deepEqual(programResult({ ...base, code: "conflict", detail: "you already sent a program", status: 409 }),
    { ok: false, status: 409, detail: "you already sent a program" });
  assert.deepEqual(programResult({ ...base, code: "rate_limited", detail: "", status: 429, retry_after: 1 }),
    { ok: false, status: 429, detail: "Too many messages: wait a moment and try again." });
  assert.deepEqual(programResult({ ...base, code: "not_allowed", detail: "", status: 403 }),
    { ok: false, status: 403, detail: "The server refused the program (HTTP 403)." });
});
