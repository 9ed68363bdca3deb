// RAMbots programs and goal stacks as plain data (no DOM): which code-pool pieces are laid out, in what
// order and pointing which way; which pieces make the goal stack I build for my neighbour.
import { type Colour, COLOURS, type Instruction, parsePiece, type Piece, type RDir, RDIRS } from "./types";

/** 002 "The Programming Phase": up to five instructions. */
export const MAX_INSTRUCTIONS = 5;

export interface Slot { index: number; piece: Piece; dir: RDir }

/** A program being laid out from a code pool; each pool piece (by index) is used at most once. */
export class ProgramModel {
  slots: Slot[] = [];

  constructor(readonly pool: readonly Piece[]) {}

  /** A program from the server (my compiled program or my draft), matched piece by piece to the pool;
   * pieces the pool no longer holds are dropped. */
  static from(pool: readonly Piece[], program: readonly Instruction[] | null | undefined): ProgramModel {
    const m = new ProgramModel(pool);
    for (const ins of program ?? []) {
      const used = m.used();
      const index = pool.findIndex((p, i) => p === ins.piece && !used.has(i));
      if (index >= 0 && m.slots.length < MAX_INSTRUCTIONS) m.slots.push({ index, piece: ins.piece, dir: ins.dir });
    }
    return m;
  }

  used(): Set<number> {
    return new Set(this.slots.map((s) => s.index));
  }

  get full(): boolean {
    return this.slots.length >= MAX_INSTRUCTIONS;
  }

  /** Lay pool piece `index` out as the next instruction, pointing `dir`. False when it can't. */
  add(index: number, dir: RDir): boolean {
    if (this.full || !Number.isInteger(index) || index < 0 || index >= this.pool.length || this.used().has(index)) return false;
    this.slots.push({ index, piece: this.pool[index], dir });
    return true;
  }

  remove(slot: number): boolean {
    if (slot < 0 || slot >= this.slots.length) return false;
    this.slots.splice(slot, 1);
    return true;
  }

  setDir(slot: number, dir: RDir): boolean {
    const s = this.slots[slot];
    if (!s || !RDIRS.includes(dir)) return false;
    s.dir = dir;
    return true;
  }

  /** The next direction: N → E → S → W → upright → N. */
  rotate(slot: number): boolean {
    const s = this.slots[slot];
    if (!s) return false;
    s.dir = RDIRS[(RDIRS.indexOf(s.dir) + 1) % RDIRS.length];
    return true;
  }

  /** Move an instruction earlier (-1) or later (+1). */
  move(slot: number, delta: number): boolean {
    const to = slot + delta;
    if (!this.slots[slot] || to < 0 || to >= this.slots.length) return false;
    const [s] = this.slots.splice(slot, 1);
    this.slots.splice(to, 0, s);
    return true;
  }

  clear(): void {
    this.slots = [];
  }

  program(): Instruction[] {
    return this.slots.map((s) => ({ piece: s.piece, dir: s.dir }));
  }

  /** Same instructions in the same order. */
  equals(other: readonly Instruction[] | null | undefined): boolean {
    const mine = this.program();
    const theirs = other ?? [];
    return mine.length === theirs.length && mine.every((s, i) => s.piece === theirs[i].piece && s.dir === theirs[i].dir);
  }
}

/** The goal stack I build for my neighbour: one piece of each colour from my pool, top first. */
export class GoalModel {
  picks: number[] = [];

  constructor(readonly pool: readonly Piece[]) {}

  colourOf(index: number): Colour | null {
    return parsePiece(this.pool[index])?.colour ?? null;
  }

  chosenColours(): Set<Colour> {
    return new Set(this.picks.map((i) => this.colourOf(i)).filter((c): c is Colour => c !== null));
  }

  /** Can pool piece `index` go on the stack (its colour not there yet)? */
  canPick(index: number): boolean {
    const c = this.colourOf(index);
    return c !== null && !this.picks.includes(index) && !this.chosenColours().has(c);
  }

  /** Put a piece on the bottom of the stack (the first pick is the top). */
  pick(index: number): boolean {
    if (!this.canPick(index)) return false;
    this.picks.push(index);
    return true;
  }

  remove(pos: number): boolean {
    if (pos < 0 || pos >= this.picks.length) return false;
    this.picks.splice(pos, 1);
    return true;
  }

  move(pos: number, delta: number): boolean {
    const to = pos + delta;
    if (pos < 0 || pos >= this.picks.length || to < 0 || to >= this.picks.length) return false;
    const [p] = this.picks.splice(pos, 1);
    this.picks.splice(to, 0, p);
    return true;
  }

  missing(): Colour[] {
    const chosen = this.chosenColours();
    return COLOURS.filter((c) => !chosen.has(c));
  }

  complete(): boolean {
    return this.picks.length === 4 && this.missing().length === 0;
  }

  goals(): Piece[] {
    return this.picks.map((i) => this.pool[i]);
  }
}
