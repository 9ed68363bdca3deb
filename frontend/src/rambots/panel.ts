// The RAMbots programming panel: the goal step ("Build a goal stack for <neighbour>") and each round's
// program (up to five code-pool pieces, each pointing a way or upright), Compile / Uncompile, and in
// Speedbots the arrangement saved as a draft while it is built. Tap a piece to lay it out; tap a slot's
// direction buttons (or its picture, to rotate) to point it; ◀ ▶ reorder, ✕ takes it back.
import { h, watchingText } from "../dom";
import type { PostJsonResult } from "../net";
import type { Seat, Snapshot } from "../types";
import { pieceIcon } from "./board";
import { playerById, readMe, sortPieces } from "./model";
import { waitingFor } from "./status";
import { GoalModel, MAX_INSTRUCTIONS, ProgramModel } from "./program";
import {
  COLOUR_NAMES, DIR_ARROWS, dirLabel, type Instruction, parsePiece, type Piece, pieceLabel, type RamMe, type RamState,
  type RDir, RDIRS,
} from "./types";

/** While the server's program is fetched after my seat changed elsewhere. */
const AWAITING = "Your program changed on another page or device: loading it…";

/** How long the arrangement rests before Speedbots saves it as a draft. */
/** Speedbots: how long the arrangement rests before it is saved. Short: the round may end any moment (the last
 * player's draft runs as it lies), and a change not saved by then is lost. */
export const DRAFT_DELAY_MS = 150;

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


export class RambotsPanel {
  readonly el: HTMLElement;
  private readonly title: HTMLHeadingElement;
  private readonly placeholder: HTMLParagraphElement;
  private readonly speedNote: HTMLParagraphElement;
  private readonly help: HTMLParagraphElement;
  private readonly poolLabel: HTMLHeadingElement;
  private readonly poolEl: HTMLDivElement;
  private readonly listLabel: HTMLHeadingElement;
  private readonly listEl: HTMLOListElement;
  private readonly buttons: HTMLDivElement;
  private readonly message: HTMLParagraphElement;
  private readonly error: HTMLParagraphElement;
  private mode: "none" | "goals" | "program" = "none";
  private key = "";
  private goal: GoalModel | null = null;
  private program: ProgramModel | null = null;
  private compiled = false;
  private sending = false;
  private dirty = false;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  private draftNote = "";
  private snap: Snapshot | null = null;
  private state: RamState | null = null;
  private me: RamMe | null = null;
  /** My seat changed elsewhere (another page of mine compiled or uncompiled): nothing is edited or saved
   * until the server's state of my program is here (a fresh snapshot or fetchMine). */
  private awaiting = false;
  /** The seat event my own last move causes (seat_ready after Compile, seat_unready after Uncompile): not news. */
  private ownEcho: boolean | null = null;
  /** A seat event of mine that came while my move was being sent. */
  private echoWhileSending: boolean | null = null;
  private fetchTry = 0;

  /** The game's current snapshot from the server (null: none to be had, e.g. the demo). */
  fetchMine: (() => Promise<Snapshot | null>) | null = null;

  /** The moves this page sends go one after the other, in order: a draft still on its way can never land after
   * a Compile sent later (and uncompile it), nor an older draft after a newer one. */
  private queue: Promise<unknown> = Promise.resolve();

  private send(body: Parameters<Send>[0]): ReturnType<Send> {
    const next = this.queue.then(() => this.post(body));
    this.queue = next.catch(() => undefined);
    return next as ReturnType<Send>;
  }

  constructor(parent: HTMLElement, private readonly post: Send, private readonly onSent: () => void) {
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
    this.message = h("p", { class: "ram-message", "aria-live": "polite" });
    this.error = h("p", { id: "ram-error", class: "rr-error", role: "alert" });
    // The help comes after the buttons: the pool, the program and Compile come first, next to the board.
    this.el.append(this.title, this.placeholder, this.speedNote, this.poolLabel, this.poolEl, this.listLabel,
      this.listEl, this.buttons, this.message, this.error, this.help);
    parent.appendChild(this.el);
  }

