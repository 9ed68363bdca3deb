// The RAMbots programming panel's elements and drawing (panel.ts RambotsPanel sends and keeps the moves):
// the goal step's builder ("Build a goal stack for <neighbour>") and each round's program (up to five
// code-pool pieces, each pointing a way or upright) with their tools: tap a piece to lay it out; tap a
// slot's direction buttons (or its picture, to rotate) to point it; ▲ ▼ (Move up, Move down) reorder the
// vertical list, ✕ takes it back.
import { h } from "../dom";
import type { PostJsonResult } from "../net";
import type { Seat, Snapshot } from "../types";
import { pieceIcon } from "./board";
import { playerById, sortPieces } from "./model";
import { waitingFor } from "./status";
import { GoalModel, MAX_INSTRUCTIONS, ProgramModel } from "./program";
import {
  COLOUR_NAMES, DIR_ARROWS, dirLabel, parsePiece, type Piece, pieceLabel, type RamMe, type RamState, type RDir, RDIRS,
} from "./types";

/** While the server's program is fetched after my seat changed elsewhere. */
const AWAITING = "Your program changed on another page or device: loading it…";

export type Send = (body: unknown) => Promise<PostJsonResult<unknown>>;

function seatName(s: Seat | undefined, fallback: string): string {
  if (!s) return fallback;
  return typeof s.display_name === "string" && s.display_name.trim() ? s.display_name : s.user;
}

/** "S red" under a piece's picture. */
function pieceText(p: Piece): string {
  const parsed = parsePiece(p);
  return parsed ? `${parsed.size} ${parsed.colour}` : p;
}

export abstract class RamPanelView {
  readonly el: HTMLElement;
  protected readonly title: HTMLHeadingElement;
  protected readonly placeholder: HTMLParagraphElement;
  protected readonly speedNote: HTMLParagraphElement;
  protected readonly help: HTMLParagraphElement;
  protected readonly poolLabel: HTMLHeadingElement;
  protected readonly poolEl: HTMLDivElement;
  protected readonly listLabel: HTMLHeadingElement;
  protected readonly listEl: HTMLOListElement;
  protected readonly buttons: HTMLDivElement;
  readonly clockSlot: HTMLDivElement;
  protected readonly message: HTMLParagraphElement;
  protected readonly error: HTMLParagraphElement;
  protected mode: "none" | "goals" | "program" = "none";
  protected key = "";
  protected goal: GoalModel | null = null;
  protected program: ProgramModel | null = null;
  protected compiled = false;
  protected sending = false;
  protected dirty = false;
  protected draftTimer: ReturnType<typeof setTimeout> | undefined;
  protected draftNote = "";
  protected snap: Snapshot | null = null;
  protected state: RamState | null = null;
  protected me: RamMe | null = null;
  /** My seat changed elsewhere (another page of mine compiled or uncompiled): nothing is edited or saved
   * until the server's state of my program is here (a fresh snapshot or fetchMine). */
  protected awaiting = false;
  /** The seat event my own last move causes (seat_ready after Compile, seat_unready after Uncompile): not news. */
  protected ownEcho: boolean | null = null;
  /** A seat event of mine that came while my move was being sent. */
  protected echoWhileSending: boolean | null = null;
  protected fetchTry = 0;

  /** The game's current snapshot from the server (null: none to be had, e.g. the demo). */
  fetchMine: (() => Promise<Snapshot | null>) | null = null;

  /** The moves this page sends go one after the other, in order: a draft still on its way can never land after
   * a Compile sent later (and uncompile it), nor an older draft after a newer one. */
  protected queue: Promise<unknown> = Promise.resolve();

  constructor(parent: HTMLElement, protected readonly post: Send, protected readonly onSent: () => void) {
    this.el = h("section", { id: "ram-program", class: "ram-program", "aria-labelledby": "ram-program-title" });
    this.title = h("h2", { id: "ram-program-title" }, "Your program");
    this.placeholder = h("p", { class: "ram-placeholder" });
    this.speedNote = h("p", { class: "ram-speedbots", role: "note" });
    this.speedNote.hidden = true;
    this.help = h("p", { class: "ram-help" });
    this.poolLabel = h("h3", {}, "Your code pool");
    this.poolEl = h("div", { class: "ram-pool", role: "group", "aria-label": "Your code pool" });
    this.listLabel = h("h3", {}, "Program");
    this.listEl = h("ol", { class: "ram-slots" });
    this.buttons = h("div", { class: "ram-buttons" });
    /** Where my own clock goes (the game screen puts it there): right after Compile. */
    this.clockSlot = h("div", { class: "ram-clock-slot" });
    this.message = h("p", { class: "ram-message", "aria-live": "polite" });
    this.error = h("p", { id: "ram-error", class: "rr-error", role: "alert" });
    // The help comes after the buttons: the pool, the program and Compile come first, next to the board.
    this.el.append(this.title, this.placeholder, this.speedNote, this.poolLabel, this.poolEl, this.listLabel,
      this.listEl, this.buttons, this.clockSlot, this.message, this.error, this.help);
    parent.appendChild(this.el);
  }

