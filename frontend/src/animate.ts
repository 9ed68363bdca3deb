// Plays board changes. Every change to the board (course, bots) goes through Animator.animate(),
// which also keeps each bot's data-x / data-y / data-dir equal to its logical state once the
// change is done.
import { Board, DIR_ANGLE, DIR_STEP, type BotShape } from "./board";
import { chipLabel } from "./chips";
import type { BotState, Coord, Course, Dir, EngineEvent, Seat } from "./types";
import { asKnownEvent } from "./types";

export type BoardChange =
  | { kind: "course"; course: Course }
  | { kind: "reset"; bots: BotState[]; seats: Seat[] }
  | { kind: "move"; bot: string; to: Coord }
  | { kind: "rotate"; bot: string; to: Dir }
  | { kind: "bump"; bot: string; dir: Dir }
  | { kind: "destroy"; bot: string }
  | { kind: "respawn"; bot: string; at: Coord; dir: Dir; virtual: boolean }
  | { kind: "bubble"; bot: string; text: string; tone: "chip" | "damage" | "good" | "info" };

interface BotVisual {
  id: string;
  shape: BotShape | null; // null while destroyed / off the course
  x: number;
  y: number;
  dir: Dir;
  angle: number; // continuous rotation in degrees, so turns take the short way round
  virtual: boolean;
  color: string;
  label: string;
  title: string;
}

/** Playback speed multiplier; 0 means instant. */
export type Speed = 0 | 0.5 | 1 | 2;

const BASE_MS = 300;

function ease(t: number): number {
  return t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
}

function shortestTurn(from: number, toDir: Dir): number {
  const target = DIR_ANGLE[toDir];
  const cur = ((from % 360) + 360) % 360;
  let delta = target - cur;
  if (delta > 180) delta -= 360;
  if (delta <= -180) delta += 360;
  return from + delta;
}

export class Animator {
  speed: Speed = 1;
  private bots = new Map<string, BotVisual>();
  private generation = 0;
  private skipping = false;
  private running = new Set<() => void>();

  constructor(private readonly board: Board) {}

  /** Stop everything in progress (snap to the end). Pending play() calls return false. */
  cancel(): void {
    this.generation++;
    this.finishRunning();
  }

  /** Finish the current turn's animation at once. */
  skip(): void {
    this.skipping = true;
    this.finishRunning();
  }

  private finishRunning(): void {
    for (const finish of [...this.running]) finish();
  }

  private duration(factor: number): number {
    if (this.skipping || this.speed === 0) return 0;
    return (BASE_MS * factor) / this.speed;
  }

