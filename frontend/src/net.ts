// Talking to the server: REST (snapshot, program) with Django's CSRF cookie, and a WebSocket
// that reconnects with backoff.
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
  let detail = res.status === 429 ? "Too many messages: wait a moment and try again."
    : `The server refused ${what} (HTTP ${res.status}).`;
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
      if (msg && typeof msg === "object" && "type" in msg) this.onMessage(msg as ServerMessage);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
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

  close(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    this.ws?.close();
  }
}