  /** The snapshot's (or a turn's) state; `moving` while a turn plays. */
  update(snap: Snapshot, state: RamState, me: RamMe | null, moving: boolean): void {
    // A new snapshot (not the same one with an event applied) is the server's word on my program.
    const fresh = snap !== this.snap;
    if (fresh) this.awaiting = false;
    if (fresh && snap.turn !== this.snap?.turn) this.ownEcho = null;
    this.snap = snap;
    this.state = state;
    this.me = me;
    const mine = snap.me ? playerById(state, snap.me.bot ?? snap.me.seat) : undefined;
    const seat = snap.me ? snap.seats.find((s) => s.number === snap.me?.seat) : undefined;
    const speedbots = state.options.speedbots === true;
    this.speedNote.hidden = !speedbots || snap.status === "finished" || snap.status === "cancelled";
    this.speedNote.textContent = "Speedbots is on: a round starts as soon as all but one player have compiled, and the last " +
      "player's program runs as it lies. Your arrangement is saved as you build it.";
    let mode: "none" | "goals" | "program" = "none";
    let placeholder = "";
    if (snap.status === "lobby") placeholder = "Waiting for players. The game starts when the creator starts it (2 to 4 players).";
    else if (snap.status === "cancelled") placeholder = "This game was cancelled.";
    else if (snap.status === "finished") placeholder = "The game is over.";
    else if (moving || snap.status === "resolving") placeholder = "The bots are running their programs…";
    else if (!snap.me || !mine) placeholder = watchingText();
    else if (mine.out || seat?.ejected) placeholder = "Your bot is out of the game: you are watching.";
    else mode = state.phase === "goals" || snap.turn === 0 ? "goals" : "program";
    // A viewer without a seat in play (a spectator, an ejected or removed seat) has no program: one line
    // saying so, no card, no "Your program", no Speedbots note about saving an arrangement.
    const watching = snap.status !== "lobby" && (!snap.me || !mine || mine.out || !!seat?.ejected);
    this.el.classList.toggle("ram-watching", watching);
    this.title.hidden = watching;
    if (watching) this.speedNote.hidden = true;
    this.placeholder.textContent = placeholder;
    this.placeholder.hidden = !placeholder;
    this.el.dataset.mode = mode;
    this.el.hidden = snap.status === "finished" || snap.status === "cancelled";
    if (mode === "none") {
      this.mode = mode;
      this.title.textContent = snap.status === "lobby" ? "RAMbots" : "Your program";
      this.showBuilder(false);
      window.clearTimeout(this.draftTimer);
      return;
    }
    if (!mine) return;
    const pool = mine.pool;
    if (mode === "goals") {
      const key = JSON.stringify(["goals", snap.turn, pool]);
      if (key !== this.key || this.mode !== mode) {
        this.key = key;
        this.goal = new GoalModel(pool);
        this.error.textContent = "";
      }
    } else {
      // A piece of my program the pool does not list (a server that keeps them apart) is still mine.
      const saved = me?.program ?? me?.draft ?? null;
      const full = [...pool];
      for (const ins of saved ?? []) {
        const have = full.filter((p) => p === ins.piece).length, need = (saved ?? []).filter((i) => i.piece === ins.piece).length;
        if (have < need) full.push(ins.piece);
      }
      const key = JSON.stringify(["program", snap.turn, full]);
      // The server's compiled state differs from mine (another page compiled or uncompiled): the server wins,
      // whatever I had laid out here.
      const overruled = fresh && !this.sending && (me?.compiled === true) !== this.compiled;
      if (overruled) window.clearTimeout(this.draftTimer);
      if (key !== this.key || this.mode !== mode || (!this.dirty && !this.sending) || overruled) {
        if (key !== this.key || this.mode !== mode) this.error.textContent = "";
        this.key = key;
        this.program = ProgramModel.from(full, saved);
        this.compiled = me?.compiled === true;
        this.dirty = false;
      }
    }
    this.mode = mode;
    this.render();
  }

