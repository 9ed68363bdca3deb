// Status panel: the game status line, and the robots in next turn's priority order (003 "Priority":
// the status panel shows bots in priority order for the upcoming turn).
import { h } from "./dom";
import { nameOf } from "./log";
import type { BotState, Seat, Snapshot } from "./types";

export const botName = nameOf;

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

/** Seats in the order of `priority` (bot ids), then any others by seat number. */
export function seatsInPriority(snap: Snapshot, priority: string[]): Seat[] {
  const order: Seat[] = [];
  const seen = new Set<Seat>();
  for (const id of priority) {
    const s = snap.seats.find((x) => x.bot != null && String(x.bot) === String(id));
    if (s && !seen.has(s)) { order.push(s); seen.add(s); }
  }
  for (const s of [...snap.seats].sort((a, b) => a.number - b.number)) if (!seen.has(s)) order.push(s);
  return order;
}

function stat(label: string, value: string, cls: string): HTMLElement {
  const span = h("span", { class: `stat ${cls}` });
  span.append(h("span", { class: "stat-label" }, label), document.createTextNode(" " + value));
  return span;
}

export class Panel {
  readonly el: HTMLElement;
  readonly status: HTMLParagraphElement;
  readonly phase: HTMLParagraphElement;
  readonly conn: HTMLParagraphElement;
  readonly seatsSection: HTMLElement;
  private readonly seatsEl: HTMLOListElement;

  constructor(parent: HTMLElement) {
    this.el = h("div", { class: "rr-status" });
    this.status = h("p", { id: "game-status", "aria-live": "polite" }, "Loading…");
    this.phase = h("p", { id: "phase-status", class: "rr-phase" });
    this.conn = h("p", { class: "rr-conn", "aria-live": "polite" });
    this.el.append(this.status, this.phase, this.conn);
    parent.appendChild(this.el);

    const seats = h("section", { class: "rr-seats-section", "aria-labelledby": "rr-seats-title" });
    seats.appendChild(h("h2", { id: "rr-seats-title" }, "Robots in priority order"));
    this.seatsEl = h("ol", { class: "rr-seats" });
    seats.appendChild(this.seatsEl);
    parent.appendChild(seats);
    this.seatsSection = seats;
  }

  setStatus(text: string): void {
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  setPhase(text: string): void {
    this.phase.textContent = text;
  }

  setConnection(text: string): void {
    this.conn.textContent = text;
    this.conn.hidden = !text;
  }

  renderSeats(snap: Snapshot, bots: Map<string, BotState>, priority: string[]): void {
    const inLobby = snap.status === "lobby";
    const items = seatsInPriority(snap, priority).map((s) => {
      const bot = s.bot != null ? bots.get(String(s.bot)) : undefined;
      const mine = snap.me?.seat === s.number;
      const li = h("li", { class: "rr-seat", "data-seat": String(s.number) });
      if (mine) li.classList.add("me");
      const sw = h("span", { class: "swatch", "aria-hidden": "true" }, String(s.number));
      sw.style.background = s.color;
      const name = h("span", { class: "seat-name" }, s.user + (mine ? " (you)" : ""));
      const stats = h("span", { class: "seat-stats" });
      let readyText = snap.status === "programming" ? (s.ready ? "ready" : "thinking") : "";
      if (inLobby) {
        stats.textContent = "waiting for the start";
        readyText = "seated";
      } else if (bot) {
        stats.append(
          stat("damage", String(bot.damage), "stat-damage"),
          stat("lives", String(bot.lives), "stat-lives"),
          stat("next check point", String(bot.next_checkpoint), "stat-cp"),
        );
        const notes: string[] = [];
        if (bot.lives <= 0) notes.push("out of the game");
        else if (!bot.at) notes.push("off the course");
        else {
          // Only a robot still racing is virtual, rebooting or asking to reboot.
          if (bot.virtual) notes.push("virtual");
          if (bot.rebooting) notes.push("rebooting this turn");
          if (mine && snap.me?.reboot && snap.status !== "finished") notes.push("reboot requested");
        }
        if (notes.length) stats.append(h("span", { class: "stat stat-notes" }, notes.join(" · ")));
        if (bot.lives <= 0) readyText = "out";
      } else {
        stats.textContent = "no robot";
      }
      const ready = h("span", {
        class: `seat-ready ${readyText === "thinking" ? "is-thinking" : "is-ready"}`,
      }, readyText);
      li.append(sw, name, ready, stats);
      if (!readyText) ready.remove();
      return li;
    });
    if (!items.length) items.push(h("li", { class: "rr-seat empty" }, "No players yet."));
    this.seatsEl.replaceChildren(...items);
  }
}