  protected showBuilder(on: boolean): void {
    for (const el of [this.help, this.poolLabel, this.poolEl, this.listLabel, this.listEl, this.buttons, this.message]) el.hidden = !on;
    if (!on) this.error.textContent = "";
  }

  protected nameOf(id: string | null | undefined): string {
    if (!id || !this.snap) return "your neighbour";
    const seat = this.snap.seats.find((s) => String(s.bot ?? s.number) === id || String(s.number) === id);
    return seatName(seat, `player ${id}`);
  }

  protected myBotDir(): RDir {
    const mine = this.snap?.me && this.state ? playerById(this.state, this.snap.me.bot ?? this.snap.me.seat) : undefined;
    return mine && mine.bot.dir !== "up" ? mine.bot.dir : "N";
  }

  /** My seat is marked ready (compiled, or run as it lies): the program is not mine to change here. */
  protected seatReady(): boolean {
    const snap = this.snap;
    return !!snap?.seats.find((s) => s.number === snap.me?.seat)?.ready;
  }

  /** Nothing may be changed (nor saved as a draft): compiled, waiting for the server's program, or ready. */
  protected get locked(): boolean {
    return this.compiled || this.awaiting || (this.mode === "program" && this.seatReady());
  }

  protected render(): void {
    if (this.mode === "goals") this.renderGoals();
    else if (this.mode === "program") this.renderProgram();
  }

  // ---------------- the goal step ----------------

  protected renderGoals(): void {
    const snap = this.snap, goal = this.goal;
    if (!snap || !goal) return;
    const target = this.nameOf(this.me?.goals_for);
    const mySeat = snap.seats.find((s) => s.number === snap.me?.seat);
    const done = !!mySeat?.ready || (Array.isArray(this.me?.goals_made) && (this.me?.goals_made?.length ?? 0) > 0);
    this.title.textContent = `Build a goal stack for ${target}`;
    this.showBuilder(true);
    if (done) {
      const made = this.me?.goals_made ?? goal.goals();
      this.help.textContent = `Your goal stack for ${target}, top first. It stays hidden from everyone else until every stack is built.`;
      this.poolLabel.hidden = this.poolEl.hidden = true;
      this.listLabel.textContent = "Sent";
      this.listEl.className = "ram-goal-stack sent";
      this.listEl.replaceChildren(...made.map((p, i) => {
        const li = h("li", { class: "ram-goal", "data-piece": p });
        li.append(h("span", { class: "ram-pos" }, i === 0 ? "top" : String(i + 1)), pieceIcon(p, "up", 30), h("span", { class: "ram-piece-text" }, pieceText(p)));
        return li;
      }));
      this.buttons.replaceChildren();
      const n = waitingFor(snap);
      this.message.textContent = n > 0 ? `Goal stack sent — waiting for ${n} player${n === 1 ? "" : "s"}.` : "Goal stack sent.";
      return;
    }
    this.help.textContent = `Pick one piece of each colour from your code pool, in order: the first is the top, the colour ${target} ` +
      `must tag first. These pieces leave your pool; ${target} gets each one back into theirs on tagging it. Nobody else sees your stack ` +
      "until every stack is built.";
    this.poolLabel.hidden = this.poolEl.hidden = false;
    this.poolLabel.textContent = "Your code pool";
    const order = sortPieces(goal.pool, this.state?.precedence ?? []);
    const usedIdx = new Set(goal.picks);
    const taken = new Set<number>();
    const buttons = order.map((piece) => {
      const index = goal.pool.findIndex((p, i) => p === piece && !taken.has(i));
      taken.add(index);
      const used = usedIdx.has(index);
      const b = h("button", {
        type: "button", class: "ram-piece", "data-piece": piece, "data-index": String(index),
        "aria-label": `${pieceLabel(piece)}${used ? ", on the stack" : !goal.canPick(index) ? ", colour already on the stack" : ""}`,
      });
      b.append(pieceIcon(piece, "up", 30), h("span", { class: "ram-piece-text" }, pieceText(piece)));
      b.disabled = !goal.canPick(index) || this.awaiting;
      b.classList.toggle("used", used);
      b.addEventListener("click", () => {
        if (!this.awaiting && goal.pick(index)) this.render();
      });
      return b;
    });
    this.poolEl.replaceChildren(...buttons);
    this.listLabel.textContent = `Goal stack for ${target} (top first)`;
    this.listEl.className = "ram-goal-stack";
    const items: HTMLElement[] = goal.picks.map((index, pos) => {
      const p = goal.pool[index];
      const li = h("li", { class: "ram-goal", "data-piece": p, "data-pos": String(pos) });
      li.append(h("span", { class: "ram-pos" }, pos === 0 ? "top" : String(pos + 1)), pieceIcon(p, "up", 30),
        h("span", { class: "ram-piece-text" }, pieceText(p)));
      const tools = h("span", { class: "ram-tools" });
      tools.append(
        this.tool("▲", `Move ${pieceLabel(p)} up`, !this.awaiting && pos > 0, () => goal.move(pos, -1)),
        this.tool("▼", `Move ${pieceLabel(p)} down`, !this.awaiting && pos < goal.picks.length - 1, () => goal.move(pos, 1)),
        this.tool("✕", `Take ${pieceLabel(p)} off the stack`, !this.awaiting, () => goal.remove(pos)),
      );
      li.append(tools);
      return li;
    });
    for (const c of goal.missing()) {
      items.push(h("li", { class: "ram-goal empty", "data-colour": c }, `${COLOUR_NAMES[c]}: pick a piece`));
    }
    this.listEl.replaceChildren(...items);
    const submit = h("button", { type: "button", id: "ram-goals-submit", class: "primary" }, "Send the goal stack");
    submit.disabled = !goal.complete() || this.sending || this.awaiting;
    submit.addEventListener("click", () => void this.sendGoals());
    this.buttons.replaceChildren(submit);
    this.message.textContent = this.sending ? "Sending…" : this.awaiting ? AWAITING
      : goal.complete() ? "Ready to send." : `Still to pick: ${goal.missing().join(", ")}.`;
  }

