// Demo harness: a fake server (fetch + WebSocket) so the screen can be tried without Django.
// Query parameters: ?status=lobby|programming|finished  ?me=0 (spectator)  ?play=1 (auto-play a turn)
// ?frozen=1 (two locked registers). window.rrDemo exposes send(), turn(), ready(n) for the console.
import type { EngineEvent, ServerMessage, Snapshot } from "./types";

const params = new URLSearchParams(location.search);

const snapshot: Snapshot = {
  id: 7, status: "programming", turn: 1, version: 12,
  course: {
    format: "roboracer-course/1", name: "Tiny Yard", width: 6, height: 6, mode: "race", players: [2, 4],
    elements: [
      { type: "wall", at: [2, 1], side: "E" }, { type: "wall", at: [3, 3], side: "N" },
      { type: "wall", at: [1, 3], side: "W" },
      { type: "pit", at: [3, 3] },
      { type: "start", at: [0, 5], number: 1, dir: "N" }, { type: "start", at: [1, 5], number: 2, dir: "N" },
      { type: "checkpoint", at: [5, 0], number: 1 }, { type: "checkpoint", at: [0, 0], number: 2 },
      { type: "repair", at: [1, 1], amount: 1 }, { type: "repair", at: [4, 5], amount: 2 },
      { type: "belt", at: [4, 1], dir: "S", speed: 1 },
      { type: "belt", at: [4, 2], dir: "S", speed: 2, curves_from: ["W"] },
      { type: "belt", at: [3, 2], dir: "E", speed: 2 },
      { type: "belt", at: [4, 3], dir: "S", speed: 3 },
      { type: "belt", at: [4, 4], dir: "W", speed: 5, curves_from: ["N"] },
      { type: "pusher", at: [0, 2], side: "W", phases: [1, 3, 5] },
      { type: "pusher", at: [2, 0], side: "N", phases: [2, 4] },
      { type: "turntable", at: [2, 4], rotation: "L" }, { type: "turntable", at: [2, 2], rotation: "R" },
      { type: "crusher", at: [5, 5], phases: [2, 4] },
      { type: "laser", at: [5, 3], side: "E", beams: 2 },
      { type: "laser", at: [1, 0], side: "N", beams: 1 },
      { type: "teleporter", at: [3, 0] },
    ],
  },
  seats: [
    { number: 1, user: "alice", bot: "1", color: "#d62828", ready: false },
    { number: 2, user: "bob", bot: "2", color: "#1d4ed8", ready: false },
    { number: 3, user: "carol", bot: "3", color: "#16a34a", ready: true },
  ],
  bots: [
    { id: "1", at: [0, 5], dir: "N", damage: 0, lives: 3, next_checkpoint: 1, virtual: false },
    { id: "2", at: [1, 5], dir: "E", damage: 2, lives: 2, next_checkpoint: 1, virtual: false },
    { id: "3", at: [3, 2], dir: "S", damage: 0, lives: 3, next_checkpoint: 1, virtual: true },
  ],
  priority: ["2", "1", "3"],
  winner: null,
  me: { seat: 1, bot: "1", hand: ["1", "L", "2", "R", "U", "B", "3", "1", "L"], program: null, frozen: [] },
  can_join: false, can_start: false,
};
const st = params.get("status");
if (st === "lobby" || st === "finished" || st === "resolving") snapshot.status = st;
if (st === "finished") snapshot.winner = "1";
if (params.get("me") === "0") snapshot.me = null;
if (params.get("frozen") === "1" && snapshot.me) {
  snapshot.me.frozen = [{ register: 3, chip: "L" }, { register: 4, chip: "2" }];
  snapshot.me.hand = snapshot.me.hand.slice(0, 7);
}

