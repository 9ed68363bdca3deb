// The hand / registers panel's elements and drawing (program.ts ProgramUI fills and sends the program):
// the registers, the hand, the reboot and power-down toggles, drag and drop, and the focus kept across redraws.
import { h } from "./dom";
import { cardChip, cardNumber, chipIcon, chipLabel } from "./chips";
import type { PostResult, ProgramBody } from "./net";
import type { Chip, Snapshot } from "./types";
import { ModuleMenu, type ScanReply } from "./modmenu";
import { UpgradeSwitches } from "./upgradeswitches";


/** A register playing the stored chip (003 "Storage"). */
export const STORED = "S";

export const REGISTERS = 5;

/** A chip's face: its icon and words; a numbered card ("R@5") adds its number in a badge. */
function chipContent(card: Chip): DocumentFragment {
  const f = document.createDocumentFragment();
  f.appendChild(chipIcon(card));
  f.appendChild(h("span", { class: "chip-text" }, chipLabel(cardChip(card))));
  const n = cardNumber(card);
  if (n !== null) f.appendChild(h("span", { class: "chip-number", "aria-hidden": "true" }, String(n)));
  return f;
}

/** The visible line under the reboot toggle: what the current choice does (003 "Rebooting"). */
export function rebootHelpText(reboot: boolean, hitPoints: number | null = null): string {
  // fused (001) counts hit points, not damage: the help says what the badge and the legend say.
  const repaired = hitPoints !== null ? `back to full hit points (${hitPoints})` : "repaired to 0 damage";
  return reboot
    ? `Reboot chosen: your robot is ${repaired} at the end of this turn and sits the next turn out (five 0 chips, no laser).`
    : `Your robot plays the next turn as usual. Tick “Reboot this turn” to have it ${repaired} at the end of this turn; it then sits the next turn out.`;
}

/** The line under the program: how to fill the registers. Touch screens have no keys to mention. Numbered
 * cards (roborace) are "cards", and their numbers say who acts first. */
export function programHint(touch: boolean, numbered = false): string {
  if (numbered) {
    return (touch
      ? "Tap or drag a card into a register; tap a filled register to empty it."
      : "Click or drag a card into a register. Keys: 1–9 pick a card, Backspace clears the last register, Enter submits.") +
      " In each register the card with the larger number acts first.";
  }
  return touch
    ? "Tap or drag a chip into a register; tap a filled register to empty it."
    : "Click or drag a chip into a register. Keys: 1–9 pick a chip, Backspace clears the last register, Enter submits.";
}

/** The visible line under classic's power-down toggle (000 "Power Down"). */
export function powerDownHelpText(on: boolean): string {
  return on
    ? "Power down chosen: after this turn your robot sits the next turn out and all its damage is repaired (it can still be pushed and shot)."
    : "Tick “Power down next round” to have your robot sit the next turn out and repair all its damage.";
}

/** The line instead of the program when the server entered it: rebooting, or (classic) powered down. */
export function sitOutText(poweredDown: boolean): string {
  return poweredDown
    ? "Your robot is powered down: it sits this turn out (the server entered its program), and is repaired at the start of the turn."
    : "Your robot is rebooting: it sits this turn out (five 0 chips) and plays again next turn.";
}

/** A phone or tablet: its main pointer is a finger. */
/** The panel's heading: "Your program" only to a seated player; a visitor or a watcher sees "Programs". */
export function programTitle(seated: boolean): string {
  return seated ? "Your program" : "Programs";
}

export function isTouchScreen(): boolean {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
}

