// Plays RAMbots board changes. Every change goes through RamAnimator.animate(change, ms), which leaves each
// piece's data-x / data-y / data-dir equal to its logical state once done; play(events) turns a turn's
// engine events into changes, one instruction (with everything it causes) at a time, honouring the game
// screen's pause, step, skip and speed (PlaybackBase).
import { PlaybackBase } from "../playback";
import type { Coord, EngineEvent, Seat } from "../types";
import { isCoord } from "../types";
import { type PieceShape, RamBoard, RDIR_ANGLE } from "./board";

import { type Colour, DIR_ARROWS, isColour, isRDir, parsePiece, type RamState, type RDir } from "./types";

export type RamChange =
  | { kind: "reset"; state: RamState; seats: Seat[]; names: (id: string) => string }
  | { kind: "move"; ref: string; to: Coord }
  | { kind: "orient"; ref: string; dir: RDir }
  | { kind: "bump"; ref: string; dir: RDir }
  | { kind: "beam"; from: Coord; dir: RDir; at: Coord | null; colour: Colour }
  | { kind: "flash"; ref: string; tone: "damage" | "good" | "info" }
  | { kind: "bubble"; ref: string; text: string; tone: "chip" | "damage" | "good" | "info" }
  | { kind: "remove"; ref: string };

interface Visual { ref: string; shape: PieceShape; x: number; y: number; dir: RDir }

/** A turn's groups: each instruction with what it causes; the turn's own events (goal stacks, precedence,
 * the winner) each on their own. */
export function groupRamEvents(events: readonly EngineEvent[]): EngineEvent[][] {
  const groups: EngineEvent[][] = [];
  let open = false;
  for (const e of events) {
    const alone = e.type === "goal_stacks_revealed" || e.type === "precedence_rotated" || e.type === "won" || e.type === "removed";
    if (e.type === "instruction" || alone || !open || !groups.length) {
      groups.push([e]);
      open = e.type === "instruction";
    } else groups[groups.length - 1].push(e);
  }
  return groups;
}

export class RamAnimator extends PlaybackBase {
  private visuals = new Map<string, Visual>();
  /** Before each group: its index, the count and its first event ("Instruction 3 of 12"). */
  onGroup: ((index: number, count: number, first: EngineEvent) => void) | null = null;

  constructor(private readonly board: RamBoard) {
    super();
  }

  private write(v: Visual): void {
    const g = v.shape.g;
    g.setAttribute("data-x", String(v.x));
    g.setAttribute("data-y", String(v.y));
    g.setAttribute("data-dir", v.dir);
  }

  /** Where a piece is now (for the board's description and the tests). */
  pieces(): { ref: string; at: Coord; dir: RDir }[] {
    return [...this.visuals.values()].map((v) => ({ ref: v.ref, at: [v.x, v.y] as Coord, dir: v.dir }));
  }

  private fade(el: SVGElement, ms: number, hold = 0.6): Promise<void> {
    return this.tween(ms, (t) => {
      el.setAttribute("opacity", String(t < hold ? 1 : 1 - (t - hold) / (1 - hold)));
    }).then(() => el.remove());
  }

