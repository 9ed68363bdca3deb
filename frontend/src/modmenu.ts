// The Module menu under the program (003 "Actions"): one of install / charge / activate a turn, sent with
// the program; the Scanner's Scan button and its result (for its owner only). The choices come from the
// pure functions of modules.ts.
import { h } from "./dom";
import { chipLabel } from "./chips";
import {
  activateChoices, actionKey, actionText, chargeOptions, hasSpareMoveChip, MODULE_HINTS, moduleLabel, moduleStatus,
  NEEDS_SPARE, parseAction, usableCharges, type InstalledModule, type ModuleAction,
} from "./modules";
import type { Chip, ScanResult, Snapshot } from "./types";

export interface MenuOption { value: string; label: string; disabled: boolean }
export interface MenuGroup { label: string; options: MenuOption[] }

/** Everything the menu offers, as plain data (unit-tested): the groups of the <select>. */
export function menuGroups(
  modules: readonly string[], prices: Readonly<Record<string, number>>, installed: InstalledModule | null,
  battery: number, scanDue: boolean,
): MenuGroup[] {
  const groups: MenuGroup[] = [];
  if (!modules.length) return groups;
  groups.push({
    label: "Install (free; a charge is bought later)",
    options: [...modules].sort().map((m) => ({
      value: actionKey({ install: m }),
      // Installing is free (issue 37, item 9): the figure is what a charge of it costs now, said apart.
      label: `Install ${moduleLabel(m)} (free · a charge ${prices[m] ?? "?"})${installed?.type === m ? " (installed: its charges are lost)" : ""}`,
      disabled: false,
    })),
  });
  if (installed && modules.includes(installed.type)) {
    const name = moduleLabel(installed.type);
    groups.push({
      label: `Charge ${name} (battery ${battery})`,
      options: chargeOptions(prices, installed, battery).map((o) => ({
        value: actionKey({ charge: o.count }),
        label: `+${o.count} Charge (${o.total})${o.allowed ? "" : ` — ${o.why.startsWith("battery") ? `more than the battery (${battery})` : o.why}`}`,
        disabled: !o.allowed,
      })),
    });
    const usable = usableCharges(installed, scanDue);
    groups.push({
      label: usable > 0 ? `Activate ${name}` : `Activate ${name} (no charge left)`,
      options: activateChoices(installed.type).map((c) => ({
        value: actionKey(c.action), label: c.label, disabled: usable <= 0,
      })),
    });
  }
  return groups;
}

/** The line under the menu: what the chosen action does, and what it still needs. */
export function menuHelp(
  action: ModuleAction | null, installed: InstalledModule | null, hand: readonly Chip[], program: readonly Chip[],
): string {
  if (!action) return installed ? "No module action this turn." : "No module installed: install one to charge and use it later.";
  if ("install" in action) {
    return `Install ${moduleLabel(action.install)}: ${MODULE_HINTS[action.install] ?? ""}.` +
      (installed ? ` It replaces ${moduleLabel(installed.type)} and its ${installed.charges} charge${installed.charges === 1 ? "" : "s"}.` : "");
  }
  if ("charge" in action) {
    return `${actionText(action, installed?.type ?? null)}: paid from the battery when the turn is played; activate in a later turn. ` +
      "The price can change before then: a player ahead of you in turn order who buys first makes it dearer or cheaper. The turn log shows what you paid.";
  }
  const type = installed?.type ?? "";
  let text = `${actionText(action, type || null)}: uses one charge${type === "scanner" ? " (taken at the start of the next turn)" : ""}.`;
  if (NEEDS_SPARE.has(type) && !hasSpareMoveChip(hand, program)) {
    text += ` ${moduleLabel(type)} needs a spare move chip (1, 2, 3 or Back up) that your program does not play: you have none.`;
  }
  if (type === "storage") text += " The first chip you don't play goes into storage.";
  return text;
}

export interface ScanAnswer { ok: true; result: ScanResult }
export type ScanReply = ScanAnswer | { ok: false; detail: string };

export class ModuleMenu {
  readonly el: HTMLElement;
  private readonly status: HTMLParagraphElement;
  private readonly select: HTMLSelectElement;
  private readonly help: HTMLParagraphElement;
  private readonly scanBtn: HTMLButtonElement;
  private readonly scanBox: HTMLDivElement;
  private readonly scanError: HTMLParagraphElement;
  private snap: Snapshot | null = null;
  private installed: InstalledModule | null = null;
  private scan: ScanResult | null = null;
  private hand: Chip[] = [];
  private program: Chip[] = [];
  private key = "";
  private scanning = false;

  constructor(private readonly onChange: () => void, private readonly doScan: (turn: number) => Promise<ScanReply>) {
    this.el = h("div", { class: "rr-modules", id: "module-menu" });
    const label = h("label", { for: "module-action", class: "rr-modules-label" }, "Module");
    this.status = h("p", { id: "module-status", class: "rr-module-status" });
    this.select = h("select", { id: "module-action", "aria-describedby": "module-help" });
    this.help = h("p", { id: "module-help", class: "rr-hint" });
    this.scanBtn = h("button", { type: "button", id: "scan-button" }, "Scan");
    this.scanBox = h("div", { id: "scan-result", class: "rr-scan", "aria-live": "polite" });
    this.scanError = h("p", { id: "scan-error", class: "rr-error", role: "alert" });
    const row = h("div", { class: "rr-modules-row" });
    row.append(label, this.select, this.scanBtn);
    this.el.append(h("h3", {}, "Module"), this.status, row, this.help, this.scanError, this.scanBox);
    this.el.hidden = true; // until a snapshot says the game has modules
    this.scanBtn.hidden = true;
    this.scanBox.hidden = true;
    this.select.addEventListener("change", () => {
      this.renderHelp();
      this.onChange();
    });
    this.scanBtn.addEventListener("click", () => void this.runScan());
  }

