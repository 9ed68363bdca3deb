// The RAMbots programming panel: sending the goal stack and each round's program (Compile / Uncompile), in
// Speedbots the arrangement saved as a draft while it is built, and my seat's moves made on another page.
// Its elements and drawing are panelview.ts's.
import { watchingText } from "../dom";
import type { Snapshot } from "../types";
import { playerById, readMe } from "./model";
import { GoalModel, ProgramModel } from "./program";
import { type Instruction, type RamMe, type RamState } from "./types";

/** Speedbots: how long the arrangement rests before it is saved. Short: the round may end any moment (the last
 * player's draft runs as it lies), and a change not saved by then is lost. */
export const DRAFT_DELAY_MS = 150;

import { RamPanelView, type Send } from "./panelview";
export type { Send } from "./panelview";

export class RambotsPanel extends RamPanelView {
  protected send(body: Parameters<Send>[0]): ReturnType<Send> {
    const next = this.queue.then(() => this.post(body));
    this.queue = next.catch(() => undefined);
    return next as ReturnType<Send>;
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
  protected async takeServer(): Promise<void> {
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
  protected remember(snap: Snapshot, fields: Partial<RamMe>): void {
    if (this.me && this.snap === snap) Object.assign(this.me, fields);
    const me = snap.me as (Snapshot["me"] & { rambots?: Partial<RamMe> | null }) | null;
    if (!me) return;
    if (!me.rambots || typeof me.rambots !== "object") me.rambots = {};
    Object.assign(me.rambots, fields);
  }

  protected async sendGoals(): Promise<void> {
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

  protected edit(run: () => boolean): void {
    if (this.locked || !run()) return;
    this.dirty = true;
    this.error.textContent = "";
    this.draftNote = "";
    this.scheduleDraft();
    this.render();
  }

  /** Speedbots: the arrangement is saved (uncompiled) once it rests, so that it runs as it lies if I am last. */
  protected scheduleDraft(): void {
    window.clearTimeout(this.draftTimer);
    if (this.state?.options.speedbots !== true || this.locked) return;
    this.draftTimer = window.setTimeout(() => void this.saveDraft(), DRAFT_DELAY_MS);
  }

  protected async saveDraft(): Promise<void> {
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

  protected async sendProgram(compiled: boolean): Promise<void> {
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