export abstract class ProgramView {
  readonly el: HTMLElement;
  protected readonly placeholder: HTMLParagraphElement;
  protected readonly editor: HTMLDivElement;
  protected readonly message: HTMLParagraphElement;
  protected readonly registersEl: HTMLDivElement;
  protected readonly handEl: HTMLDivElement;
  protected readonly rebootBox: HTMLInputElement;
  protected readonly rebootGroup: HTMLLabelElement;
  /** Arenas have no reboot (003 "Rebooting"): the toggle is gone and its line says why. */
  protected canReboot = true;
  protected readonly rebootHelp: HTMLParagraphElement;
  protected reboot = false;
  protected readonly submitBtn: HTMLButtonElement;
  /** fused: the robots' hit points (the reboot help speaks of them); null where damage is counted. */
  protected hitPoints: number | null = null;
  /** Where my own clock goes (the game screen puts it there): right before Submit. */
  readonly clockSlot: HTMLElement;
  protected readonly error: HTMLDivElement;
  protected readonly hint: HTMLParagraphElement;
  /** The game's cards carry numbers (roborace). */
  protected numbered = false;
  /** Neither reboot nor a word about it (a ruleset without reboot; an arena still says why). */
  protected rebootSilent = false;
  readonly menu: ModuleMenu;
  /** classic's switched upgrades (stabilizer, beams, circuit breaker, flywheel), sent as `upgrade_use`. */
  readonly switches: UpgradeSwitches;
  /** My stored chip (Storage): shown as one more chip of the hand, played as "S". */
  protected stored: Chip | null = null;
  /** classic: "Power down next round", sent as the program's action. */
  protected readonly powerBox: HTMLInputElement;
  protected readonly powerGroup: HTMLLabelElement;
  protected readonly powerHelp: HTMLParagraphElement;
  protected powerDown = false;
  protected canPowerDown = false;
  /** What a register that can't change is called ("locked", fused's "fused"). */
  protected lockedWord = "locked";
  /** classic's Recompile upgrade: new instructions for 2 damage (set by the game screen). */
  onRecompile: ((turn: number) => Promise<{ ok: true; hand: Chip[] } | { ok: false; detail: string }>) | null = null;
  protected readonly recompileBtn: HTMLButtonElement;
  protected readonly title: HTMLHeadingElement;

  protected snap: Snapshot | null = null;
  protected key = "";
  protected hand: Chip[] = [];
  /** Per register: a hand index, or null when empty. Frozen registers are kept in `frozen`. */
  protected slots: (number | null)[] = [];
  protected frozen = new Map<number, Chip>();
  protected submitted = false;
  protected dirty = false;
  protected sending = false;
  protected active = false;
  /** The server cleared a submitted program (seats_ejected with resubmit). */
  protected cleared = false;