  /**
   * A seat_ready (`ready`) or seat_unready of my own seat. The echo of a move this page sent is no news;
   * anything else (my other page compiled, uncompiled, or the server ran my program as it lies) means this
   * page's program may be stale: editing stops (no draft can be saved over it) until the server's is here.
   */
  ownSeat(ready: boolean): void {
    if (this.sending) {
      this.echoWhileSending = ready;
      return;
    }
    if (this.ownEcho === ready) {
      this.ownEcho = null;
      return;
    }
    this.ownEcho = null;
    if (this.mode === "none") return; // nothing to edit: the next snapshot brings it anyway
    this.awaiting = true;
    this.fetchTry = 0;
    window.clearTimeout(this.draftTimer);
    this.render();
    void this.takeServer();
  }

  /** Fetch the game and take my program (or goal stack) from it: `me.rambots` and my seat's `ready`. */
  private async takeServer(): Promise<void> {
    const asked = this.snap;
    let got: Snapshot | null = null;
    let failed = false;
    try {
      got = this.fetchMine ? await this.fetchMine() : null;
    } catch {
      failed = true;
    }
    const snap = this.snap;
    if (!this.awaiting || !snap || snap !== asked) return; // a snapshot came meanwhile: it is the server's word
    if (failed) {
      if (++this.fetchTry < 3) {
        window.setTimeout(() => void this.takeServer(), 1500);
        return;
      }
      this.error.textContent = "Could not load your program from the server: reload the page before changing it.";
      this.render();
      return;
    }
    if (!got || got.turn !== snap.turn || got.status !== snap.status) {
      // The demo, or the game moved on (a turn resolving): the next snapshot brings everything.
      if (!got) this.awaiting = false;
      this.render();
      return;
    }
    const mine = (got.me as { rambots?: unknown } | null)?.rambots;
    if (snap.me) (snap.me as { rambots?: unknown }).rambots = mine && typeof mine === "object" ? JSON.parse(JSON.stringify(mine)) : mine;
    for (const s of got.seats ?? []) {
      const here = snap.seats.find((x) => x.number === s.number);
      if (here && typeof s.ready === "boolean") here.ready = s.ready;
    }
    this.me = readMe(mine ?? null);
    this.awaiting = false;
    this.key = ""; // rebuilt from the server's program
    this.dirty = false;
    if (this.state) this.update(snap, this.state, this.me, false);
    this.onSent(); // the seat list shows my seat's ready
  }

  /** What the server now holds for me, kept in the snapshot too (a render before the next snapshot reads it). */
  private remember(snap: Snapshot, fields: Partial<RamMe>): void {
    if (this.me && this.snap === snap) Object.assign(this.me, fields);
    const me = snap.me as (Snapshot["me"] & { rambots?: Partial<RamMe> | null }) | null;
    if (!me) return;
    if (!me.rambots || typeof me.rambots !== "object") me.rambots = {};
    Object.assign(me.rambots, fields);
  }

  private showBuilder(on: boolean): void {
    for (const el of [this.help, this.poolLabel, this.poolEl, this.listLabel, this.listEl, this.buttons, this.message]) el.hidden = !on;
    if (!on) this.error.textContent = "";
  }

  private nameOf(id: string | null | undefined): string {
    if (!id || !this.snap) return "your neighbour";
    const seat = this.snap.seats.find((s) => String(s.bot ?? s.number) === id || String(s.number) === id);
    return seatName(seat, `player ${id}`);
  }

  private myBotDir(): RDir {
    const mine = this.snap?.me && this.state ? playerById(this.state, this.snap.me.bot ?? this.snap.me.seat) : undefined;
    return mine && mine.bot.dir !== "up" ? mine.bot.dir : "N";
  }

  /** My seat is marked ready (compiled, or run as it lies): the program is not mine to change here. */
  private seatReady(): boolean {
    const snap = this.snap;
    return !!snap?.seats.find((s) => s.number === snap.me?.seat)?.ready;
  }

