// The turn log: one table row per phase and bot (chip, movement, damage, check points), in the
// spirit of 001's stage report, filled event by event as the turn plays (or all at once after a reload).
import { botBadge, isBotAccount } from "./botaccounts";
import { playedText } from "./chips";
import { h } from "./dom";
import type { EngineEvent, Snapshot } from "./types";
import { moduleLabel } from "./modules";
import { isCoord } from "./types";
import type { Rules } from "./ruleset";

export * from "./logwords";
import {
  blockedText, damagedText, destroyedText, heading, moduleText, moveText, nameOf, OTHER, registerOrderText, repairedText,
  rulesetEventLine, shotText, spaceOrderText, turnText, winnerText,
} from "./logwords";

interface Row {
  tr: HTMLTableRowElement;
  chip: HTMLTableCellElement;
  /** Which module acted or caused something in this row. */
  mod: HTMLTableCellElement;
  move: HTMLTableCellElement;
  damage: HTMLTableCellElement;
  cps: HTMLTableCellElement;
  /** The open run of squares in the movement cell ("moved 2 squares north"), extended while the bot keeps moving. */
  run: { kind: string; dx: number; dy: number; to: string; node: Text } | null;
}

export class TurnLog {
  readonly el: HTMLElement;
  private readonly title: HTMLHeadingElement;
  private readonly body: HTMLTableSectionElement;
  private readonly table: HTMLTableElement;
  private readonly empty: HTMLParagraphElement;
  private readonly footer: HTMLParagraphElement;
  /** The column headings (setRules renames two). */
  private readonly heads: HTMLTableCellElement[];
  private rows = new Map<string, Row>();
  private priority: string[] = [];
  /** Next turn's priority as the turn's `priority` event gave it; not shown once the game is over. */
  private nextPriority = "";
  private won = false;
  private finished = false;
  /** The game's rules as the log words them (damage as hit points in fused, out of 22 in classic). */
  private rules: Pick<Rules, "hitPoints" | "maxDamage" | "named"> = { hitPoints: false, maxDamage: 10, named: false };
  /** Per bot, how it was last destroyed this turn (the panel says "fell into a pit" rather than "off the course"). */
  readonly destroyed = new Map<string, string>();

  constructor(parent: HTMLElement) {
    this.el = h("section", { class: "rr-log-section", "aria-labelledby": "rr-log-title" });
    this.title = h("h2", { id: "rr-log-title" }, "Turn log");
    this.empty = h("p", { class: "rr-log-empty" }, "No turn played yet.");
    this.table = h("table", { id: "turn-log", class: "rr-log" });
    const head = h("thead");
    const hr = h("tr");
    const heads = ["Phase", "Robot", "Chip", "Module", "Movement", "Damage", "Check points"].map((c) =>
      h("th", { scope: "col", class: c === "Module" ? "col-module" : "" }, c));
    hr.append(...heads);
    this.heads = heads;
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
    this.table.classList.remove("has-modules");
    this.empty.hidden = true;
    this.nextPriority = "";
    this.won = false;
    this.destroyed.clear();
    this.showFooter();
  }

  /** The ruleset's words (ruleset.ts): without damage (roborace) the damage column only says how robots fell;
   * numbered cards are "cards". */
  setRules(rules: { damage: boolean; numbered: boolean; hitPoints?: boolean; maxDamage?: number; named?: boolean; upgrades?: boolean }): void {
    this.rules = { hitPoints: !!rules.hitPoints, maxDamage: rules.maxDamage ?? 10, named: !!rules.named };
    const words: [number, string][] = [
      [2, rules.numbered ? "Card" : rules.upgrades ? "Instruction" : "Chip"], [3, rules.upgrades ? "Upgrade" : "Module"],
      [5, rules.damage ? (rules.hitPoints ? "Hit points" : "Damage") : "Destroyed"],
    ];
    for (const [i, text] of words) if (this.heads[i].textContent !== text) this.heads[i].textContent = text;
  }

  /** The logged turn was a finished game's last: there is no next turn, so its priority line goes. */
  setFinished(finished: boolean): void {
    this.finished = finished;
    this.showFooter();
  }