  constructor(
    parent: HTMLElement, protected readonly send: (body: ProgramBody) => Promise<PostResult>,
    scan: (turn: number) => Promise<ScanReply> = async () => ({ ok: false, detail: "Scanning is not available here." }),
  ) {
    this.el = h("section", { class: "rr-program", "aria-labelledby": "rr-program-title" });
    this.title = h("h2", { id: "rr-program-title" }, programTitle(false));
    this.el.appendChild(this.title);
    this.placeholder = h("p", { class: "rr-program-placeholder" });
    this.editor = h("div", { class: "rr-program-editor" });
    this.message = h("p", { class: "rr-program-message", "aria-live": "polite" });
    this.registersEl = h("div", { class: "registers", role: "group", "aria-label": "Registers 1 to 5" });
    this.handEl = h("div", { class: "hand", role: "group", "aria-label": "Your hand" });
    const controls = h("div", { class: "rr-program-controls" });
    // 003 "Rebooting": a plain two-state checkbox "Reboot this turn" (off by default), not a button that
    // reads like an action; the line under the controls says what the current choice does (rebootHelp).
    this.rebootBox = h("input", { type: "checkbox", id: "reboot-toggle", class: "reboot",
      "aria-describedby": "rr-reboot-help" });
    this.rebootHelp = h("p", { id: "rr-reboot-help", class: "rr-reboot-help" });
    const rebootGroup = this.rebootGroup = h("label", { class: "rr-reboot", for: "reboot-toggle" });
    rebootGroup.append(this.rebootBox, h("span", { class: "rr-reboot-label" }, "Reboot this turn"));
    this.submitBtn = h("button", { type: "button", id: "submit-program", class: "primary" }, "Submit program");
    this.clockSlot = h("span", { class: "rr-clock-slot" });
    // classic (000 "Power Down"): announced with the program for the next round.
    this.powerBox = h("input", { type: "checkbox", id: "power-down-toggle", class: "power-down", "aria-describedby": "rr-power-down-help" });
    this.powerGroup = h("label", { class: "rr-power-down", for: "power-down-toggle" });
    this.powerGroup.append(this.powerBox, h("span", { class: "rr-power-down-label" }, "Power down next round"));
    this.powerHelp = h("p", { id: "rr-power-down-help", class: "rr-power-down-help" });
    this.powerGroup.hidden = this.powerHelp.hidden = true;
    this.recompileBtn = h("button", { type: "button", id: "recompile" }, "Recompile (2 damage)");
    this.recompileBtn.hidden = true;
    controls.append(rebootGroup, this.powerGroup, this.recompileBtn, this.clockSlot, this.submitBtn, this.rebootHelp, this.powerHelp);
    this.error = h("div", { id: "program-error", role: "alert", class: "rr-error" });
    const hint = this.hint = h("p", { class: "rr-hint" }, programHint(isTouchScreen()));
    // 003 "Actions": the Module menu is directly beneath the program tiles; Submit sends both.
    this.menu = new ModuleMenu(() => this.changed(), scan);
    this.switches = new UpgradeSwitches(() => this.changed());
    this.editor.append(
      h("h3", {}, "Registers"), this.registersEl,
      h("h3", {}, "Hand"), this.handEl,
      this.menu.el, this.switches.el,
      controls, this.message, this.error, hint,
    );
    this.el.append(this.placeholder, this.editor);
    parent.appendChild(this.el);

    this.handEl.addEventListener("click", (ev) => {
      const btn = (ev.target as Element).closest<HTMLButtonElement>("button.chip");
      if (btn && !btn.disabled) this.pick(Number(btn.dataset.index));
    });
    this.registersEl.addEventListener("click", (ev) => {
      const reg = (ev.target as Element).closest<HTMLElement>(".register");
      if (reg) this.clear(Number(reg.dataset.register));
    });
    this.rebootBox.addEventListener("change", () => {
      this.reboot = this.rebootBox.checked;
      this.changed();
    });
    this.powerBox.addEventListener("change", () => {
      this.powerDown = this.powerBox.checked;
      this.changed();
    });
    this.recompileBtn.addEventListener("click", () => void this.recompile());
    this.wireDragAndDrop();
    this.submitBtn.addEventListener("click", () => void this.submit());
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    this.renderRebootLabel();
  }

  protected usedIndexes(): Set<number> {
    return new Set(this.slots.filter((s): s is number => s !== null));
  }

  protected chipAt(r: number): Chip | null {
    const f = this.frozen.get(r);
    if (f !== undefined) return f;
    const s = this.slots[r];
    if (s === this.hand.length && this.stored !== null) return STORED;
    return s === null || s === undefined ? null : this.hand[s] ?? null;
  }

  /** The hand's chips plus my stored chip (its index is hand.length). */
  protected chipCount(): number {
    return this.hand.length + (this.stored !== null ? 1 : 0);
  }

  /** What a chip of the program shows: the stored chip's face for "S". */
  protected face(chip: Chip): Chip {
    return chip === STORED && this.stored !== null ? this.stored : chip;
  }

  protected isFull(): boolean {
    for (let r = 0; r < REGISTERS; r++) if (this.chipAt(r) === null) return false;
    return true;
  }

  protected renderRebootLabel(): void {
    if (!this.canReboot) this.reboot = false;
    this.rebootGroup.hidden = !this.canReboot;
    this.rebootBox.checked = this.reboot;
    this.rebootHelp.textContent = this.canReboot ? rebootHelpText(this.reboot, this.hitPoints)
      : this.rebootSilent ? "" : "No rebooting in an arena: the last bot alive wins.";
    this.rebootHelp.hidden = this.rebootSilent;
    if (!this.canPowerDown) this.powerDown = false;
    this.powerGroup.hidden = this.powerHelp.hidden = !this.canPowerDown;
    this.powerBox.checked = this.powerDown;
    this.powerHelp.textContent = this.canPowerDown ? powerDownHelpText(this.powerDown) : "";
  }

