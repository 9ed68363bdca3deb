// Talking to the server: REST (snapshot, program) with Django's CSRF cookie, and a WebSocket
// that reconnects with backoff and carries requests (a program) answered on the same socket by `id`.
import type { Chip, ServerMessage, Snapshot } from "./types";
import type { ModuleAction } from "./modules";

export function getCookie(name: string): string | null {
  for (const part of document.cookie ? document.cookie.split(";") : []) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** Full ws:// or wss:// URL from a path, matching the page's http/https. */
export function wsUrlFromPath(path: string): string {
  if (/^wss?:\/\//.test(path)) return path;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path.startsWith("/") ? "" : "/"}${path}`;
}

export function joinUrl(base: string, rel: string): string {
  return base.endsWith("/") ? base + rel : `${base}/${rel}`;
}

export async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

export function fetchSnapshot(apiUrl: string): Promise<Snapshot> {
  return fetchJson<Snapshot>(apiUrl);
}

/** GET /api/games/<id>/turns/<n>/ from the game's API URL. */
export function turnUrl(apiUrl: string, turn: number): string {
  return joinUrl(apiUrl, `turns/${turn}/`);
}

/** classic (000): power down next round, and/or the upgrades' switches for this round. */
export interface ClassicAction { power_down?: boolean; upgrade_use?: Record<string, unknown> }
export interface ProgramBody { turn: number; chips: Chip[]; reboot: boolean; action?: ModuleAction | ClassicAction | null }
export type PostResult = { ok: true } | { ok: false; status: number; detail: string };
export type PostJsonResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; detail: string };

/** What a refusal says when the server gave no `detail`: by HTTP status, over HTTP or the socket alike. */
function refusedSentence(status: number, what: string): string {
  return status === 429 ? "Too many messages: wait a moment and try again." : `The server refused ${what} (HTTP ${status}).`;
}

/** POST JSON with the CSRF header; a 4xx/5xx comes back as its `detail` (or a generic sentence). */
export async function postJson<T = unknown>(url: string, body: unknown, what = "the request"): Promise<PostJsonResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": getCookie("csrftoken") ?? "",
      },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    return { ok: false, status: 0, detail: "Could not reach the server. Check your connection and try again." };
  }
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  if (res.ok) return { ok: true, status: res.status, data: data as T };
  let detail = refusedSentence(res.status, what);
  if (data && typeof data === "object" && "detail" in data) {
    const d = (data as { detail: unknown }).detail;
    if (typeof d === "string" && d) detail = d;
    else if (d != null) detail = JSON.stringify(d);
  }
  return { ok: false, status: res.status, detail };
}

export async function postProgram(apiUrl: string, body: ProgramBody): Promise<PostResult> {
  const res = await postJson(joinUrl(apiUrl, "program/"), body, "the program");
  return res.ok ? { ok: true } : res;
}

// ---- Requests over the game socket (a program: GameConsumer.receive_program in games/consumers.py) ----
/** A frame the client sends and the server answers on this socket alone, by the frame's `id`. */
export interface SocketRequest { type: string; [key: string]: unknown }
/** The server held the program: its turn, chips, reboot and action as stored. */
export interface ProgramAcceptedReply {
  type: "program_accepted"; id: string | number; turn: number; chips: Chip[]; reboot: boolean; action: unknown;
}
/** A refused request: `status` is the HTTP status the same POST would have had, `detail` its sentence. */
export interface ErrorReply {
  type: "error"; id: string | number; code: string; detail: string; status?: number; retry_after?: number;
}
export type SocketReply = ProgramAcceptedReply | ErrorReply;

/** How long a request waits for its reply before it gives up (resolves null). */
export const REQUEST_TIMEOUT_MS = 8000;
/** The server refuses a longer frame (games/consumers.py MAX_FRAME_CHARS) without its `id`: such a request
 * is not sent, as if the socket were closed. */
export const MAX_FRAME_CHARS = 4096;

/** A reply to a request: a program_accepted or an error that carries an `id`. (The server's other error
 * frames, a refused sync's among them, carry none.) */
function isReply(msg: object): msg is SocketReply {
  const m = msg as { type?: unknown; id?: unknown };
  return (m.type === "program_accepted" || m.type === "error") && (typeof m.id === "string" || typeof m.id === "number");
}

/** A program frame's reply as postProgram's PostResult: the same detail the POST's would have, the same
 * generic sentence when there is none. */
export function programResult(reply: SocketReply): PostResult {
  if (reply.type === "program_accepted") return { ok: true };
  const status = typeof reply.status === "number" && reply.status > 0 ? reply.status : 400;
  const detail = typeof reply.detail === "string" && reply.detail ? reply.detail : refusedSentence(status, "the program");
  return { ok: false, status, detail };
}

/** POST /api/games/<id>/<action>/ (chat, leave, cancel) from the game's API URL. */
export function gameActionUrl(apiUrl: string, action: string): string {
  return joinUrl(apiUrl, `${action}/`);
}

export type ConnState = "connecting" | "open" | "closed";

export class GameSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private timer: number | undefined;
  private stopped = false;
  private everOpen = false;
  private failures = 0;
  /** Requests sent and not answered yet, by id; each resolves once (reply, timeout or close). */
  private readonly pending = new Map<string, { resolve: (reply: SocketReply | null) => void; timer: number | undefined }>();
  private lastId = 0;

  constructor(
    private readonly url: string,
    private readonly onMessage: (msg: ServerMessage) => void,
    private readonly onState: (state: ConnState) => void,
    /** Stop trying after this many failed attempts in a row if the socket never opened (a server
     * without the endpoint, or one that refuses this user); 0: never give up. */
    private readonly giveUpAfter = 0,
  ) {}

  connect(): void {
    if (this.stopped) return;
    this.onState("connecting");
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.everOpen = true;
      this.onState("open");
    });
    ws.addEventListener("message", (ev: MessageEvent) => {
      if (typeof ev.data !== "string") return;
      let msg: unknown;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (!msg || typeof msg !== "object" || !("type" in msg)) return;
      // A reply belongs to its request; one that comes after its request gave up is dropped (the sync
      // logic must not read a program's rate_limited error as its own).
      if (isReply(msg)) this.settle(String(msg.id), msg);
      else this.onMessage(msg as ServerMessage);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.settleAll();
      this.onState("closed");
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.failures += 1;
    if (this.giveUpAfter > 0 && !this.everOpen && this.failures >= this.giveUpAfter) return;
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt = Math.min(this.attempt + 1, 10);
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  /** Ask the server for a fresh snapshot. Returns false if the socket is not open. */
  sync(): boolean {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "sync" }));
      return true;
    }
    return false;
  }

  /** Send a request with a fresh `id` and wait for its reply: null if the socket is not open, closes first,
   * or no reply comes within `timeoutMs`. */
  request(frame: SocketRequest, timeoutMs = REQUEST_TIMEOUT_MS): Promise<SocketReply | null> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve(null);
    this.lastId += 1;
    const id = `r${this.lastId}`;
    const text = JSON.stringify({ ...frame, id });
    if (text.length > MAX_FRAME_CHARS) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = window.setTimeout(() => this.settle(id, null), timeoutMs);
      this.pending.set(id, { resolve, timer });
      try {
        ws.send(text);
      } catch {
        this.settle(id, null);
      }
    });
  }

  private settle(id: string, reply: SocketReply | null): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    window.clearTimeout(waiting.timer);
    waiting.resolve(reply);
  }

  private settleAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, null);
  }

  close(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    this.settleAll();
    this.ws?.close();
  }
}
