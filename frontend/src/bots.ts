// The robots on the board: every robot-, drone- and bomb-shaped thing, kept equal to its logical state
// (data-x / data-y / data-dir / data-lives / data-damage) once a change is done. BotLayer.animate() is the one
// entry point for every board change (BoardChange); it plays the robots' own changes (course, reset, moves,
// turns, bumps, destruction, respawns, stats) and hands the effects to effects.ts (EffectLayer).
import { Board, DIR_ANGLE, DIR_STEP, sharedOffsets, type BotShape } from "./board";
import { PlaybackBase } from "./playback";
import type { BotState, Coord, Course, Dir, Seat } from "./types";

export type BoardChange =
  | { kind: "course"; course: Course }
  | { kind: "reset"; bots: BotState[]; seats: Seat[] }
  | { kind: "move"; bot: string; to: Coord; linear?: boolean }
  | { kind: "rotate"; bot: string; to: Dir }
  | { kind: "bump"; bot: string; dir: Dir }
  | { kind: "destroy"; bot: string; at: Coord | null }
  | { kind: "respawn"; bot: string; at: Coord; dir: Dir; virtual: boolean }
  | { kind: "stats"; bot: string; damage?: number; lives?: number; virtual?: boolean }
  | { kind: "shot"; from: Coord; to: Coord; dir: Dir | null; beams: number; source: string; hit: boolean; module?: string }
  | { kind: "deploy"; bot: string; owner: string; at: Coord; dir: Dir }
  | { kind: "bomb"; bot: string; owner: string; at: Coord }
  | { kind: "blast"; bot: string; squares: Coord[] }
  | { kind: "fizzle"; bot: string }
  | { kind: "shield"; bot: string }
  | { kind: "shock"; from: Coord; to: Coord; target: string }
  | { kind: "store"; bot: string }
  | { kind: "flash"; bot: string; tone: "damage" | "repair" | "info" }
  | { kind: "radiation"; at: Coord }
  | { kind: "remains"; squares: Coord[] }
  | { kind: "remains_drop"; from: Coord; squares: Coord[] }
  | { kind: "remains_move"; from: Coord; to: Coord }
  | { kind: "remains_take"; at: Coord; bot: string | null; pieces: number }
  | { kind: "bubble"; bot: string; text: string; tone: "chip" | "damage" | "good" | "info" };

export interface BotVisual {
  id: string;
  /** A drone is drawn as its owner's second robot; a bomb lies where it is until it explodes. */
  kind: "bot" | "drone" | "bomb";
  shape: BotShape | null; // null while destroyed / off the course
  x: number;
  y: number;
  dir: Dir;
  angle: number; // continuous rotation in degrees, so turns take the short way round
  virtual: boolean;
  lives: number;
  damage: number;
  color: string;
  label: string;
  title: string;
  /** Team play: the bot's team, shown as a badge. */
  team?: string | null;
}

/** Playback speed multiplier; 0 means instant. */
export type Speed = 0 | 0.5 | 1 | 2 | 4;

function shortestTurn(from: number, toDir: Dir): number {
  const target = DIR_ANGLE[toDir];
  const cur = ((from % 360) + 360) % 360;
  let delta = target - cur;
  if (delta > 180) delta -= 360;
  if (delta <= -180) delta += 360;
  return from + delta;
}

export class BotLayer extends PlaybackBase {
  /** The ruleset counts lives (ruleset.ts): a destroyed bot loses one. roborace's come back whole. */
  countsLives = true;
  /** The ruleset has damage: the board's description names it. */
  hasDamage = true;
  /** fused: hit points (damage is shown as the hit points left). */
  hitPoints: number | null = null;

  protected bots = new Map<string, BotVisual>();

  constructor(protected readonly board: Board) {
    super();
  }

  protected writeAttrs(v: BotVisual): void {
    if (!v.shape) return;
    const g = v.shape.g;
    g.setAttribute("data-x", String(v.x));
    g.setAttribute("data-y", String(v.y));
    g.setAttribute("data-dir", v.dir);
    g.setAttribute("data-lives", String(v.lives));
    g.setAttribute("data-damage", String(v.damage));
    g.classList.toggle("virtual", v.virtual);
    g.setAttribute("opacity", v.virtual ? "0.5" : "1");
    this.board.botStats(v.shape, v.lives, v.damage);
    this.layoutShared();
  }

