// The hand / registers UI: pick 5 chips, choose reboot, submit (its elements and drawing: programview.ts).
import { watchingText } from "./dom";
import { cardNumber } from "./chips";
import type { ClassicAction, ProgramBody } from "./net";
import type { Chip, Snapshot } from "./types";
import { rulesOf } from "./ruleset";
import { isTouchScreen, programHint, programTitle, ProgramView, REGISTERS, sitOutText, STORED } from "./programview";
import { unusedInstructions } from "./upgradeswitches";
export { isTouchScreen, powerDownHelpText, programHint, programTitle, rebootHelpText, sitOutText, STORED } from "./programview";

export class ProgramUI extends ProgramView {
  /** Redraw from a snapshot. `moving` is true while a turn is being animated. */
  update(snap: Snapshot, moving: boolean): void {
    this.snap = snap;
    const me = snap.me;
    this.title.textContent = programTitle(!!me);
    let text = "";
    if (snap.status === "lobby") text = "Waiting for players";
    else if (snap.status === "finished") text = "The game is over.";
    else if (moving || snap.status === "resolving") text = "Robots are moving…";
    else if (snap.status === "cancelled") text = "The game was cancelled.";
    else if (!me) text = watchingText();
    else if (snap.seats.some((s) => s.number === me.seat && s.ejected)) {
      text = "You forfeited this game. You can still watch.";
    }
    else if (Array.isArray(me.program) && me.program.length > 0 && me.program.every((c) => c === "0")) {
      const myBot = Array.isArray(snap.bots) ? snap.bots.find((b) => me.bot != null && String(b.id) === String(me.bot)) : undefined;
      text = sitOutText(!!myBot?.power_down_next);
    }
    this.active = text === "";
    this.placeholder.textContent = text;
    this.placeholder.hidden = this.active;
    this.editor.hidden = !this.active;
    if (!this.active || !me) return;
    this.canReboot = snap.can_reboot !== false;
    const rules = rulesOf(snap);
    this.hitPoints = rules.hitPoints ? rules.maxDamage : null;
    this.canPowerDown = rules.powerDown;
    this.lockedWord = rules.lockedWord;
    const myBot = Array.isArray(snap.bots) ? snap.bots.find((b) => me.bot != null && String(b.id) === String(me.bot)) : undefined;
    this.recompileBtn.hidden = !(rules.upgrades && this.onRecompile && Array.isArray(myBot?.upgrades) && myBot.upgrades.includes("recompile"));
    // A ruleset without reboot (roborace) has nothing to explain; an arena says why there is none.
    this.rebootSilent = !this.canReboot && snap.mode !== "arena" && rulesOf(snap).named;
    const numbered = rulesOf(snap).numbered || (Array.isArray(me.hand) && me.hand.some((c) => cardNumber(c) !== null));
    if (numbered !== this.numbered) {
      this.numbered = numbered;
      this.hint.textContent = programHint(isTouchScreen(), numbered);
    }

    const frozen = Array.isArray(me.frozen) ? me.frozen : [];
    const stored = typeof me.stored_chip === "string" && me.stored_chip ? me.stored_chip : null;
    const key = JSON.stringify([snap.turn, me.hand, frozen, stored]);
    let keepAction = this.dirty;
    if (key !== this.key) {
      keepAction = false;
      this.key = key;
      this.stored = stored;
      this.hand = Array.isArray(me.hand) ? me.hand.slice() : [];
      this.frozen = new Map(frozen.filter((f) => f.register >= 0 && f.register < REGISTERS).map((f) => [f.register, f.chip]));
      this.slots = new Array<number | null>(REGISTERS).fill(null);
      this.submitted = false;
      this.cleared = false;
      this.dirty = false;
      this.reboot = !!me.reboot;
      this.powerDown = !!me.power_down;
      this.recompileBtn.disabled = false;
      this.error.textContent = "";
      if (Array.isArray(me.program)) this.prefill(me.program);
    } else if (Array.isArray(me.program) && !this.submitted && !this.dirty) {
      this.prefill(me.program);
    } else if (me.program === null && this.submitted && !this.sending) {
      // The server cleared the program (a seat was ejected and everyone must submit again): the
      // registers keep the chips, so one press of Submit sends them again.
      this.submitted = false;
      this.cleared = true;
    }
    this.menu.update(snap, keepAction);
    // classic's switches: the ones sent with this turn's program, else those the robot kept from last round.
    this.switchUpgrades = rules.upgrades && Array.isArray(myBot?.upgrades) ? myBot.upgrades.map(String) : [];
    const sent = (me.action as ClassicAction | null | undefined)?.upgrade_use ?? me.upgrade_use ?? null;
    this.switches.update(this.switchUpgrades, this.unusedInstructions(), !keepAction, sent);
    this.render();
  }