  /** The one entry point for every board change. Resolves when the change is fully shown. */
  async animate(change: RamChange, ms: number): Promise<void> {
    const gen = this.generation;
    switch (change.kind) {
      case "reset": {
        this.board.clearPieces();
        this.visuals.clear();
        const seatOf = (id: string): Seat | undefined => change.seats.find((s) => String(s.bot ?? s.number) === id || String(s.number) === id);
        for (const b of change.state.beacons) {
          if (!b.at) continue;
          const ref = `beacon:${b.colour}`;
          const shape = this.board.createPiece(ref, b.colour, { bot: false, title: `The ${b.colour} beacon` });
          this.add({ ref, shape, x: b.at[0], y: b.at[1], dir: b.dir });
        }
        for (const p of change.state.players) {
          if (!p.bot.at || p.out) continue;
          const ref = `bot:${p.id}`;
          const seat = seatOf(p.id);
          const name = change.names(p.id);
          const shape = this.board.createPiece(ref, p.colour, {
            bot: true, seatColor: seat?.color, name, title: `${name}'s ${p.colour} RAMbot`,
          });
          this.add({ ref, shape, x: p.bot.at[0], y: p.bot.at[1], dir: p.bot.dir });
        }
        return;
      }
      case "move": {
        const v = this.visuals.get(change.ref);
        if (!v) return;
        const fx = v.x, fy = v.y, [tx, ty] = change.to;
        v.x = tx; v.y = ty;
        await this.tween(ms, (t) => this.board.pose(v.shape, fx + (tx - fx) * t, fy + (ty - fy) * t));
        if (gen === this.generation) this.write(v);
        return;
      }
      case "orient": {
        const v = this.visuals.get(change.ref);
        if (!v) return;
        const from = v.dir, to = change.dir;
        v.dir = to;
        if (from !== "up" && to !== "up") {
          // Lying to lying: turn the short way round, then draw the new heading.
          let delta = RDIR_ANGLE[to] - RDIR_ANGLE[from];
          if (delta > 180) delta -= 360;
          if (delta < -180) delta += 360;
          await this.tween(ms, (t) => this.board.pose(v.shape, v.x, v.y, 1, delta * t));
        } else {
          // Tipping over or standing up: shrink, swap the drawing, grow back.
          let swapped = false;
          await this.tween(ms, (t) => {
            if (t >= 0.5 && !swapped) {
              swapped = true;
              this.board.setDir(v.shape, to);
            }
            this.board.pose(v.shape, v.x, v.y, 1 - 0.35 * Math.sin(Math.PI * t));
          });
        }
        this.board.setDir(v.shape, to);
        this.board.pose(v.shape, v.x, v.y);
        if (gen === this.generation) this.write(v);
        return;
      }
      case "bump": {
        const v = this.visuals.get(change.ref);
        if (!v || change.dir === "up") return;
        const [dx, dy] = ({ N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] } as const)[change.dir];
        await this.tween(ms, (t) => {
          const k = Math.sin(Math.PI * t) * 0.16;
          this.board.pose(v.shape, v.x + dx * k, v.y + dy * k);
        });
        this.board.pose(v.shape, v.x, v.y);
        return;
      }
      case "beam":
        return this.fade(this.board.beam(change.from, change.dir, change.at, change.colour), ms, 0.55);
      case "flash": {
        const v = this.visuals.get(change.ref);
        if (!v) return;
        return this.fade(this.board.flash(v.x, v.y, change.tone), ms, 0.3);
      }
      case "bubble": {
        const v = this.visuals.get(change.ref);
        if (!v) return;
        return this.fade(this.board.bubble(v.x, v.y, change.text, change.tone), ms, 0.7);
      }
      case "remove": {
        const v = this.visuals.get(change.ref);
        if (!v) return;
        await this.tween(ms, (t) => {
          v.shape.g.setAttribute("opacity", String(1 - t));
          this.board.pose(v.shape, v.x, v.y, 1 - 0.6 * t);
        });
        v.shape.g.remove();
        this.visuals.delete(change.ref);
        return;
      }
    }
  }

  private add(v: Visual): void {
    this.visuals.set(v.ref, v);
    this.board.setDir(v.shape, v.dir);
    this.board.pose(v.shape, v.x, v.y);
    this.write(v);
  }

  /** Play a turn's events, instruction by instruction. `state` is updated by the caller's onEvent (it is
   * read here only to find what a beam fired from). Resolves true when finished, false when cancelled. */
  async play(events: EngineEvent[], onEvent: (e: EngineEvent) => void): Promise<boolean> {
    const gen = this.begin();
    try {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const groups = groupRamEvents(events);
      for (let i = 0; i < groups.length; i++) {
        await this.gate(gen);
        if (gen !== this.generation) return false;
        const group = groups[i];
        this.onGroup?.(i, groups.length, group[0]);
        for (let j = 0; j < group.length; j++) {
          if (gen !== this.generation) return false;
          // A push moves the whole line together: consecutive moves of different pieces play at once.
          const e = group[j];
          if (e.type === "moved") {
            const batch: EngineEvent[] = [e];
            const refs = new Set([String((e as Record<string, unknown>).object)]);
            while (j + 1 < group.length && group[j + 1].type === "moved" && !refs.has(String((group[j + 1] as Record<string, unknown>).object))) {
              j++;
              batch.push(group[j]);
              refs.add(String((group[j] as Record<string, unknown>).object));
            }
            await Promise.all(batch.map((m) => this.playEvent(m, onEvent)));
          } else await this.playEvent(e, onEvent);
        }
      }
      return gen === this.generation;
    } finally {
      this.end(gen);
    }
  }

  private async playEvent(e: EngineEvent, onEvent: (e: EngineEvent) => void): Promise<void> {
    onEvent(e);
    const r = e as Record<string, unknown>;
    const ref = typeof r.object === "string" ? r.object : "";
    switch (e.type) {
      case "instruction": {
        const bot = `bot:${String(r.player)}`;
        const dir = isRDir(r.dir) ? r.dir : null;
        void this.animate({ kind: "bubble", ref: bot, text: `${String(r.piece)} ${dir ? DIR_ARROWS[dir] : ""}`.trim(), tone: "chip" }, this.duration(2.6));
        await this.animate({ kind: "flash", ref: bot, tone: "info" }, this.duration(0.6));
        return this.wait(this.duration(0.3));
      }
      case "reoriented":
      case "tipped":
        if (!isRDir(r.to)) return;
        return this.animate({ kind: "orient", ref, dir: r.to }, this.duration(e.type === "tipped" ? 0.7 : 0.8));
      case "set_upright":
        await this.animate({ kind: "orient", ref, dir: "up" }, this.duration(0.7));
        return;
      case "moved":
        if (!isCoord(r.to)) return;
        return this.animate({ kind: "move", ref, to: r.to }, this.duration(r.cause === "beam" ? 0.7 : 0.9));
      case "blocked":
        return this.animate({ kind: "bump", ref, dir: isRDir(r.dir) ? r.dir : "up" }, this.duration(0.7));
      case "rammed":
        void this.animate({ kind: "bubble", ref, text: "RAM!", tone: "damage" }, this.duration(1.8));
        return this.animate({ kind: "flash", ref, tone: "damage" }, this.duration(0.8));
      case "stolen":
        return this.animate({ kind: "bubble", ref: `bot:${String(r.to)}`, text: `+${String(r.piece)}`, tone: "good" }, this.duration(1.8));
      case "tagged":
        if (ref) void this.animate({ kind: "flash", ref, tone: "good" }, this.duration(1));
        return this.animate({
          kind: "bubble", ref: `bot:${String(r.player)}`, tone: "good",
          text: `Goal! ${parsePiece(r.piece)?.colour ?? ""}`.trim(),
        }, this.duration(2.2));
      case "beam": {
        if (!isCoord(r.from) || !isColour(r.colour)) return;
        const from = r.from;
        // The beam leaves the bot's nose: `dir` is the bot's heading ("up" fires upwards: no effect).
        const dir = isRDir(r.dir) ? r.dir : "up";
        const at = isCoord(r.at) ? r.at : null;
        return this.animate({ kind: "beam", from, dir, at, colour: r.colour }, this.duration(1.1));
      }
      case "won":
        return this.animate({ kind: "bubble", ref: `bot:${String(r.player)}`, text: "🏆 Winner!", tone: "good" }, this.duration(3));
      case "removed":
        return this.animate({ kind: "remove", ref: `bot:${String(r.player)}` }, this.duration(1));
      case "goal_stacks_revealed":
      case "precedence_rotated":
        return this.wait(this.duration(1));
      default:
        return; // unknown: nothing on the board
    }
  }
}