  /** Run frame(t) for t in (0,1], ending with frame(1). Robust against hidden tabs (timer fallback). */
  private tween(ms: number, frame: (t: number) => void): Promise<void> {
    if (ms <= 0 || document.hidden) {
      frame(1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const start = performance.now();
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.running.delete(finish);
        frame(1);
        resolve();
      };
      const timer = setTimeout(finish, ms + 200);
      this.running.add(finish);
      const step = (now: number): void => {
        if (done) return;
        const t = Math.min(1, (now - start) / ms);
        if (t >= 1) finish();
        else {
          frame(ease(t));
          requestAnimationFrame(step);
        }
      };
      requestAnimationFrame(step);
    });
  }

  private wait(ms: number): Promise<void> {
    return this.tween(ms, () => undefined);
  }

  private writeAttrs(v: BotVisual): void {
    if (!v.shape) return;
    const g = v.shape.g;
    g.setAttribute("data-x", String(v.x));
    g.setAttribute("data-y", String(v.y));
    g.setAttribute("data-dir", v.dir);
    g.classList.toggle("virtual", v.virtual);
    g.setAttribute("opacity", v.virtual ? "0.5" : "1");
  }

  private makeShape(v: BotVisual): void {
    v.shape = this.board.createBot(v.id, v.color, v.label, v.title);
    this.board.poseBot(v.shape, v.x, v.y, v.angle);
    this.writeAttrs(v);
  }

  private removeShape(v: BotVisual): void {
    v.shape?.g.remove();
    v.shape = null;
  }

  /** The one entry point for every board change. Resolves when the change is fully shown. */
  async animate(change: BoardChange, ms: number): Promise<void> {
    const gen = this.generation;
    switch (change.kind) {
      case "course":
        this.board.drawCourse(change.course);
        return;

      case "reset": {
        for (const v of this.bots.values()) this.removeShape(v);
        this.bots.clear();
        this.board.fx.replaceChildren();
        const seatByBot = new Map<string, Seat>();
        for (const s of change.seats) if (s.bot != null) seatByBot.set(String(s.bot), s);
        for (const b of change.bots) {
          const seat = seatByBot.get(b.id);
          const v: BotVisual = {
            id: b.id,
            shape: null,
            x: b.at ? b.at[0] : 0,
            y: b.at ? b.at[1] : 0,
            dir: b.dir,
            angle: DIR_ANGLE[b.dir] ?? 0,
            virtual: !!b.virtual,
            color: seat?.color ?? "#888888",
            label: seat ? String(seat.number) : b.id,
            title: seat ? `${seat.user}'s robot (seat ${seat.number})` : `Robot ${b.id}`,
          };
          this.bots.set(b.id, v);
          if (b.at) this.makeShape(v);
        }
        return;
      }

      case "move": {
        const v = this.bots.get(change.bot);
        if (!v || !v.shape) return;
        const shape = v.shape;
        const fx = v.x, fy = v.y;
        const [tx, ty] = change.to;
        v.x = tx; v.y = ty;
        await this.tween(ms, (t) => this.board.poseBot(shape, fx + (tx - fx) * t, fy + (ty - fy) * t, v.angle));
        if (gen === this.generation) this.writeAttrs(v);
        return;
      }

      case "rotate": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        const from = v.angle;
        const to = shortestTurn(from, change.to);
        v.dir = change.to;
        v.angle = to;
        const shape = v.shape;
        if (shape) await this.tween(ms, (t) => this.board.poseBot(shape, v.x, v.y, from + (to - from) * t));
        if (gen === this.generation) this.writeAttrs(v);
        return;
      }

      case "bump": {
        const v = this.bots.get(change.bot);
        if (!v || !v.shape) return;
        const shape = v.shape;
        const [dx, dy] = DIR_STEP[change.dir];
        await this.tween(ms, (t) => {
          const k = Math.sin(Math.PI * t) * 0.18;
          this.board.poseBot(shape, v.x + dx * k, v.y + dy * k, v.angle);
        });
        if (gen === this.generation) this.writeAttrs(v);
        return;
      }

      case "destroy": {
        const v = this.bots.get(change.bot);
        if (!v || !v.shape) return;
        const shape = v.shape;
        const burst = this.board.burst(v.x, v.y);
        await this.tween(ms, (t) => {
          this.board.poseBot(shape, v.x, v.y, v.angle + 180 * t, 1 - 0.8 * t);
          shape.g.setAttribute("opacity", String((v.virtual ? 0.5 : 1) * (1 - t)));
          burst.setAttribute("opacity", String(1 - t));
        });
        burst.remove();
        if (gen === this.generation) this.removeShape(v);
        return;
      }

      case "respawn": {
        let v = this.bots.get(change.bot);
        if (!v) {
          v = {
            id: change.bot, shape: null, x: 0, y: 0, dir: change.dir, angle: 0, virtual: false,
            color: "#888888", label: change.bot, title: `Robot ${change.bot}`,
          };
          this.bots.set(change.bot, v);
        }
        this.removeShape(v);
        v.x = change.at[0]; v.y = change.at[1];
        v.dir = change.dir; v.angle = DIR_ANGLE[change.dir];
        v.virtual = change.virtual;
        this.makeShape(v);
        const shape = v.shape;
        const vis = v;
        if (shape) {
          await this.tween(ms, (t) => {
            this.board.poseBot(shape, vis.x, vis.y, vis.angle, 0.4 + 0.6 * t);
            shape.g.setAttribute("opacity", String((vis.virtual ? 0.5 : 1) * t));
          });
        }
        if (gen === this.generation) this.writeAttrs(v);
        return;
      }

      case "bubble": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        const el = this.board.bubble(v.x, v.y, change.text, change.tone);
        await this.tween(ms, (t) => {
          el.setAttribute("opacity", String(t < 0.7 ? 1 : 1 - (t - 0.7) / 0.3));
        });
        el.remove();
        return;
      }
    }
  }

  /** Short text description of the bots for the board's aria-label. */
  describeBots(nameOf: (bot: string) => string): string {
    const parts: string[] = [];
    for (const v of this.bots.values()) {
      if (v.shape) parts.push(`${nameOf(v.id)} at (${v.x},${v.y}) facing ${v.dir}${v.virtual ? " (virtual)" : ""}`);
    }
    return parts.length ? parts.join("; ") : "no robots on the course";
  }

  /**
   * Play a turn's engine events. Consecutive events with the same phase and step form a group;
   * "chips" groups play strictly in order, other groups (belts, pushers, ...) play all bots at once.
   * Resolves true when finished, false when cancelled by a newer snapshot.
   */
  async play(events: EngineEvent[], onEvent: (e: EngineEvent) => void): Promise<boolean> {
    const gen = this.generation;
    this.skipping = false;
    try {
      const groups: EngineEvent[][] = [];
      for (const e of events) {
        const last = groups[groups.length - 1];
        if (last && last[0].phase === e.phase && last[0].step === e.step) last.push(e);
        else groups.push([e]);
      }
      for (const group of groups) {
        if (gen !== this.generation) return false;
        if (group[0].step === "chips") {
          for (const e of group) {
            if (gen !== this.generation) return false;
            await this.playEvent(e, onEvent);
          }
        } else {
          const chains = new Map<string, EngineEvent[]>();
          for (const e of group) {
            const key = typeof e.bot === "string" ? e.bot : "";
            const chain = chains.get(key);
            if (chain) chain.push(e);
            else chains.set(key, [e]);
          }
          await Promise.all([...chains.values()].map(async (chain) => {
            for (const e of chain) {
              if (gen !== this.generation) return;
              await this.playEvent(e, onEvent);
            }
          }));
        }
      }
      return gen === this.generation;
    } finally {
      if (gen === this.generation) this.skipping = false;
    }
  }

  private async playEvent(e: EngineEvent, onEvent: (e: EngineEvent) => void): Promise<void> {
    onEvent(e);
    const k = asKnownEvent(e);
    if (!k) return; // unknown or malformed: skipped (it still shows in the turn log)
    switch (k.type) {
      case "chip": {
        // Show the chip label for a while, but only hold the sequence briefly.
        void this.animate({ kind: "bubble", bot: k.bot, text: chipLabel(k.chip), tone: "chip" }, this.duration(2.5));
        await this.wait(this.duration(0.6));
        return;
      }
      case "moved":
      case "pushed":
        return this.animate({ kind: "move", bot: k.bot, to: k.to }, this.duration(1));
      case "rotated":
        return this.animate({ kind: "rotate", bot: k.bot, to: k.to }, this.duration(0.9));
      case "blocked":
        return this.animate({ kind: "bump", bot: k.bot, dir: k.dir }, this.duration(0.8));
      case "destroyed":
        return this.animate({ kind: "destroy", bot: k.bot }, this.duration(1.5));
      case "damaged":
        return this.animate({ kind: "bubble", bot: k.bot, text: `−${k.amount} (${k.damage} dmg)`, tone: "damage" }, this.duration(1.5));
      case "checkpoint":
        return this.animate({ kind: "bubble", bot: k.bot, text: `✓ Check point ${k.number}`, tone: "good" }, this.duration(1.8));
      case "respawned":
        return this.animate({ kind: "respawn", bot: k.bot, at: k.at, dir: k.dir, virtual: !!k.virtual }, this.duration(1.2));
      case "winner":
        return this.animate({ kind: "bubble", bot: k.bot, text: "Winner!", tone: "good" }, this.duration(3));
    }
  }
}