  private showFooter(): void {
    const text = this.finished || this.won ? "" : this.nextPriority;
    if (this.footer.textContent !== text) this.footer.textContent = text;
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
      if (seat && isBotAccount(seat.bot_account)) th.append(" ", botBadge());  // a bot account (docs/bot-api.md)
    } else {
      th.textContent = "Course";
    }
    row = { tr, chip: h("td"), mod: h("td", { class: "col-module" }), move: h("td"), damage: h("td"), cps: h("td"), run: null };
    tr.append(h("td", { class: "phase" }, phase ? String(phase) : "–"), th, row.chip, row.mod, row.move, row.damage, row.cps);
    // Rows by phase; within a phase by the turn's priority (course-wide rows last). A turn without a priority
    // (roborace: the larger card number acts first) keeps the order in which things happened.
    const ordered = this.priority.length > 0;
    const rank = (id: string): number => {
      const i = id === "" ? -1 : this.priority.indexOf(id);
      return i < 0 ? 1e6 + (id === "" && ordered ? 1 : 0) : i;
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

  private moveRun(row: Row, kind: "moved" | "carried" | "pushed" | "slid", by: string, e: Record<string, unknown>): void {
    if (e.portal === true) return this.note(row.move, kind === "pushed" ? `pushed through a portal${by ? ` by ${by}` : ""}` : "went through a portal", row);
    if (!isCoord(e.from) || !isCoord(e.to)) return this.note(row.move, moveText(kind, 0, 0, by).replace(" 0 squares", ""), row);
    const dx = e.to[0] - e.from[0], dy = e.to[1] - e.from[1];
    const key = `${kind}:${by}`, f = String(e.from), t = String(e.to);
    if (row.run && row.run.kind === key && row.run.to === f) {
      row.run.to = t;
      row.run.dx += dx;
      row.run.dy += dy;
      row.run.node.textContent = moveText(kind, row.run.dx, row.run.dy, by);
      return;
    }
    if (row.move.childNodes.length) row.move.appendChild(document.createTextNode("; "));
    const node = document.createTextNode(moveText(kind, dx, dy, by));
    row.move.appendChild(node);
    row.run = { kind: key, dx, dy, to: t, node };
  }

  /** Add one engine event to its row. */
  add(snap: Snapshot | null, e: EngineEvent): void {
    const r = e as Record<string, unknown>;
    const phase = typeof e.phase === "number" ? e.phase : 0;
    const bot = typeof r.bot === "string" ? r.bot : null;
    if (e.type === "priority" && Array.isArray(r.order)) {
      this.nextPriority = `Next turn's priority: ${r.order.map((id) => nameOf(snap, String(id))).join(", ")}`;
      this.showFooter();
      return;
    }
    if (e.type === "space_order") {
      // roborace: after the cards, each robot's space acts on it in this order (a line of its own, the course's).
      return this.note(this.row(snap, phase, null).move, spaceOrderText(snap, r.order));
    }
    if (e.type === "register_order") {
      // classic: the robots' order in this register (by instruction), a line of the course's.
      return this.note(this.row(snap, phase, null).move, registerOrderText(snap, r.order));
    }
    const line = rulesetEventLine(snap, e);
    if (line) {
      if (line.col === "mod") this.table.classList.add("has-modules");
      const row = this.row(snap, phase, bot);
      return this.note(row[line.col], line.text, line.col === "move" ? row : undefined);
    }
    if (snap?.modules?.length) this.table.classList.add("has-modules");
    const modText = moduleText(snap, e);
    if (modText !== null) {
      this.table.classList.add("has-modules");
      return this.note(this.row(snap, phase, bot).mod, modText);
    }
    if (e.type === "shot" && shotText(snap, r) === null) return; // a miss: only the board shows it
    const row = this.row(snap, phase, bot);
    if (typeof r.module === "string" && r.module) {
      // The module that caused this line (a Turbo square, a Blaster shot, a bomb's damage…).
      this.table.classList.add("has-modules");
      const label = moduleLabel(r.module);
      if (!(row.mod.textContent ?? "").includes(label)) this.note(row.mod, label);
    }
    switch (e.type) {
      case "chip": return this.note(row.chip, playedText(String(r.chip), r.number));
      case "rebooting": return this.note(row.chip, "rebooting (plays 0)");
      case "moved": return this.moveRun(row, "moved", "", r);
      case "slid": return this.moveRun(row, "slid", "", r);
      case "carried": return this.moveRun(row, "carried", "", r);
      case "pushed": {
        const by = typeof r.by === "string"
          ? (r.by === "pusher" ? "a pusher" : r.by === "repeller" ? "a wall repeller"
            : r.by === bot ? "its own recoil" : nameOf(snap, r.by)) : "";
        return this.moveRun(row, "pushed", by, r);
      }
      case "rotated": return this.note(row.move, turnText(r.from, r.to, r.cause), row);
      case "blocked": return this.note(row.move, blockedText(r.dir, r.by), row);
      case "reboot_refused": return this.note(row.move, `reboot refused (${String(r.reason ?? "radiation")})`, row);
      case "real": return this.note(row.move, "turned real", row);
      case "respawned": return this.note(row.move, `back on the board facing ${heading(r.dir)}${r.virtual !== false ? ", virtual" : ""}`, row);
      case "shot": return this.note(row.damage, shotText(snap, r) ?? "");
      case "damaged": return this.note(row.damage, damagedText(this.rules, r.amount, r.damage, r.cause));
      case "repaired": return this.note(row.damage, repairedText(this.rules, r.amount, r.damage, r.cause));
      case "destroyed": {
        if (bot !== null) this.destroyed.set(bot, destroyedText(r.cause));
        return this.note(row.damage, destroyedText(r.cause));
      }
      case "radiation": return this.note(row.move, "radiation left behind", row);
      // A bomb's blast breaks mirrors with no robot to blame (`bot` null, `cause` "bomb"): a line of the course's.
      case "mirror_broken": return this.note(row.move, bot === null ? `${r.cause === "bomb" ? "a bomb" : "something"} broke a mirror` : "broke a mirror", row);
      case "checkpoint": return this.note(row.cps, `✓ ${String(r.number)}`);
      case "winner": {
        this.won = true;
        this.showFooter();
        return this.note(row.cps, winnerText(r.reason));
      }
      default: return this.note(row.move, OTHER[String(e.type)] ?? String(e.type).replace(/_/g, " "), row);
    }
  }
}