  protected renderProgram(): void {
    const snap = this.snap, program = this.program;
    if (!snap || !program) return;
    const locked = this.locked;
    this.title.textContent = `Your program · round ${this.state?.round || snap.turn}`;
    this.showBuilder(true);
    this.help.textContent = this.awaiting ? "Your program was changed on another page: this page loads the server's before you can change it."
      : locked && !this.compiled ? "Your program is in for this round."
      : locked
      ? "Compiled. You may still uncompile and change it until the round runs."
      : `Tap pieces of your code pool to lay out up to ${MAX_INSTRUCTIONS} instructions; they run left to right (here, top to bottom). ` +
        "Point each one: a lying piece moves your bot that way (small 1, medium 2, large 3 squares; turning uses the first), " +
        "upright backs up. Then your bot fires a beam of the piece's colour: blue pushes, yellow pulls, red slides, green sets upright.";
    this.poolLabel.hidden = this.poolEl.hidden = false;
    this.poolLabel.textContent = "Your code pool";
    const used = program.used();
    const order = sortPieces(program.pool, this.state?.precedence ?? []);
    const taken = new Set<number>();
    this.poolEl.replaceChildren(...order.map((piece) => {
      const index = program.pool.findIndex((p, i) => p === piece && !taken.has(i));
      taken.add(index);
      const inProgram = used.has(index);
      const b = h("button", {
        type: "button", class: "ram-piece", "data-piece": piece, "data-index": String(index),
        "aria-label": `${pieceLabel(piece)}${inProgram ? ", in your program" : ""}`,
      });
      b.append(pieceIcon(piece, "up", 30), h("span", { class: "ram-piece-text" }, pieceText(piece)));
      b.classList.toggle("used", inProgram);
      b.disabled = locked || inProgram || program.full;
      b.addEventListener("click", () => this.edit(() => program.add(index, this.myBotDir())));
      return b;
    }));
    if (!program.pool.length) this.poolEl.replaceChildren(h("p", { class: "ram-empty" }, "Your code pool is empty: your bot can only wait."));
    this.listLabel.textContent = `Program (${program.slots.length} of ${MAX_INSTRUCTIONS})`;
    this.listEl.className = "ram-slots";
    const items: HTMLElement[] = program.slots.map((slot, i) => {
      const li = h("li", { class: "ram-slot filled", "data-slot": String(i), "data-piece": slot.piece, "data-dir": slot.dir });
      const pic = h("button", {
        type: "button", class: "ram-slot-piece", "aria-label": `Instruction ${i + 1}: ${pieceLabel(slot.piece)} ${dirLabel(slot.dir)}. Press to rotate.`,
      });
      pic.append(h("span", { class: "ram-pos" }, String(i + 1)), pieceIcon(slot.piece, slot.dir, 34));
      pic.disabled = locked;
      pic.addEventListener("click", () => this.edit(() => program.rotate(i)));
      const dirs = h("span", { class: "ram-dirs", role: "group", "aria-label": `Direction of instruction ${i + 1}` });
      for (const d of RDIRS) {
        const b = h("button", {
          type: "button", class: "ram-dir", "data-dir": d, "aria-pressed": String(slot.dir === d),
          "aria-label": d === "up" ? "Upright (reverse)" : `Point ${d}`, title: d === "up" ? "Upright: back up" : `Point ${d}`,
        }, DIR_ARROWS[d]);
        b.disabled = locked;
        b.addEventListener("click", () => this.edit(() => program.setDir(i, d)));
        dirs.append(b);
      }
      const tools = h("span", { class: "ram-tools" });
      tools.append(
        this.tool("▲", `Move up (instruction ${i + 1} runs earlier)`, !locked && i > 0, () => program.move(i, -1), "earlier"),
        this.tool("▼", `Move down (instruction ${i + 1} runs later)`, !locked && i < program.slots.length - 1, () => program.move(i, 1), "later"),
        this.tool("✕", `Take instruction ${i + 1} back to the pool`, !locked, () => program.remove(i), "remove"),
      );
      li.append(pic, dirs, tools);
      return li;
    });
    // Only the next free slot is drawn (the list's label counts them all): five empty rows pushed Compile below
    // the fold on phones and on 1920x1080 screens.
    if (program.slots.length < MAX_INSTRUCTIONS) {
      const i = program.slots.length;
      items.push(h("li", { class: "ram-slot empty", "data-slot": String(i) }, `${i + 1} · empty`));
    }
    this.listEl.replaceChildren(...items);
    const compile = h("button", { type: "button", id: "ram-compile", class: "primary" }, program.slots.length ? "Compile" : "Compile (no instructions)");
    compile.disabled = locked || this.sending;
    compile.addEventListener("click", () => void this.sendProgram(true));
    const uncompile = h("button", { type: "button", id: "ram-uncompile" }, "Uncompile");
    uncompile.hidden = !this.compiled;
    uncompile.disabled = this.sending || this.awaiting;
    uncompile.addEventListener("click", () => void this.sendProgram(false));
    const clear = h("button", { type: "button", id: "ram-clear" }, "Clear");
    clear.hidden = this.compiled;
    clear.disabled = locked || !program.slots.length || this.sending;
    clear.addEventListener("click", () => this.edit(() => { program.clear(); return true; }));
    this.buttons.replaceChildren(compile, uncompile, clear);
    const n = waitingFor(snap);
    this.message.textContent = this.sending ? "Sending…"
      : this.awaiting ? AWAITING
      : locked ? `${this.compiled ? "Compiled" : "Program in"} — waiting for ${n} player${n === 1 ? "" : "s"}.`
      : this.draftNote || (program.slots.length ? "Compile when ready." : "Lay out your instructions, then compile.");
  }

  protected tool(text: string, label: string, enabled: boolean, run: () => boolean, cls = ""): HTMLButtonElement {
    const b = h("button", { type: "button", class: `ram-tool${cls ? ` ram-${cls}` : ""}`, "aria-label": label, title: label }, text);
    b.disabled = !enabled;
    b.addEventListener("click", () => {
      if (this.mode === "program" && this.locked) return;
      if (this.awaiting) return;
      if (run()) {
        this.dirty = this.mode === "program" ? true : this.dirty;
        if (this.mode === "program") this.scheduleDraft();
        this.render();
      }
    });
    return b;
  }

  protected abstract edit(run: () => boolean): void;
  protected abstract scheduleDraft(): void;
  protected abstract sendGoals(): Promise<void>;
  protected abstract sendProgram(compiled: boolean): Promise<void>;
}