  /** Robots sharing a square are drawn side by side, smaller (fused starts everybody on one square). */
  protected layoutShared(): void {
    const groups = new Map<string, BotVisual[]>();
    for (const v of this.bots.values()) {
      if (!v.shape || v.kind === "bomb") continue;
      const key = `${v.x},${v.y}`;
      const group = groups.get(key);
      if (group) group.push(v);
      else groups.set(key, [v]);
    }
    for (const group of groups.values()) {
      const offsets = sharedOffsets(group.length);
      group.sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true }));
      group.forEach((v, i) => {
        const shape = v.shape as BotShape;
        const next = offsets[i];
        const was = shape.offset ?? [0, 0, 1];
        if (was[0] === next[0] && was[1] === next[1] && was[2] === next[2]) return;
        shape.offset = next[2] === 1 ? undefined : next;
        shape.g.classList.toggle("shared-square", next[2] !== 1);
        this.board.poseBot(shape, v.x, v.y, v.angle);
      });
    }
  }

  protected makeShape(v: BotVisual): void {
    v.shape = v.kind === "bomb" ? this.board.createBomb(v.id, v.color, v.title)
      : this.board.createBot(v.id, v.color, v.label, v.title, v.kind === "drone");
    if (v.team && v.kind !== "bomb") this.board.teamBadge(v.shape, v.team);
    this.board.poseBot(v.shape, v.x, v.y, v.angle);
    this.writeAttrs(v);
  }

  protected removeShape(v: BotVisual): void {
    const had = v.shape !== null;
    v.shape?.g.remove();
    v.shape = null;
    if (had) this.layoutShared();
  }

  protected fade(el: SVGElement, ms: number, hold = 0.6): Promise<void> {
    return this.tween(ms, (t) => {
      el.setAttribute("opacity", String(t < hold ? 1 : 1 - (t - hold) / (1 - hold)));
    }).then(() => el.remove());
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
        this.board.clearMarks();
        const seatByBot = new Map<string, Seat>();
        for (const s of change.seats) if (s.bot != null) seatByBot.set(String(s.bot), s);
        for (const b of change.bots) {
          const owner = typeof b.drone_of === "string" && b.drone_of ? b.drone_of : null;
          const seat = seatByBot.get(owner ?? b.id);
          const v: BotVisual = {
            id: b.id,
            kind: owner ? "drone" : "bot",
            shape: null,
            x: b.at ? b.at[0] : 0,
            y: b.at ? b.at[1] : 0,
            dir: b.dir,
            angle: DIR_ANGLE[b.dir] ?? 0,
            virtual: !!b.virtual,
            lives: b.lives,
            damage: b.damage,
            color: seat?.color ?? (b.target ? "#5b6470" : "#888888"),
            label: seat ? String(seat.number) : b.target ? "T" : b.id,
            title: seat
              ? `${seat.user}'s ${owner ? "drone" : "robot"} (seat ${seat.number})${b.team ? `, ${b.team} team` : ""}`
              : b.target ? `Target ${b.id} (the puzzle's, plays its own program)` : `Robot ${b.id}`,
            team: b.team ?? null,
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
        await this.tween(ms, (t) => this.board.poseBot(shape, fx + (tx - fx) * t, fy + (ty - fy) * t, v.angle), change.linear);
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
        if (!v) return;
        if (this.countsLives) v.lives = Math.max(0, v.lives - 1);
        v.damage = 0;
        if (!v.shape) return;
        const shape = v.shape;
        // Off the edge (or into a pit it was not drawn on yet): slide there first.
        if (change.at && (change.at[0] !== v.x || change.at[1] !== v.y)) {
          const fx = v.x, fy = v.y, [tx, ty] = change.at;
          await this.tween(ms / 2, (t) => this.board.poseBot(shape, fx + (tx - fx) * t, fy + (ty - fy) * t, v.angle));
          v.x = tx; v.y = ty;
        }
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
            id: change.bot, kind: "bot", shape: null, x: 0, y: 0, dir: change.dir, angle: 0, virtual: false, lives: 1, damage: 0,
            color: "#888888", label: change.bot, title: `Robot ${change.bot}`,
          };
          this.bots.set(change.bot, v);
        }
        this.removeShape(v);
        v.x = change.at[0]; v.y = change.at[1];
        v.dir = change.dir; v.angle = DIR_ANGLE[change.dir];
        v.virtual = change.virtual;
        v.damage = 0;
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

      case "stats": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        if (change.damage !== undefined) v.damage = change.damage;
        if (change.lives !== undefined) v.lives = change.lives;
        if (change.virtual !== undefined) v.virtual = change.virtual;
        this.writeAttrs(v);
        return;
      }

      default:
        await this.effect(change, ms, gen);
    }
  }

  /** The effects (shots, modules, remains, bubbles): effects.ts. */
  protected async effect(_change: BoardChange, _ms: number, _gen: number): Promise<void> {
    // drawn by EffectLayer
  }

  /** Short text description of the bots for the board's aria-label. */
  describeBots(nameOf: (bot: string) => string): string {
    const parts: string[] = [];
    for (const v of this.bots.values()) {
      if (v.shape) {
        const stats = [this.hasDamage ? (this.hitPoints !== null ? `HP ${Math.max(0, this.hitPoints - v.damage)}/${this.hitPoints}` : `damage ${v.damage}`) : "", this.countsLives ? `${v.lives} lives` : ""].filter(Boolean);
        parts.push(`${nameOf(v.id)} at (${v.x},${v.y}) facing ${v.dir}${stats.map((t) => `, ${t}`).join("")}` +
          (v.virtual ? " (virtual)" : ""));
      }
    }
    return parts.length ? parts.join("; ") : "no robots on the course";
  }
}