  /** The chosen action (null: none). */
  get action(): ModuleAction | null {
    return parseAction(this.select.value);
  }

  /** Redraw for a snapshot; `keep` keeps the player's unsent choice. */
  update(snap: Snapshot, keep: boolean): void {
    this.snap = snap;
    const modules = Array.isArray(snap.modules) ? snap.modules : [];
    this.el.hidden = modules.length === 0 || !snap.me;
    if (this.el.hidden || !snap.me) return;
    const mine = (snap.bots ?? []).find((b) => b.id === snap.me?.bot);
    const battery = typeof mine?.battery === "number" ? mine.battery : 0;
    this.installed = mine?.module ?? null;
    const scanDue = !!snap.me.scan_due;
    // 003: the installed module shows as "[ModName]"; then its charges and the battery.
    this.status.textContent = this.installed
      ? `[${moduleLabel(this.installed.type)}] ${this.installed.charges} charge${this.installed.charges === 1 ? "" : "s"} · battery ${battery}` +
        (scanDue ? " (one charge is due for last turn's scan)" : "")
      : `No module installed · battery ${battery}`;
    this.status.dataset.status = moduleStatus(this.installed, battery);
    const prices = snap.prices ?? {};
    const groups = menuGroups(modules, prices, this.installed, battery, scanDue);
    const key = JSON.stringify([snap.turn, groups]);
    const previous = this.select.value;
    if (key !== this.key) {
      this.key = key;
      const none = h("option", { value: "" }, "No module action");
      const children: HTMLElement[] = [none];
      for (const g of groups) {
        const og = h("optgroup", { label: g.label });
        for (const o of g.options) {
          const opt = h("option", { value: o.value }, o.label);
          opt.disabled = o.disabled;
          og.appendChild(opt);
        }
        children.push(og);
      }
      this.select.replaceChildren(...children);
    }
    const wanted = keep ? previous : actionKey(snap.me.action ?? null);
    this.setValue(wanted);
    this.scan = snap.me.scan && snap.me.scan.turn === snap.turn ? snap.me.scan : (keep && this.scan?.turn === snap.turn ? this.scan : null);
    this.renderScan();
    this.renderHelp();
  }

  /** Register the program as placed now (for the spare-chip note). */
  setProgram(hand: Chip[], program: Chip[]): void {
    this.hand = hand;
    this.program = program;
    this.renderHelp();
  }

  private setValue(value: string): void {
    const ok = [...this.select.options].some((o) => o.value === value && !o.disabled);
    this.select.value = ok ? value : "";
  }

  private renderHelp(): void {
    this.help.textContent = menuHelp(this.action, this.installed, this.hand, this.program);
    // Nothing chosen: the status line says enough (and a phone keeps the room for the board).
    this.help.hidden = this.action === null && this.installed !== null;
    // On a phone the "install one" hint of an empty module slot gives way to Submit (styles.css).
    this.el.classList.toggle("rr-modules-idle", this.action === null);
  }

  private canScan(): boolean {
    const snap = this.snap;
    if (!snap?.me || this.installed?.type !== "scanner" || snap.status !== "programming") return false;
    return usableCharges(this.installed, !!snap.me.scan_due) > 0;
  }

  private renderScan(): void {
    const can = this.canScan();
    this.scanBtn.hidden = !can;
    this.scanBtn.disabled = this.scanning;
    this.scanBtn.textContent = this.scan ? "Scan again" : "Scan";
    this.scanBtn.title = this.scan ? "Rescanning is free until the turn is played" : "Uses one charge, taken next turn";
    const snap = this.snap;
    if (!this.scan || !snap) {
      this.scanBox.replaceChildren();
      this.scanBox.hidden = true;
      return;
    }
    this.scanBox.hidden = false;
    const items: HTMLElement[] = [h("p", { class: "rr-scan-title" }, "Scanner: the chips submitted so far (sorted, not in their order)")];
    const list = h("ul", { class: "rr-scan-list" });
    const ids = Object.keys(this.scan.programs).sort();
    for (const id of ids) {
      const seat = snap.seats.find((s) => String(s.bot) === id);
      const li = h("li", { class: "rr-scan-bot", "data-bot": id });
      const sw = h("span", { class: "swatch small", "aria-hidden": "true" });
      sw.style.background = seat?.color ?? "#888";
      const chips = (this.scan.programs[id] ?? []).map(String);
      li.append(sw, h("span", { class: "rr-scan-name" }, `${seat ? (seat.display_name || seat.user) : id}: `),
        h("span", { class: "rr-scan-chips", "data-chips": chips.join(" ") }, chips.map((c) => chipLabel(c)).join(", ")));
      list.appendChild(li);
    }
    if (!ids.length) list.appendChild(h("li", {}, "Nobody else has submitted a program yet."));
    items.push(list);
    this.scanBox.replaceChildren(...items);
  }

  private async runScan(): Promise<void> {
    const snap = this.snap;
    if (!snap || this.scanning) return;
    this.scanning = true;
    this.scanError.textContent = "";
    this.renderScan();
    const res = await this.doScan(snap.turn);
    this.scanning = false;
    if (res.ok) {
      this.scan = res.result;
      if (snap.me) snap.me.scan = res.result;
      // The server makes the turn's action the Scanner's activation.
      this.setValue(actionKey({ activate: {} }));
      if (snap.me) snap.me.action = { activate: {} };
      this.renderHelp();
    } else {
      this.scanError.textContent = res.detail;
    }
    this.renderScan();
  }
}