  /** The robot's upgrades, for the switches (classic). */
  private switchUpgrades: string[] = [];

  /** The hand's instructions the registers leave unused (what the flywheel may keep). */
  private unusedInstructions(): Chip[] {
    const program: (Chip | null)[] = [];
    for (let r = 0; r < REGISTERS; r++) if (!this.frozen.has(r)) program.push(this.chipAt(r));
    return unusedInstructions(this.hand, program);
  }

  protected prefill(program: Chip[]): void {
    const used = new Set<number>();
    this.slots = new Array<number | null>(REGISTERS).fill(null);
    for (let r = 0; r < REGISTERS; r++) {
      if (this.frozen.has(r)) continue;
      if (program[r] === STORED && this.stored !== null) {
        this.slots[r] = this.hand.length;
        continue;
      }
      const idx = this.hand.findIndex((c, i) => c === program[r] && !used.has(i));
      if (idx >= 0) {
        used.add(idx);
        this.slots[r] = idx;
      }
    }
    this.submitted = true;
    this.dirty = false;
  }

  protected pick(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.chipCount()) return;
    if (this.usedIndexes().has(index)) return;
    for (let r = 0; r < REGISTERS; r++) {
      if (!this.frozen.has(r) && this.slots[r] === null) {
        this.slots[r] = index;
        this.changed();
        return;
      }
    }
  }

  protected clear(r: number): void {
    if (this.frozen.has(r) || this.slots[r] === null || this.slots[r] === undefined) return;
    this.slots[r] = null;
    this.changed();
  }

  protected clearLast(): void {
    for (let r = REGISTERS - 1; r >= 0; r--) {
      if (!this.frozen.has(r) && this.slots[r] !== null) {
        this.clear(r);
        return;
      }
    }
  }

  protected changed(): void {
    this.dirty = true;
    this.switches.update(this.switchUpgrades, this.unusedInstructions(), false);
    this.error.textContent = "";
    this.render();
  }

  protected async submit(): Promise<void> {
    const snap = this.snap;
    if (!this.active || !snap || !this.isFull() || this.sending) return;
    const chips: Chip[] = [];
    for (let r = 0; r < REGISTERS; r++) chips.push(this.chipAt(r) as Chip);
    this.sending = true;
    this.error.textContent = "";
    this.render();
    // Games without modules send the program as before (no `action` key).
    const body: ProgramBody = { turn: snap.turn, chips, reboot: this.reboot };
    if (!this.menu.el.hidden) body.action = this.menu.action;
    else if (this.canPowerDown) {
      const action: ClassicAction = {};
      if (this.powerDown) action.power_down = true;
      const use = this.switches.use;
      if (use !== null) action.upgrade_use = use;
      if (Object.keys(action).length) body.action = action;
    }
    const res = await this.send(body);
    this.sending = false;
    if (res.ok) {
      this.submitted = true;
      this.cleared = false;
      this.dirty = false;
    } else {
      this.error.textContent = res.detail;
    }
    this.render();
  }

  /** classic's Recompile: the server deals new instructions (for 2 damage); the hand is replaced. */
  protected async recompile(): Promise<void> {
    const snap = this.snap;
    if (!this.active || !snap?.me || !this.onRecompile || this.sending) return;
    this.recompileBtn.disabled = true;
    const res = await this.onRecompile(snap.turn);
    if (!res.ok) {
      this.error.textContent = res.detail;
      this.recompileBtn.disabled = false;
      return;
    }
    snap.me.hand = res.hand.slice();
    this.hand = res.hand.slice();
    this.key = JSON.stringify([snap.turn, snap.me.hand, Array.isArray(snap.me.frozen) ? snap.me.frozen : [], this.stored]);
    this.slots = new Array<number | null>(REGISTERS).fill(null);
    this.render();
  }

  protected onKey(ev: KeyboardEvent): void {
    if (!this.active || this.editor.hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target as HTMLElement | null;
    if (t && (t.isContentEditable || t.tagName === "TEXTAREA" || t.tagName === "SELECT" ||
      (t.tagName === "INPUT" && (t as HTMLInputElement).type !== "checkbox"))) return;
    if (/^[1-9]$/.test(ev.key)) {
      ev.preventDefault();
      this.pick(Number(ev.key) - 1);
    } else if (ev.key === "Backspace") {
      ev.preventDefault();
      this.clearLast();
    } else if (ev.key === "Enter") {
      // Enter on a chip or register submits a full program; on any other button or checkbox it keeps
      // its own meaning.
      const onProgram = !!t?.closest("button.chip, .register");
      if (t && (t.tagName === "BUTTON" || t.tagName === "INPUT") && !(onProgram && this.isFull())) return;
      ev.preventDefault();
      void this.submit();
    }
  }
}
