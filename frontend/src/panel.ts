// Status panel: game status line, seats in priority order, and the last turn's log.
import { h } from "./dom";
import { chipLabel } from "./chips";
import type { BotState, Coord, EngineEvent, Seat, Snapshot } from "./types";

function xy(c: unknown): string {
  return Array.isArray(c) && c.length === 2 ? `(${c[0]},${c[1]})` : "(off the course)";
}

export function botName(snap: Snapshot | null, bot: string): string {
  const seat = snap?.seats.find((s) => s.bot != null && String(s.bot) === bot);
  return seat ? seat.user : `Robot ${bot}`;
}

export function winnerName(snap: Snapshot): string | null {
  if (snap.winner == null) return null;
  const w = String(snap.winner);
  const seat = snap.seats.find((s) => String(s.bot) === w) ?? snap.seats.find((s) => s.user === w);
  return seat ? seat.user : w;
}

export function statusText(snap: Snapshot, moving: boolean): string {
  switch (snap.status) {
    case "lobby": {
      const max = snap.max_seats ?? snap.course?.players?.[1];
      return `Lobby — waiting for players (${snap.seats.length}${max ? ` of ${max}` : ""} seated)`;
    }
    case "programming":
      return moving ? `Turn ${snap.turn} — robots moving` : `Turn ${snap.turn} — programming`;
    case "resolving":
      return `Turn ${snap.turn} — robots moving`;
    case "finished": {
      const w = winnerName(snap);
      return w ? `Finished — ${w} wins` : "Finished";
    }
    default:
      return `Turn ${snap.turn} — ${String(snap.status)}`;
  }
}

/** One readable line for an engine event. */
export function describeEvent(snap: Snapshot | null, e: EngineEvent): string {
  const r = e as Record<string, unknown>;
  const who = typeof r.bot === "string" ? botName(snap, r.bot) : "";
  switch (e.type) {
    case "chip": return `${who} plays ${chipLabel(String(r.chip))}`;
    case "moved": return `${who} moves ${xy(r.from)}→${xy(r.to)}`;
    case "pushed": {
      const by = typeof r.by === "string" ? ` by ${snap?.seats.some((s) => String(s.bot) === r.by) ? botName(snap, r.by) : r.by}` : "";
      return `${who} is pushed${by} ${xy(r.from)}→${xy(r.to)}`;
    }
    case "rotated": return `${who} turns ${String(r.from)}→${String(r.to)}`;
    case "blocked": return `${who} bumps into a wall going ${String(r.dir)} at ${xy(r.at)}`;
    case "destroyed": return `${who} is destroyed${r.cause ? ` (${String(r.cause)})` : ""} at ${xy(r.at)}`;
    case "damaged": return `${who} takes ${String(r.amount)} damage (now ${String(r.damage)})`;
    case "checkpoint": return `${who} reaches check point ${String(r.number)}`;
    case "respawned": return `${who} re-enters at ${xy(r.at as Coord)} facing ${String(r.dir)}${r.virtual ? " (virtual)" : ""}`;
    case "winner": return `${who} wins!`;
    default: return `${who ? who + ": " : ""}${String(e.type)}`;
  }
}

export class Panel {
  readonly el: HTMLElement;
  readonly status: HTMLParagraphElement;
  readonly conn: HTMLParagraphElement;
  private readonly seatsEl: HTMLUListElement;
  private readonly log: HTMLOListElement;
  private readonly logTitle: HTMLHeadingElement;

  constructor(parent: HTMLElement, before: HTMLElement | null) {
    this.el = h("div", { class: "rr-status" });
    this.status = h("p", { id: "game-status", "aria-live": "polite" }, "Loading…");
    this.conn = h("p", { class: "rr-conn", "aria-live": "polite" });
    this.el.append(this.status, this.conn);
    parent.insertBefore(this.el, before);

    const seats = h("section", { class: "rr-seats-section", "aria-labelledby": "rr-seats-title" });
    seats.appendChild(h("h2", { id: "rr-seats-title" }, "Robots"));
    this.seatsEl = h("ul", { class: "rr-seats" });
    seats.appendChild(this.seatsEl);
    parent.appendChild(seats);

    const logSec = h("section", { class: "rr-log-section", "aria-labelledby": "rr-log-title" });
    this.logTitle = h("h2", { id: "rr-log-title" }, "Last turn");
    this.log = h("ol", { id: "turn-log", class: "rr-log" });
    this.log.appendChild(h("li", { class: "rr-log-empty" }, "No turn played yet."));
    logSec.append(this.logTitle, this.log);
    parent.appendChild(logSec);
  }

  setStatus(text: string): void {
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  setConnection(text: string): void {
    this.conn.textContent = text;
    this.conn.hidden = !text;
  }

  renderSeats(snap: Snapshot, bots: Map<string, BotState>): void {
    const order: Seat[] = [];
    const seen = new Set<Seat>();
    for (const id of Array.isArray(snap.priority) ? snap.priority : []) {
      const s = snap.seats.find((x) => x.bot != null && String(x.bot) === String(id));
      if (s && !seen.has(s)) { order.push(s); seen.add(s); }
    }
    for (const s of [...snap.seats].sort((a, b) => a.number - b.number)) if (!seen.has(s)) order.push(s);

    const items = order.map((s) => {
      const bot = s.bot != null ? bots.get(String(s.bot)) : undefined;
      const li = h("li", { class: "rr-seat", "data-seat": String(s.number) });
      if (snap.me && snap.me.seat === s.number) li.classList.add("me");
      const sw = h("span", { class: "swatch", "aria-hidden": "true" }, String(s.number));
      sw.style.background = s.color;
      const name = h("span", { class: "seat-name" }, s.user + (snap.me?.seat === s.number ? " (you)" : ""));
      const stats = h("span", { class: "seat-stats" });
      const inLobby = snap.status === "lobby";
      if (inLobby) {
        stats.textContent = "waiting for the start";
      } else if (bot) {
        stats.textContent = `damage ${bot.damage} · lives ${bot.lives} · next check point ${bot.next_checkpoint}` +
          (bot.at ? "" : " · off the course") + (bot.virtual ? " · virtual" : "");
      } else {
        stats.textContent = "no robot";
      }
      const ready = inLobby
        ? h("span", { class: "seat-ready is-ready" }, "seated")
        : h("span", { class: `seat-ready ${s.ready ? "is-ready" : "is-thinking"}` }, s.ready ? "ready" : "thinking");
      li.append(sw, name, ready, stats);
      return li;
    });
    if (!items.length) items.push(h("li", { class: "rr-seat empty" }, "No players yet."));
    this.seatsEl.replaceChildren(...items);
  }

  startLog(turn: number): void {
    this.logTitle.textContent = `Turn ${turn}`;
    this.log.replaceChildren();
  }

  /** Append one engine event to the log, grouped into one line per phase. */
  logEvent(snap: Snapshot | null, e: EngineEvent): void {
    const phase = typeof e.phase === "number" ? e.phase : 0;
    let li = this.log.querySelector<HTMLLIElement>(`li[data-phase="${phase}"]`);
    if (!li) {
      li = h("li", { "data-phase": String(phase) });
      li.appendChild(h("strong", {}, phase ? `Phase ${phase}:` : "Turn:"));
      this.log.appendChild(li);
    }
    const sep = li.childNodes.length > 1 ? "; " : " ";
    li.appendChild(document.createTextNode(sep + describeEvent(snap, e)));
  }
}
