// The turn log: one table row per phase and bot (chip, movement, damage, check points), in the
// spirit of 001's stage report, filled event by event as the turn plays (or all at once after a reload).
import { isComputer } from "./computers";
import { playedText } from "./chips";
import { h } from "./dom";
import type { EngineEvent, Snapshot } from "./types";
import { moduleLabel } from "./modules";
import { isCoord } from "./types";
import { damageValue, ordinal, upgradeLabel, type Rules } from "./ruleset";

// Players see no coordinates on the board, so the log speaks in plain words: "moved 2 squares north",
// "fell into a pit", "turned right (belt)" — never "(1,7)→(1,5)" or "destroyed (edge) at (-1,7)".

const HEADINGS: Record<string, string> = { N: "north", E: "east", S: "south", W: "west" };

function heading(d: unknown): string {
  return HEADINGS[String(d)] ?? String(d);
}

function squares(n: number): string {
  return `${n} square${n === 1 ? "" : "s"}`;
}

/** A run of squares as a distance: "2 squares north", "1 square east", "2 squares north and 1 east". North is -y. */
export function distanceText(dx: number, dy: number): string {
  const ns = dy === 0 ? "" : `${Math.abs(dy)} ${dy < 0 ? "north" : "south"}`;
  const ew = dx === 0 ? "" : `${Math.abs(dx)} ${dx > 0 ? "east" : "west"}`;
  if (ns && ew) return `${squares(Math.abs(dy))} ${dy < 0 ? "north" : "south"} and ${ew}`;
  if (ns) return `${squares(Math.abs(dy))} ${dy < 0 ? "north" : "south"}`;
  if (ew) return `${squares(Math.abs(dx))} ${dx > 0 ? "east" : "west"}`;
  return "0 squares";
}

/** A movement cell's run: "moved 2 squares north", "carried 1 square east by a belt", "pushed … by Ada". */
export function moveText(kind: "moved" | "carried" | "pushed" | "slid", dx: number, dy: number, by = ""): string {
  const d = distanceText(dx, dy);
  switch (kind) {
    case "carried": return `carried ${d} by a belt`;
    case "pushed": return `pushed ${d}${by ? ` by ${by}` : ""}`;
    case "slid": return `slid ${d} on oil`;
    default: return `moved ${d}`;
  }
}

const DESTROYED: Record<string, string> = {
  pit: "fell into a pit", edge: "fell off the board", laser: "destroyed by a laser", blaster: "destroyed by a blaster",
  "bot laser": "destroyed by a robot's laser", crusher: "crushed", "virtual burn": "burnt out while virtual",
  screen: "fell through a screen", trapdoor: "fell through a trapdoor", receptacle: "fell into a receptacle",
  shocker: "destroyed by a shocker", vent: "destroyed by a vent", portal: "destroyed in a portal",
  force_field: "destroyed by a force field",
};

/** A `destroyed` event's cause (docs/formats.md) in plain words; "destroyed" when unknown. */
export function destroyedText(cause: unknown): string {
  return DESTROYED[String(cause)] ?? "destroyed";
}

/** A `rotated` event: "turned right", "turned left", "turned around", with what turned it unless a chip did. */
export function turnText(from: unknown, to: unknown, cause: unknown): string {
  const order = ["N", "E", "S", "W"];
  const a = order.indexOf(String(from)), b = order.indexOf(String(to));
  const way = a < 0 || b < 0 || a === b ? `to face ${heading(to)}` : ["", "right", "around", "left"][(b - a + 4) % 4];
  const by = cause && cause !== "chip" ? ` (${String(cause)})` : "";
  return `turned ${way}${by}`;
}

const BLOCKERS: Record<string, string> = {
  wall: "a wall", bot: "a robot", one_way_wall: "a one-way wall", sliding_wall: "a sliding wall", window: "a window",
  fence: "the electric fence", pusher: "a pusher",
  shocker: "a shocker", portal: "a portal", force_field: "a force field", mirror: "a mirror", magnet: "a magnet",
};

export function blockedText(dir: unknown, by: unknown): string {
  return `blocked by ${BLOCKERS[String(by ?? "wall")] ?? String(by)} going ${heading(dir)}`;
}

/** Damage causes in words: "electric fence", "robot laser". */
const CAUSES: Record<string, string> = { fence: "electric fence", "bot laser": "robot laser", laser: "laser" };