const turnEvents: EngineEvent[] = [
  { phase: 1, step: "chips", type: "chip", bot: "2", chip: "1" },
  { phase: 1, step: "chips", type: "moved", bot: "2", from: [1, 5], to: [2, 5] },
  { phase: 1, step: "chips", type: "chip", bot: "1", chip: "2" },
  { phase: 1, step: "chips", type: "moved", bot: "1", from: [0, 5], to: [0, 4] },
  { phase: 1, step: "chips", type: "moved", bot: "1", from: [0, 4], to: [0, 3] },
  { phase: 1, step: "belts", type: "moved", bot: "3", from: [3, 2], to: [4, 2] },
  { phase: 1, step: "belts", type: "rotated", bot: "3", from: "S", to: "S" },
  { phase: 1, step: "lasers", type: "damaged", bot: "1", amount: 1, damage: 1 },
  { phase: 2, step: "chips", type: "chip", bot: "2", chip: "L" },
  { phase: 2, step: "chips", type: "rotated", bot: "2", from: "E", to: "N" },
  { phase: 2, step: "chips", type: "chip", bot: "1", chip: "R" },
  { phase: 2, step: "chips", type: "rotated", bot: "1", from: "N", to: "E" },
  { phase: 2, step: "chips", type: "blocked", bot: "1", at: [0, 3], dir: "W" },
  { phase: 2, step: "chips", type: "sparkle", bot: "1" },
  { phase: 3, step: "chips", type: "chip", bot: "2", chip: "U" },
  { phase: 3, step: "chips", type: "rotated", bot: "2", from: "N", to: "S" },
  { phase: 3, step: "pushers", type: "pushed", bot: "1", by: "pusher", from: [0, 3], to: [1, 3] },
  { phase: 4, step: "chips", type: "chip", bot: "1", chip: "1" },
  { phase: 4, step: "chips", type: "moved", bot: "1", from: [1, 3], to: [2, 3] },
  { phase: 4, step: "chips", type: "moved", bot: "1", from: [2, 3], to: [3, 3] },
  { phase: 4, step: "chips", type: "destroyed", bot: "1", at: [3, 3], cause: "pit" },
  { phase: 5, step: "end", type: "respawned", bot: "1", at: [0, 5], dir: "N", virtual: true },
  { phase: 5, step: "end", type: "checkpoint", bot: "3", number: 1 },
];

// ---- fake WebSocket ----
let version = snapshot.version;
const sockets: FakeSocket[] = [];

class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readyState = 0;
  constructor(readonly url: string) {
    super();
    sockets.push(this);
    setTimeout(() => {
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
      this.push({ type: "snapshot", version, game: structuredClone(snapshot) });
    }, 50);
  }
  push(msg: ServerMessage): void {
    this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(msg) }));
  }
  send(data: string): void {
    console.info("[demo] client sent", data);
    const msg = JSON.parse(data) as { type: string };
    if (msg.type === "sync") setTimeout(() => this.push({ type: "snapshot", version, game: structuredClone(snapshot) }), 30);
  }
  close(): void {
    this.readyState = 3;
    this.dispatchEvent(new Event("close"));
  }
}

function broadcast(kind: string, data: Record<string, unknown>): void {
  version += 1;
  for (const s of sockets) if (s.readyState === 1) s.push({ type: "event", version, kind, data });
}

function playTurn(): void {
  broadcast("turn_resolved", { turn: snapshot.turn, events: turnEvents });
  // The "server" state after the turn (what the next sync returns).
  snapshot.turn += 1;
  snapshot.bots = [
    { id: "1", at: [0, 5], dir: "N", damage: 1, lives: 2, next_checkpoint: 1, virtual: true },
    { id: "2", at: [2, 5], dir: "S", damage: 2, lives: 2, next_checkpoint: 1, virtual: false },
    { id: "3", at: [4, 2], dir: "S", damage: 0, lives: 3, next_checkpoint: 2, virtual: true },
  ];
  for (const s of snapshot.seats) s.ready = false;
  if (snapshot.me) snapshot.me = { ...snapshot.me, hand: ["2", "2", "R", "L", "B", "3", "U", "1"], program: null };
}

// ---- fake fetch ----
const realFetch = window.fetch.bind(window);
window.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (url.startsWith("/api/games/7/program/")) {
    const body = JSON.parse(String(init?.body)) as { chips: string[]; turn: number; reboot: boolean };
    console.info("[demo] POST program", body, init?.headers);
    if (body.chips[0] === "U") {
      return new Response(JSON.stringify({ detail: "Demo server: a program may not start with a U-turn." }), { status: 400, headers: { "Content-Type": "application/json" } });
    }
    if (snapshot.me) snapshot.me.program = body.chips;
    const seat = snapshot.seats.find((s) => s.number === snapshot.me?.seat);
    if (seat) seat.ready = true;
    setTimeout(() => broadcast("seat_ready", { seat: snapshot.me?.seat ?? 1 }), 100);
    return new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } });
  }
  if (url.startsWith("/api/games/7/")) {
    return new Response(JSON.stringify(snapshot), { status: 200, headers: { "Content-Type": "application/json" } });
  }
  return realFetch(input, init);
};
(window as unknown as { WebSocket: unknown }).WebSocket = FakeSocket;