  /** Drag a hand chip onto a register (or onto a filled one to replace it); drag a register back to the hand to clear it. */
  protected wireDragAndDrop(): void {
    const TYPE = "application/x-roboracer-chip";
    this.handEl.addEventListener("dragstart", (ev) => {
      const btn = (ev.target as Element).closest<HTMLButtonElement>("button.chip");
      if (!btn || btn.disabled || !ev.dataTransfer) return;
      ev.dataTransfer.setData(TYPE, `hand:${btn.dataset.index}`);
      ev.dataTransfer.effectAllowed = "move";
    });
    this.registersEl.addEventListener("dragstart", (ev) => {
      const reg = (ev.target as Element).closest<HTMLElement>(".register");
      if (!reg || reg.classList.contains("locked") || !ev.dataTransfer) return;
      ev.dataTransfer.setData(TYPE, `reg:${reg.dataset.register}`);
      ev.dataTransfer.effectAllowed = "move";
    });
    const over = (ev: DragEvent): void => {
      if (ev.dataTransfer?.types.includes(TYPE)) {
        ev.preventDefault();
        ev.dataTransfer.dropEffect = "move";
      }
    };
    this.registersEl.addEventListener("dragover", over);
    this.handEl.addEventListener("dragover", over);
    this.registersEl.addEventListener("drop", (ev) => {
      const data = ev.dataTransfer?.getData(TYPE) ?? "";
      const reg = (ev.target as Element).closest<HTMLElement>(".register");
      if (!reg || !data) return;
      ev.preventDefault();
      const r = Number(reg.dataset.register);
      const [kind, n] = data.split(":");
      if (kind === "hand") this.place(Number(n), r);
      else if (kind === "reg") this.swap(Number(n), r);
    });
    this.handEl.addEventListener("drop", (ev) => {
      const data = ev.dataTransfer?.getData(TYPE) ?? "";
      if (!data.startsWith("reg:")) return;
      ev.preventDefault();
      this.clear(Number(data.slice(4)));
    });
  }

  /** Put hand chip `index` into register `r` (replacing what was there). */
  protected place(index: number, r: number): void {
    if (!this.active || this.frozen.has(r) || r < 0 || r >= REGISTERS) return;
    if (!Number.isInteger(index) || index < 0 || index >= this.chipCount()) return;
    const from = this.slots.indexOf(index);
    if (from >= 0) this.slots[from] = null;
    this.slots[r] = index;
    this.changed();
  }

  protected swap(a: number, b: number): void {
    if (!this.active || a === b || this.frozen.has(a) || this.frozen.has(b)) return;
    [this.slots[a], this.slots[b]] = [this.slots[b], this.slots[a]];
    this.changed();
  }