/** A `damaged` event's line: "+1 laser (now 3)"; fused "−1 HP electric fence (now HP 9/10)"; classic "(now 3/22)". */
export function damagedText(rules: Pick<Rules, "hitPoints" | "maxDamage" | "named">, amount: unknown, damage: unknown, cause: unknown): string {
  const why = CAUSES[String(cause ?? "")] ?? String(cause ?? "");
  const now = typeof damage === "number" ? damageValue(rules, damage) : String(damage);
  const text = rules.hitPoints ? `−${String(amount)} HP ${why} (now ${now})` : `+${String(amount)} ${why} (now ${now})`;
  return text.replace("  ", " ");
}

/** A `repaired` event's line: "−1 repaired (now 2)"; fused "+1 HP repaired (now HP 10/10)". */
export function repairedText(rules: Pick<Rules, "hitPoints" | "maxDamage" | "named">, amount: unknown, damage: unknown, cause: unknown): string {
  const now = typeof damage === "number" ? damageValue(rules, damage) : String(damage);
  const why = !rules.named ? "repaired" : cause === "power down" ? "repaired (power down)" : cause === "reboot" ? "repaired (reboot)" : "repaired";
  return rules.hitPoints ? `+${String(amount)} HP ${why} (now ${now})` : `−${String(amount)} ${why} (now ${now})`;
}

/** The fused (001) and classic (000) events in words, with the column they go in; null for other events. */
export function rulesetEventLine(snap: Snapshot | null, e: EngineEvent): { col: "chip" | "mod" | "move" | "damage" | "cps"; text: string } | null {
  const r = e as Record<string, unknown>;
  switch (e.type) {
    case "reinstate_point": return { col: "cps", text: `new reinstate point (facing ${heading(r.dir)})` };
    case "register_fused": return { col: "damage", text: `register ${String(r.register)} fused (${playedText(String(r.card ?? "?"))})` };
    case "reboot_next": return { col: "damage", text: "reboots next turn (sits it out)" };
    case "powered_down": return { col: "chip", text: "powered down (plays nothing, repaired)" };
    case "archived": return { col: "cps", text: "archive marker moved here" };
    case "finished": return { col: "cps", text: `finished ${ordinal(Number(r.place))}` };
    case "upgraded": return { col: "mod", text: `took the upgrade ${upgradeLabel(r.upgrade)}` };
    case "offer": return { col: "mod", text: `upgrade on offer: ${upgradeLabel(r.upgrade)}` };
    case "upgrade_lost": return { col: "mod", text: `lost ${upgradeLabel(r.upgrade)}${r.reason ? ` (${String(r.reason)})` : ""}` };
    case "absorbed": return { col: "damage", text: `${upgradeLabel(r.upgrade)} absorbed ${String(r.amount ?? 1)} damage` };
    case "beam": return { col: "mod", text: `${upgradeLabel(r.upgrade)}${typeof r.target === "string" ? ` on ${nameOf(snap, r.target)}` : ""}` };
    case "scrambled": return { col: "chip", text: `register ${String(r.register)} scrambled` };
    case "circuit_breaker": return { col: "mod", text: `Circuit Breaker: powers down next round (${String(r.damage)} damage)` };
    case "recompiled": return { col: "mod", text: "Recompile: new instructions for 2 damage" };
    default: return null;
  }
}

/** classic's `register_order` event: "Robots act in this order: Alice, Bob". */
export function registerOrderText(snap: Snapshot | null, order: unknown): string {
  // The order holds the robots on the board: an empty one means none is there to act (all destroyed).
  if (Array.isArray(order) && order.length === 0) return NO_ROBOT_ACTS;
  const ids = Array.isArray(order) ? order.map(String) : [];
  return ids.length ? `Robots act in this order: ${ids.map((id) => nameOf(snap, id)).join(", ")}` : "Robots act";
}

/** The words of an empty classic `register_order`. */
export const NO_ROBOT_ACTS = "No robot on the board: no robot acts";

/** A shot that hit (`target`, or fused/classic's `hit` list): "shoots Bob", "laser hits Bob and Cy"; null for a miss. */
export function shotText(snap: Snapshot | null, e: Record<string, unknown>): string | null {
  const hit = typeof e.target === "string" ? [e.target] : Array.isArray(e.hit) ? e.hit.map(String) : [];
  if (!hit.length) return null;
  const names = hit.map((id) => nameOf(snap, id));
  const who = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
  const beams = e.beams && Number(e.beams) > 1 ? ` (${String(e.beams)} beams)` : "";
  return `${e.source === "bot" ? "shoots" : "wall laser hits"} ${who}${beams}`;
}

/** The `winner` event: "wins (all check points)", "wins (last robot left)". */
export function winnerText(reason: unknown): string {
  switch (reason) {
    case "course": return "wins (all check points)";
    case "last bot alive": return "wins (last robot left)";
    case "last bot in the race": return "wins (the others are out of the race)";
    case "goal": return "wins (reached the goal)";
    default: return "wins";
  }
}