(window as unknown as { rrDemo: unknown }).rrDemo = {
  turn: playTurn,
  ready: (seat: number) => broadcast("seat_ready", { seat }),
  gap: () => { version += 2; broadcast("turn_dealt", {}); },
  drop: () => sockets.forEach((s) => s.close()),
  snapshot,
};

void import("./main").then(() => {
  if (params.get("play") === "1") setTimeout(playTurn, 400);
  if (params.get("selftest") === "1") setTimeout(() => void selfTest(), 300);
});

// ---- in-page self test (results in <pre id="selftest">, read with --dump-dom) ----
const sent: string[] = [];
const origSend = FakeSocket.prototype.send;
FakeSocket.prototype.send = function (this: FakeSocket, data: string) { sent.push(data); origSend.call(this, data); };

async function selfTest(): Promise<void> {
  const out: string[] = [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const $ = <T extends Element>(sel: string) => document.querySelector<T>(sel);
  const reg = (i: number) => $<HTMLElement>(`.register[data-register="${i}"]`)?.dataset.chip ?? "-";
  const regs = () => [0, 1, 2, 3, 4].map(reg).join("");
  const key = (k: string) => document.body.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
  const check = (name: string, ok: boolean, info = "") => out.push(`${ok ? "PASS" : "FAIL"} ${name} ${info}`);
  $<HTMLButtonElement>('button.chip[data-index="0"]')?.click();
  check("click chip fills register 0", regs() === "1----", regs());
  check("used chip disabled", !!$<HTMLButtonElement>('button.chip[data-index="0"]')?.disabled);
  key("2");
  check("key 2 picks Turn left", regs() === "1L---", regs());
  key("Backspace");
  check("backspace clears last", regs() === "1----", regs());
  $<HTMLElement>('.register[data-register="0"]')?.click();
  check("click register clears it", regs() === "-----", regs());
  check("submit disabled when not full", !!$<HTMLButtonElement>("#submit-program")?.disabled);
  for (const k of ["5", "1", "2", "3", "4"]) key(k);
  check("five keys fill", regs() === "U1L2R", regs());
  check("submit enabled when full", !$<HTMLButtonElement>("#submit-program")?.disabled);
  key("Enter");
  await sleep(100);
  check("4xx detail shown", ($("#program-error")?.textContent ?? "").includes("U-turn"), $("#program-error")?.textContent ?? "");
  $<HTMLElement>('.register[data-register="0"] button')?.click();
  key("6");
  check("replace register 0", regs() === "B1L2R", regs());
  const reboot = $<HTMLInputElement>("#reboot-toggle");
  reboot?.click();
  check("reboot label", ($(".reboot")?.textContent ?? "") === "Reboot", $(".reboot")?.textContent ?? "");
  reboot?.click();
  $<HTMLButtonElement>("#submit-program")?.click();
  await sleep(300);
  check("submitted message", ($(".rr-program-message")?.textContent ?? "").includes("Program submitted"), $(".rr-program-message")?.textContent ?? "");
  check("error cleared", ($("#program-error")?.textContent ?? "") === "");
  check("seat_ready marks alice", $('.rr-seat[data-seat="1"] .seat-ready')?.textContent === "ready");
  check("program kept", regs() === "B1L2R", regs());
  const before = sent.length;
  (window as unknown as { rrDemo: { gap(): void } }).rrDemo.gap();
  await sleep(50);
  check("gap sends sync", sent.length === before + 1 && sent[sent.length - 1] === '{"type":"sync"}', String(sent.length - before));
  await sleep(200);
  $<HTMLButtonElement>('.rr-speed[data-speed="0"]')?.click();
  playTurn();
  await sleep(400);
  const b1 = $<SVGGElement>('g.bot[data-bot="1"]');
  const b2 = $<SVGGElement>('g.bot[data-bot="2"]');
  check("bot1 after turn", b1?.dataset.x === "0" && b1?.dataset.y === "5" && b1?.classList.contains("virtual") === true, `${b1?.dataset.x},${b1?.dataset.y}`);
  check("bot2 after turn", b2?.dataset.x === "2" && b2?.dataset.y === "5" && b2?.dataset.dir === "S", `${b2?.dataset.x},${b2?.dataset.y},${b2?.dataset.dir}`);
  check("new hand after sync", document.querySelectorAll("button.chip").length === 8 && regs() === "-----", regs());
  check("status", $("#game-status")?.textContent === "Turn 2 — programming", $("#game-status")?.textContent ?? "");
  const pre = document.createElement("pre");
  pre.id = "selftest";
  pre.textContent = out.join("\n");
  document.body.appendChild(pre);
}