  protected render(): void {
    this.renderRebootLabel();
    const placed: Chip[] = [];
    for (let r = 0; r < REGISTERS; r++) {
      const c = this.chipAt(r);
      if (c !== null && c !== STORED && !this.frozen.has(r)) placed.push(c);
    }
    this.menu.setProgram(this.hand, placed);
    // Buttons are rebuilt below; remember what had keyboard focus to restore it.
    const act = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusHand = act && this.handEl.contains(act) ? Number(act.dataset.index) : null;
    const focusReg = act && this.registersEl.contains(act)
      ? Number(act.closest<HTMLElement>(".register")?.dataset.register) : null;
    // Registers
    const regs: HTMLElement[] = [];
    for (let r = 0; r < REGISTERS; r++) {
      const chip = this.chipAt(r);
      const locked = this.frozen.has(r);
      const div = h("div", { class: "register", "data-register": String(r) });
      if (chip !== null && !locked) div.draggable = true;
      div.classList.toggle("filled", chip !== null);
      div.classList.toggle("locked", locked);
      if (chip !== null) div.dataset.chip = chip;
      const btn = h("button", { type: "button", class: "register-slot" });
      const num = h("span", { class: "register-num" }, String(r + 1));
      btn.appendChild(num);
      if (chip !== null) btn.appendChild(chipContent(this.face(chip)));
      else btn.appendChild(h("span", { class: "chip-text empty" }, "empty"));
      if (chip === STORED) {
        div.classList.add("stored");
        btn.appendChild(h("span", { class: "stored-tag" }, "stored"));
      }
      if (locked) {
        btn.disabled = true;
        btn.setAttribute("aria-label", `Register ${r + 1}: ${chip !== null ? chipLabel(chip) : ""} (${this.lockedWord})`);
        btn.appendChild(h("span", { class: "lock", "aria-hidden": "true" }, this.lockedWord));
      } else if (chip !== null) {
        btn.setAttribute("aria-label", `Register ${r + 1}: ${chipLabel(this.face(chip))}${chip === STORED ? " (stored chip)" : ""}. Press to clear.`);
      } else {
        btn.disabled = true;
        btn.setAttribute("aria-label", `Register ${r + 1}: empty`);
      }
      div.appendChild(btn);
      regs.push(div);
    }
    this.registersEl.replaceChildren(...regs);

    // Hand
    const used = this.usedIndexes();
    const openRegisters = [...Array(REGISTERS).keys()].some((r) => !this.frozen.has(r) && this.slots[r] === null);
    const chips = this.hand.map((chip, i) => {
      const isUsed = used.has(i);
      const b = h("button", {
        type: "button", class: "chip", "data-chip": chip, "data-index": String(i),
        ...(cardNumber(chip) !== null ? { "data-number": String(cardNumber(chip)) } : {}),
        "aria-label": `${chipLabel(chip)}${i < 9 ? ` (key ${i + 1})` : ""}${isUsed ? ", in a register" : ""}`,
        "aria-pressed": String(isUsed),
      });
      b.classList.toggle("used", isUsed);
      b.disabled = isUsed;
      b.setAttribute("aria-disabled", String(isUsed || !openRegisters));
      b.draggable = !isUsed;
      b.appendChild(chipContent(chip));
      if (i < 9) b.appendChild(h("kbd", { "aria-hidden": "true" }, String(i + 1)));
      return b;
    });
    if (this.stored !== null) {
      // My stored chip, for me alone: one more chip of the hand, played as "S".
      const i = this.hand.length, isUsed = used.has(i);
      const b = h("button", {
        type: "button", class: "chip stored", "data-chip": STORED, "data-stored": this.stored, "data-index": String(i),
        "aria-label": `Stored chip: ${chipLabel(this.stored)}${isUsed ? ", in a register" : ""}`, "aria-pressed": String(isUsed),
      });
      b.classList.toggle("used", isUsed);
      b.disabled = isUsed;
      b.draggable = !isUsed;
      b.appendChild(chipContent(this.stored));
      b.appendChild(h("span", { class: "stored-tag" }, "stored"));
      chips.push(b);
    }
    this.handEl.replaceChildren(...chips);

    const full = this.isFull();
    this.submitBtn.disabled = !full || this.sending;
    if (focusHand !== null || focusReg !== null) this.restoreFocus(focusHand, focusReg);
    this.submitBtn.textContent = this.submitted ? "Resubmit program" : "Submit program";
    if (this.sending) this.message.textContent = "Sending…";
    else if (this.submitted && !this.dirty) this.message.textContent = "Program submitted — waiting for others";
    else if (this.submitted && this.dirty) this.message.textContent = "Changed — submit again to replace your program.";
    else if (this.cleared) this.message.textContent = "A player was ejected: every program was cleared. Submit yours again.";
    else this.message.textContent = full ? "Ready to submit." : `Fill all ${REGISTERS} registers.`;
  }

  protected restoreFocus(hand: number | null, reg: number | null): void {
    // The last chip placed: Submit is next, so Enter sends the program.
    if (hand !== null && this.isFull() && !this.submitBtn.disabled) { this.submitBtn.focus(); return; }
    if (reg !== null) {
      const b = this.registersEl.querySelector<HTMLButtonElement>(`.register[data-register="${reg}"] button`);
      if (b && !b.disabled) { b.focus(); return; }
    }
    const chips = [...this.handEl.querySelectorAll<HTMLButtonElement>("button.chip")].filter((b) => !b.disabled);
    const next = chips.find((b) => Number(b.dataset.index) >= (hand ?? 0)) ?? chips[0];
    if (next) next.focus();
    else if (!this.submitBtn.disabled) this.submitBtn.focus();
    else this.registersEl.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus();
  }

  protected abstract pick(index: number): void;
  protected abstract clear(r: number): void;
  protected abstract changed(): void;
  protected abstract submit(): Promise<void>;
  protected abstract recompile(): Promise<void>;
  protected abstract onKey(ev: KeyboardEvent): void;
}
