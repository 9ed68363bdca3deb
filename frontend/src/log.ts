// The turn log: one table row per phase and bot (chip, movement, damage, check points), in the
// spirit of 001's stage report, filled event by event as the turn plays (or all at once after a reload).
import { chipLabel } from "./chips";
import { h } from "./dom";
import type { EngineEvent, Snapshot } from "./types";
import { isCoord } from "./types";

function xy(c: unknown): string {
  return isCoord(c) ? `(${c[0]},${c[1]})` : "(off the course)";
}

interface Row {
  tr: HTMLTableRowElement;
  chip: HTMLTableCellElement;
  move: HTMLTableCellElement;
  damage: HTMLTableCellElement;
  cps: HTMLTableCellElement;
  /** The open "(a)→(b)" run of squares in the movement cell, extended while the bot keeps moving. */
  run: { kind: string; from: string; to: string; node: Text } | null;
}

export function nameOf(snap: Snapshot | null, bot: string): string {
  const seat = snap?.seats.find((s) => s.bot != null && String(s.bot) === bot);
  return seat ? seat.user : `Robot ${bot}`;
}

/** The turn's priority as its events show it: the order in which bots play chips. */
export function turnPriority(events: EngineEvent[]): string[] {
  const seen: string[] = [];
  for (const e of events) {
    const bot = (e as Record<string, unknown>).bot;
    if (e.step === "chips" && typeof bot === "string" && !seen.includes(bot)) seen.push(bot);
  }
  return seen;
}

export class TurnLog {
  readonly el: HTMLElement;
  private readonly title: HTMLHeadingElement;
  private readonly body: HTMLTableSectionElement;
  private readonly table: HTMLTableElement;
  private readonly empty: HTMLParagraphElement;
  private readonly footer: HTMLParagraphElement;
  private rows = new Map<string, Row>();
  private priority: string[] = [];

  constructor(parent: HTMLElement) {
    this.el = h("section", { class: "rr-log-section", "aria-labelledby": "rr-log-title" });
    this.title = h("h2", { id: "rr-log-title" }, "Turn log");
    this.empty = h("p", { class: "rr-log-empty" }, "No turn played yet.");
    this.table = h("table", { id: "turn-log", class: "rr-log" });
    const head = h("thead");
    const hr = h("tr");
    for (const c of ["Phase", "Robot", "Chip", "Movement", "Damage", "Check points"]) hr.appendChild(h("th", { scope: "col" }, c));
    head.appendChild(hr);
    this.body = h("tbody");
    this.table.append(head, this.body);
    this.table.hidden = true;
    this.footer = h("p", { class: "rr-log-footer" });
    const wrap = h("div", { class: "rr-log-scroll" });
    wrap.appendChild(this.table);
    this.el.append(this.title, this.empty, wrap, this.footer);
    parent.appendChild(this.el);
  }

  /** Empty the table for a turn; `priority` (that turn's order) orders the rows within a phase. */
  start(title: string, priority: string[] = []): void {
    this.priority = priority.map(String);
    this.title.textContent = title;
    this.body.replaceChildren();
    this.rows.clear();
    this.table.hidden = true;
    this.empty.hidden = true;
    this.footer.textContent = "";
  }

  private row(snap: Snapshot | null, phase: number, bot: string | null): Row {
    const key = `${phase}|${bot ?? ""}`;
    let row = this.rows.get(key);
    if (row) return row;
    const tr = h("tr", { "data-phase": String(phase), "data-bot": bot ?? "" });
    const th = h("th", { scope: "row" });
    if (bot !== null) {
      const seat = snap?.seats.find((s) => String(s.bot) === bot);
      if (seat) {
        const sw = h("span", { class: "swatch small", "aria-hidden": "true" });
        sw.style.background = seat.color;
        th.appendChild(sw);
      }
      th.appendChild(document.createTextNode(nameOf(snap, bot)));
    } else {
      th.textContent = "Course";
    }
    row = { tr, chip: h("td"), move: h("td"), damage: h("td"), cps: h("td"), run: null };
    tr.append(h("td", { class: "phase" }, phase ? String(phase) : "–"), th, row.chip, row.move, row.damage, row.cps);
    // Rows by phase; within a phase by the turn's priority (course-wide rows last).
    const rank = (id: string): number => {
      const i = id === "" ? -1 : this.priority.indexOf(id);
      return i < 0 ? 1e6 + (id === "" ? 1 : 0) : i;
    };
    const mine = rank(bot ?? "");
    const after = [...this.body.children].find((r) => {
      const d = (r as HTMLElement).dataset;
      const p = Number(d.phase);
      return p > phase || (p === phase && rank(d.bot ?? "") > mine);
    });
    this.body.insertBefore(tr, after ?? null);
    this.rows.set(key, row);
    this.table.hidden = false;
    return row;
  }