  /** Nothing may be changed (nor saved as a draft): compiled, waiting for the server's program, or ready. */
  private get locked(): boolean {
    return this.compiled || this.awaiting || (this.mode === "program" && this.seatReady());
  }

  private render(): void {
    if (this.mode === "goals") this.renderGoals();
    else if (this.mode === "program") this.renderProgram();
  }

  // ---------------- the goal step ----------------

  private renderGoals(): void {
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

  private async sendGoals(): Promise<void> {
    const snap = this.snap, goal = this.goal;
    if (!snap || !goal || !goal.complete() || this.sending) return;
    this.sending = true;
    this.error.textContent = "";
    this.render();
    const goals = goal.goals();
    this.echoWhileSending = null;
    const res = await this.send({ turn: snap.turn, goals });
    this.sending = false;
    const seen = this.echoWhileSending;
    this.echoWhileSending = null;
    if (res.ok) {
      this.ownEcho = seen === true ? null : true;
      this.remember(snap, { goals_made: goals });
      const seat = snap.seats.find((s) => s.number === snap.me?.seat);
      if (seat) seat.ready = true;
      this.onSent();
    } else this.error.textContent = res.detail;
    this.render();
  }

  // ---------------- a round's program ----------------

  private renderProgram(): void {
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
        this.tool("◀", `Run instruction ${i + 1} earlier`, !locked && i > 0, () => program.move(i, -1), "earlier"),
        this.tool("▶", `Run instruction ${i + 1} later`, !locked && i < program.slots.length - 1, () => program.move(i, 1), "later"),
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

  private tool(text: string, label: string, enabled: boolean, run: () => boolean, cls = ""): HTMLButtonElement {
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

  private edit(run: () => boolean): void {
    if (this.locked || !run()) return;
    this.dirty = true;
    this.error.textContent = "";
    this.draftNote = "";
    this.scheduleDraft();
    this.render();
  }

  /** Speedbots: the arrangement is saved (uncompiled) once it rests, so that it runs as it lies if I am last. */
  private scheduleDraft(): void {
    window.clearTimeout(this.draftTimer);
    if (this.state?.options.speedbots !== true || this.locked) return;
    this.draftTimer = window.setTimeout(() => void this.saveDraft(), DRAFT_DELAY_MS);
  }

  private async saveDraft(): Promise<void> {
    const snap = this.snap, program = this.program;
    // Never over a compiled program (nor one this page may not know: see ownSeat).
    if (!snap || !program || this.locked || this.sending || this.mode !== "program") return;
    const body = { turn: snap.turn, program: program.program(), compiled: false };
    const res = await this.send(body);
    if (this.program !== program) return;
    if (res.ok) {
      this.remember(snap, { draft: body.program });
      this.dirty = !program.equals(body.program);
      this.draftNote = "Draft saved: it runs as it lies if you are the last to compile.";
    } else this.error.textContent = res.detail;
    this.render();
  }

  private async sendProgram(compiled: boolean): Promise<void> {
    const snap = this.snap, program = this.program;
    if (!snap || !program || this.sending) return;
    window.clearTimeout(this.draftTimer);
    this.sending = true;
    this.error.textContent = "";
    this.render();
    const instructions: Instruction[] = program.program();
    this.echoWhileSending = null;
    const res = await this.send({ turn: snap.turn, program: instructions, compiled });
    this.sending = false;
    const seen = this.echoWhileSending;
    this.echoWhileSending = null;
    if (res.ok) {
      // Its seat event (ready after Compile, unready after Uncompile) is my own: expected unless already here.
      this.ownEcho = seen === compiled ? null : compiled;
      this.compiled = compiled;
      this.dirty = false;
      this.draftNote = "";
      this.remember(snap, compiled ? { compiled, program: instructions } : { compiled, program: null, draft: instructions });
      const seat = snap.seats.find((s) => s.number === snap.me?.seat);
      if (seat) seat.ready = compiled;
      this.onSent();
    } else this.error.textContent = res.detail;
    this.render();
  }
}