/** Other events, in words; the event names themselves are internal. */
const OTHER: Record<string, string> = {
  teleported: "teleported", landed: "landed", virtual: "turned virtual", mirror_broken: "broke a mirror",
  receptacle_filled: "filled a receptacle", tile_broken: "a floor tile broke", field_damaged: "a force field was hit",
  field_down: "a force field went down", field_up: "a force field came back", ejected: "out of the race",
};

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

export function nameOf(snap: Snapshot | null, bot: string): string {
  const seat = snap?.seats.find((s) => s.bot != null && String(s.bot) === bot);
  // A computer player by its display name ("Normal Computer 1"), not its internal user name.
  if (seat) return isComputer(seat) && seat.display_name?.trim() ? seat.display_name : seat.user;
  // A drone is `<owner>.drone`, a bomb `<owner>.bomb` (docs/formats.md "Bot modules").
  const m = /^(.*)\.(drone|bomb)$/.exec(bot);
  if (m) {
    const owner = snap?.seats.find((s) => s.bot != null && String(s.bot) === m[1]);
    if (owner) return `${owner.user}'s ${m[2]}`;
  }
  return `Robot ${bot}`;
}

const AIM_WORDS: Record<string, string> = { L: "left", R: "right", B: "back" };

/** A module event in the log's module column ("installed Turbo", "bought 2 charges for 504"), or null. */
export function moduleText(snap: Snapshot | null, e: EngineEvent): string | null {
  const r = e as Record<string, unknown>;
  const name = moduleLabel(r.module);
  switch (e.type) {
    case "module_installed": return `installed ${name}`;
    case "module_charged": return `${name}: bought ${String(r.charges)} charge${r.charges === 1 ? "" : "s"} for ${String(r.price_paid)}`;
    case "module_charge_refused": return `${name}: charge refused (not enough battery)`;
    case "module_activated": {
      const phases = Array.isArray(r.phases) && r.phases.length < 5 ? `, phase ${r.phases.join("-")}` : "";
      const aim = r.aim ? `, aims ${r.front ? "front and " : ""}${AIM_WORDS[String(r.aim)] ?? String(r.aim)}` : "";
      const order = r.order ? `, acts ${String(r.order)}` : "";
      return `activated ${name}${phases}${aim}${order}`;
    }
    case "module_charge_used": return `${name}: last turn's scan charge taken`;
    case "chip_stored": return r.replaced ? "Storage: stored a chip (the old one is gone)" : "Storage: stored a chip";
    case "stored_chip_played": return `played the stored chip in register ${String(r.register)}`;
    case "chip_transformed": return typeof r.module === "string" ? `${name} changed the chip` : null;
    case "clamped": return "Clamp held it";
    case "drone_deployed": return `Drone deployed${r.replaced ? " (replaces the old one)" : ""}`;
    case "bomb_dropped": return "Bomb dropped";
    case "bomb_exploded": return "Bomb exploded";
    case "bomb_destroyed": return "Bomb destroyed without exploding";
    case "shielded": return `Shield stopped ${String(r.amount ?? "")} damage`.replace("  ", " ");
    case "reflected": return `Reflector sent the shot back${typeof r.shooter === "string" ? ` to ${nameOf(snap, r.shooter)}` : ""}`;
    case "pushed_back": return "Blaster recoil";
    case "shocked": return typeof r.target === "string" ? `Shocker touched ${nameOf(snap, r.target)}` : "Shocker";
    default: return null;
  }
}

/** roborace's `space_order` event: "Spaces act in this order: Alice, Bob". The order holds the robots on the
 * board; an empty one means every robot was destroyed earlier in the phase, and a space acts only on the robot
 * standing on it (004 "Execute all program"), so no space acts. */
export function spaceOrderText(snap: Snapshot | null, order: unknown): string {
  if (Array.isArray(order) && order.length === 0) return NO_SPACE_ACTS;
  const ids = Array.isArray(order) ? order.map(String) : [];
  return ids.length ? `Spaces act in this order: ${ids.map((id) => nameOf(snap, id)).join(", ")}` : "Spaces act";
}

/** The words of an empty `space_order` (docs/rules.md "RoboRace"). */
export const NO_SPACE_ACTS = "No robot on the board: no space acts";

/** The turn's priority as its events show it: the order in which bots play chips. (roborace's cards have
 * no such order: the larger number acts first, phase by phase; its rows keep the order the events came in.) */
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