  private note(cell: HTMLTableCellElement, text: string, row?: Row): void {
    if (row) row.run = null;
    if (cell.childNodes.length) cell.appendChild(document.createTextNode("; "));
    cell.appendChild(document.createTextNode(text));
  }

  private moveRun(row: Row, kind: string, label: string, from: unknown, to: unknown): void {
    const f = xy(from), t = xy(to);
    if (row.run && row.run.kind === kind && row.run.to === f) {
      row.run.to = t;
      row.run.node.textContent = `${label}${row.run.from}→${t}`;
      return;
    }
    if (row.move.childNodes.length) row.move.appendChild(document.createTextNode("; "));
    const node = document.createTextNode(`${label}${f}→${t}`);
    row.move.appendChild(node);
    row.run = { kind, from: f, to: t, node };
  }

  /** Add one engine event to its row. */
  add(snap: Snapshot | null, e: EngineEvent): void {
    const r = e as Record<string, unknown>;
    const phase = typeof e.phase === "number" ? e.phase : 0;
    const bot = typeof r.bot === "string" ? r.bot : null;
    if (e.type === "priority" && Array.isArray(r.order)) {
      this.footer.textContent = `Next turn's priority: ${r.order.map((id) => nameOf(snap, String(id))).join(", ")}`;
      return;
    }
    if (e.type === "shot" && typeof r.target !== "string") return; // a miss: only the board shows it
    const row = this.row(snap, phase, bot);
    switch (e.type) {
      case "chip": return this.note(row.chip, chipLabel(String(r.chip)));
      case "rebooting": return this.note(row.chip, "rebooting (plays 0)");
      case "moved": return this.moveRun(row, "moved", "", r.from, r.to);
      case "carried": return this.moveRun(row, "carried", "belt ", r.from, r.to);
      case "pushed": {
        const by = typeof r.by === "string" ? (r.by === "pusher" ? "pusher" : nameOf(snap, r.by)) : "?";
        return this.moveRun(row, `pushed:${by}`, `pushed by ${by} `, r.from, r.to);
      }
      case "rotated": {
        const cause = r.cause && r.cause !== "chip" ? ` (${String(r.cause)})` : "";
        return this.note(row.move, `turned ${String(r.from)}→${String(r.to)}${cause}`, row);
      }
      case "blocked": return this.note(row.move, `blocked going ${String(r.dir)} by ${String(r.by ?? "wall")}`, row);
      case "reboot_refused": return this.note(row.move, `reboot refused (${String(r.reason ?? "radiation")})`, row);
      case "real": return this.note(row.move, "turned real", row);
      case "respawned": return this.note(row.move, `respawned at ${xy(r.at)} facing ${String(r.dir)}${r.virtual !== false ? ", virtual" : ""}`, row);
      case "shot": {
        const who = r.source === "bot" ? "shoots" : "wall laser hits";
        return this.note(row.damage, `${who} ${nameOf(snap, String(r.target))}${r.beams && Number(r.beams) > 1 ? ` (${String(r.beams)} beams)` : ""}`);
      }
      case "damaged": return this.note(row.damage, `+${String(r.amount)} ${String(r.cause ?? "")} (now ${String(r.damage)})`.replace("  ", " "));
      case "repaired": return this.note(row.damage, `−${String(r.amount)} repaired (now ${String(r.damage)})`);
      case "destroyed": return this.note(row.damage, `destroyed (${String(r.cause ?? "?")}) at ${xy(r.at)}`);
      case "radiation": return this.note(row.move, `radiation left at ${xy(r.at)}`, row);
      case "checkpoint": return this.note(row.cps, `✓ ${String(r.number)}`);
      case "winner": return this.note(row.cps, `wins${r.reason ? ` (${String(r.reason)})` : ""}`);
      default: return this.note(row.move, String(e.type), row);
    }
  }
}
