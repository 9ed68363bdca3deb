// Plays board changes. Every change to the board (course, bots, effects) goes through
// Animator.animate(), which keeps each bot's data-x / data-y / data-dir / data-lives / data-damage
// equal to its logical state once the change is done. play(events) turns a turn's engine events
// into changes, group by group (a group = the events of one phase and step, and belt sub-phase),
// honouring pause, single-step, speed and skip.
import { Board, DIR_ANGLE, DIR_STEP, sharedOffsets, type BotShape } from "./board";
import { cardChip, chipLabel } from "./chips";
import { ordinal, upgradeLabel } from "./ruleset";
import { moduleLabel } from "./modules";
import { PlaybackBase } from "./playback";
import type { BotState, Coord, Course, Dir, EngineEvent, Seat } from "./types";
import { asKnownEvent, isCoord, isDir } from "./types";

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

interface BotVisual {
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

/** Steps whose events play one after the other (bot after bot), not all bots at once: 003's chips (in
 * priority order), and roborace's cards (the larger number first) and spaces (in the space_order drawn). */
export const SEQUENTIAL_STEPS: ReadonlySet<string> = new Set(["chips", "cards", "spaces"]);

/** Split a turn's events into the groups played one after the other. */
export function groupEvents(events: EngineEvent[]): EngineEvent[][] {
  const groups: EngineEvent[][] = [];
  let lastKey = "";
  for (const e of events) {
    const sub = (e as Record<string, unknown>).sub;
    const key = `${e.phase}|${e.step}|${typeof sub === "number" ? sub : ""}`;
    if (groups.length && key === lastKey) groups[groups.length - 1].push(e);
    else groups.push([e]);
    lastKey = key;
  }
  return groups;
}

export class Animator extends PlaybackBase {
  /** Called before each group plays: phase, step, index and count (for "Phase 2 · belts"). */
  onGroup: ((phase: number, step: string, index: number, count: number) => void) | null = null;
  /** The ruleset counts lives (ruleset.ts): a destroyed bot loses one. roborace's come back whole. */
  countsLives = true;
  /** The ruleset has damage: the board's description names it. */
  hasDamage = true;
  /** fused: hit points (damage is shown as the hit points left). */
  hitPoints: number | null = null;

  private bots = new Map<string, BotVisual>();

  constructor(private readonly board: Board) {
    super();
  }

  private writeAttrs(v: BotVisual): void {
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
  private layoutShared(): void {
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

  private makeShape(v: BotVisual): void {
    v.shape = v.kind === "bomb" ? this.board.createBomb(v.id, v.color, v.title)
      : this.board.createBot(v.id, v.color, v.label, v.title, v.kind === "drone");
    if (v.team && v.kind !== "bomb") this.board.teamBadge(v.shape, v.team);
    this.board.poseBot(v.shape, v.x, v.y, v.angle);
    this.writeAttrs(v);
  }

  private removeShape(v: BotVisual): void {
    const had = v.shape !== null;
    v.shape?.g.remove();
    v.shape = null;
    if (had) this.layoutShared();
  }

  private fade(el: SVGElement, ms: number, hold = 0.6): Promise<void> {
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

      case "shot": {
        const el = this.board.shot(change.from, change.to, change.dir, change.beams, change.source, change.hit, change.module);
        await this.fade(el, ms, 0.5);
        return;
      }

      case "deploy":
      case "bomb": {
        // A drone: its owner's colour and number, smaller, marked "D"; a bomb: where it lies.
        const owner = this.bots.get(change.owner);
        const old = this.bots.get(change.bot);
        if (old) this.removeShape(old);
        const drone = change.kind === "deploy";
        const v: BotVisual = {
          id: change.bot, kind: drone ? "drone" : "bomb", shape: null, x: change.at[0], y: change.at[1],
          dir: drone ? change.dir : "N", angle: drone ? DIR_ANGLE[change.dir] : 0, virtual: true, lives: 1, damage: 0,
          color: owner?.color ?? "#888888", label: owner?.label ?? "",
          title: `${owner ? owner.title.replace(/'s robot.*$/, "") : change.owner}'s ${drone ? "drone" : "bomb"}`,
        };
        this.bots.set(change.bot, v);
        this.makeShape(v);
        const shape = v.shape;
        if (shape) {
          await this.tween(ms, (t) => {
            this.board.poseBot(shape, v.x, v.y, v.angle, 0.3 + 0.7 * t);
            shape.g.setAttribute("opacity", String(0.5 * t));
          });
        }
        if (gen === this.generation) this.writeAttrs(v);
        return;
      }

      case "blast": {
        const v = this.bots.get(change.bot);
        const el = this.board.blast(change.squares);
        if (v) {
          this.removeShape(v);
          this.bots.delete(change.bot);
        }
        await this.fade(el, ms, 0.4);
        return;
      }

      case "fizzle": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        const shape = v.shape;
        if (shape) {
          await this.tween(ms, (t) => {
            this.board.poseBot(shape, v.x, v.y, v.angle, 1 - 0.7 * t);
            shape.g.setAttribute("opacity", String(0.5 * (1 - t)));
          });
        }
        this.removeShape(v);
        this.bots.delete(change.bot);
        return;
      }

      case "shield": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        await this.fade(this.board.shield(v.x, v.y), ms, 0.4);
        return;
      }

      case "shock": {
        const el = this.board.shock(change.from, change.to);
        const v = this.bots.get(change.target);
        const flash = v ? this.board.flash(v.x, v.y, "damage") : null;
        await Promise.all([this.fade(el, ms, 0.5), flash ? this.fade(flash, ms, 0.3) : Promise.resolve()]);
        return;
      }

      case "store": {
        // A face-down chip rises from the bot and shrinks away: storage, never which chip.
        const v = this.bots.get(change.bot);
        if (!v) return;
        const el = this.board.storedChip(v.x, v.y);
        const cx = v.x * 100 + 50, cy = v.y * 100 + 50;
        await this.tween(ms, (t) => {
          el.setAttribute("transform", `translate(${cx} ${(cy - 60 * t).toFixed(1)}) scale(${(1 - 0.6 * t).toFixed(3)})`);
          el.setAttribute("opacity", String(t < 0.7 ? 1 : (1 - t) / 0.3));
        });
        el.remove();
        return;
      }

      case "flash": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        const el = this.board.flash(v.x, v.y, change.tone);
        await this.fade(el, ms, 0.3);
        return;
      }

      case "radiation":
        this.board.radiation(change.at);
        return;

      case "remains":
        this.board.setRemains(change.squares);
        return;

      case "remains_drop": {
        // The pieces fly out from the point of death to their squares.
        const [fx, fy] = change.from;
        const pieces = change.squares.map((at) => ({ at, el: this.board.addRemains(at) }));
        await this.tween(ms, (t) => {
          for (const { at, el } of pieces) {
            const x = (fx + (at[0] - fx) * t) * 100, y = (fy + (at[1] - fy) * t) * 100;
            el.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
          }
        });
        return;
      }

      case "remains_move": {
        const el = this.board.remainsAt(change.from)[0];
        if (!el) return;
        const [fx, fy] = change.from, [tx, ty] = change.to;
        el.setAttribute("data-at", `${tx},${ty}`);
        await this.tween(ms, (t) => {
          el.setAttribute("transform", `translate(${((fx + (tx - fx) * t) * 100).toFixed(1)} ${((fy + (ty - fy) * t) * 100).toFixed(1)})`);
        }, true);
        return;
      }

      case "remains_take": {
        // Collected, lost in a hole or merged away: that many pieces on the square fade and shrink.
        const els = this.board.remainsAt(change.at).slice(0, Math.max(1, change.pieces));
        const [x, y] = change.at;
        await this.tween(ms, (t) => {
          for (const el of els) {
            el.setAttribute("transform", `translate(${x * 100 + 50 * t} ${y * 100 + 50 * t}) scale(${(1 - t).toFixed(3)})`);
          }
        });
        for (const el of els) el.remove();
        return;
      }

      case "bubble": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        const el = this.board.bubble(v.x, v.y, change.text, change.tone);
        await this.fade(el, ms, 0.7);
        return;
      }
    }
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

  /**
   * Play a turn's engine events group by group. In a "chips" group (and roborace's "cards" and "spaces") the
   * bots act one after the other (the events are in the order they acted); in other groups (belts, pushers, lasers, ...) all bots at
   * once, each bot's own events in order. Resolves true when finished, false when cancelled.
   */
  async play(events: EngineEvent[], onEvent: (e: EngineEvent) => void): Promise<boolean> {
    const gen = this.begin();
    try {
      // Let the browser lay out and paint the turn's starting state in a task of its own.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const groups = groupEvents(events);
      for (let i = 0; i < groups.length; i++) {
        const group = groups[i];
        await this.gate(gen);
        if (gen !== this.generation) return false;
        this.onGroup?.(group[0].phase, group[0].step, i, groups.length);
        if (SEQUENTIAL_STEPS.has(group[0].step)) {
          for (const e of group) {
            if (gen !== this.generation) return false;
            await this.playEvent(e, onEvent);
          }
        } else {
          const chains = new Map<string, EngineEvent[]>();
          for (const e of group) {
            const key = typeof e.bot === "string" ? e.bot : `#${chains.size}`;
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
      this.end(gen);
    }
  }

  private async playEvent(e: EngineEvent, onEvent: (e: EngineEvent) => void): Promise<void> {
    onEvent(e);
    if (e.type.startsWith("remains_")) return this.playRemainsEvent(e);
    if (ELEMENT_EVENTS.has(e.type)) return this.playElementEvent(e);
    if (MODULE_EVENTS.has(e.type)) return this.playModuleEvent(e);
    const mod = (e as Record<string, unknown>).module;
    if ((e.type === "moved" || e.type === "pushed") && (mod === "turbo" || mod === "crab_legs") && typeof e.bot === "string") {
      // The Turbo's extra square, a crab step sideways: named, then played as a move.
      void this.animate({ kind: "bubble", bot: e.bot, text: mod === "turbo" ? "Turbo!" : "Crab walk", tone: "info" }, this.duration(1.6));
    }
    const said = rulesetEventText(e);
    if (said && typeof e.bot === "string") {
      return this.animate({ kind: "bubble", bot: e.bot, text: said, tone: e.type === "register_fused" || e.type === "upgrade_lost" ? "damage" : "info" }, this.duration(2));
    }
    const k = asKnownEvent(e);
    if (!k) return; // unknown or malformed: skipped on the board (it still shows in the turn log)
    switch (k.type) {
      case "chip":
        // Show the chip for a while, but hold the sequence only briefly.
        // A numbered card's number comes with the event: "Move 2 · 70".
        void this.animate({
          kind: "bubble", bot: k.bot, tone: "chip",
          text: chipLabel(typeof k.number === "number" ? `${cardChip(k.chip)}@${k.number}` : k.chip),
        }, this.duration(2.5));
        return this.wait(this.duration(0.6));
      case "moved":
      case "pushed":
        return this.animate({ kind: "move", bot: k.bot, to: k.to }, this.duration(1));
      case "carried":
        return this.animate({ kind: "move", bot: k.bot, to: k.to, linear: true }, this.duration(0.8));
      case "rotated":
        return this.animate({ kind: "rotate", bot: k.bot, to: k.to }, this.duration(0.9));
      case "blocked":
        return this.animate({ kind: "bump", bot: k.bot, dir: k.dir }, this.duration(0.8));
      case "shot":
        return this.animate({
          kind: "shot", from: k.from, to: k.to, dir: isDir(k.dir) ? k.dir : null, beams: Number(k.beams) || 1,
          source: String(k.source ?? "laser"), hit: typeof k.target === "string",
          module: typeof mod === "string" ? mod : undefined,
        }, this.duration(1.2));
      case "damaged":
        await this.animate({ kind: "stats", bot: k.bot, damage: k.damage }, 0);
        void this.animate({
          kind: "bubble", bot: k.bot, tone: "damage",
          text: this.hitPoints !== null ? `−${k.amount} HP → ${Math.max(0, this.hitPoints - k.damage)}` : `−${k.amount} → ${k.damage} damage`,
        }, this.duration(2.5));
        return this.animate({ kind: "flash", bot: k.bot, tone: "damage" }, this.duration(1));
      case "repaired":
        await this.animate({ kind: "stats", bot: k.bot, damage: k.damage }, 0);
        void this.animate({ kind: "bubble", bot: k.bot, text: `+${k.amount} repaired`, tone: "good" }, this.duration(2.5));
        return this.animate({ kind: "flash", bot: k.bot, tone: "repair" }, this.duration(1));
      case "destroyed":
        return this.animate({ kind: "destroy", bot: k.bot, at: k.at ?? null }, this.duration(1.5));
      case "checkpoint":
        return this.animate({ kind: "bubble", bot: k.bot, text: `✓ Check point ${k.number}`, tone: "good" }, this.duration(2));
      case "respawned":
        return this.animate({ kind: "respawn", bot: k.bot, at: k.at, dir: k.dir, virtual: k.virtual !== false }, this.duration(1.2));
      case "real":
        await this.animate({ kind: "stats", bot: k.bot, virtual: false }, 0);
        return this.animate({ kind: "flash", bot: k.bot, tone: "info" }, this.duration(0.8));
      case "radiation":
        return this.animate({ kind: "radiation", at: k.at }, 0);
      case "rebooting":
        return this.animate({ kind: "bubble", bot: k.bot, text: "Rebooting", tone: "info" }, this.duration(2));
      case "reboot_refused":
        return this.animate({ kind: "bubble", bot: k.bot, text: "Reboot refused: radiation", tone: "damage" }, this.duration(2));
      case "winner":
        return this.animate({ kind: "bubble", bot: k.bot, text: "🏆 Winner!", tone: "good" }, this.duration(3));
      case "priority":
        return; // the status panel reorders; nothing moves on the board
    }
  }

  /** Arena remains (docs/formats.md "Arena remains"): dropped around a dead bot, moved by elements, collected
   * (with the repair and battery shown on the bot), lost in a hole, merged at the end of a phase. */
  private async playRemainsEvent(e: EngineEvent): Promise<void> {
    const r = e as Record<string, unknown>;
    const bot = typeof r.bot === "string" ? r.bot : null;
    switch (e.type) {
      case "remains_dropped": {
        const squares = Array.isArray(r.squares) ? r.squares.filter(isCoord) : [];
        const from = isCoord(r.at) ? r.at : squares[0];
        if (!from) return;
        return this.animate({ kind: "remains_drop", from, squares }, this.duration(1));
      }
      case "remains_moved":
        if (!isCoord(r.from) || !isCoord(r.to)) return;
        return this.animate({ kind: "remains_move", from: r.from, to: r.to }, this.duration(0.8));
      case "remains_collected": {
        if (!isCoord(r.at)) return;
        const pieces = Number(r.pieces) || 1;
        if (bot && typeof r.damage === "number") await this.animate({ kind: "stats", bot, damage: r.damage }, 0);
        if (bot) {
          const repaired = Number(r.repaired) || 0;
          void this.animate({ kind: "bubble", bot, text: `Remains: ${repaired ? `+${repaired} repaired, ` : ""}+${Number(r.battery) || 100 * pieces} battery`, tone: "good" }, this.duration(2.5));
        }
        return this.animate({ kind: "remains_take", at: r.at, bot, pieces }, this.duration(0.8));
      }
      case "remains_lost":
        if (!isCoord(r.at)) return;
        return this.animate({ kind: "remains_take", at: r.at, bot: null, pieces: 1 }, this.duration(0.8));
      case "remains_merged":
        if (!isCoord(r.at)) return;
        return this.animate({ kind: "remains_take", at: r.at, bot: null, pieces: (Number(r.pieces) || 2) - 1 }, this.duration(0.5));
      default:
        return;
    }
  }

  /** The bot modules' own events (docs/formats.md "Bot modules"): the module menu's actions at the start of
   * the turn, drones and bombs, shields, reflectors, shocks, the Blaster's recoil, storage. */
  private async playModuleEvent(e: EngineEvent): Promise<void> {
    const r = e as Record<string, unknown>;
    const bot = typeof r.bot === "string" ? r.bot : null;
    if (!bot) return;
    const name = moduleLabel(r.module);
    const bubble = (text: string, tone: "chip" | "damage" | "good" | "info" = "info", factor = 2): Promise<void> =>
      this.animate({ kind: "bubble", bot, text, tone }, this.duration(factor));
    switch (e.type) {
      case "module_installed": return bubble(`Installed ${name}`);
      case "module_charged":
        return bubble(`${name} +${String(r.charges)} charge${r.charges === 1 ? "" : "s"} (${String(r.price_paid)})`, "good");
      case "module_charge_refused": return bubble(`${name}: charge refused (battery)`, "damage");
      case "module_activated": {
        const phases = Array.isArray(r.phases) && r.phases.length < 5 ? ` · phase ${r.phases.join("-")}` : "";
        const extra = r.aim ? ` · ${r.front ? "front & " : ""}${({ L: "left", R: "right", B: "back" } as Record<string, string>)[String(r.aim)] ?? ""}`
          : r.order ? ` · ${String(r.order)}` : "";
        await this.animate({ kind: "flash", bot, tone: "info" }, this.duration(0.6));
        return bubble(`${name}${phases}${extra}`, "info", 2);
      }
      case "module_charge_used": return bubble(`${name}: charge used`, "info", 1.5);
      case "stored_chip_played": return bubble("Stored chip", "chip", 1.5);
      case "chip_stored":
        void bubble(r.replaced ? "Chip stored (old one discarded)" : "Chip stored", "info", 2);
        return this.animate({ kind: "store", bot }, this.duration(1.2));
      case "chip_transformed":
        // Turbo and Crab Legs say so on their square ("Turbo!", "Crab walk"); a reversed chip says it here.
        if (r.module === "reverse") return bubble("Reversed", "info", 1.2);
        return;
      case "clamped": return bubble("Clamped", "info", 1.2);
      case "drone_deployed":
        if (!isCoord(r.at) || typeof r.owner !== "string") return;
        void this.animate({ kind: "bubble", bot: r.owner, text: "Drone deployed", tone: "info" }, this.duration(2));
        return this.animate({ kind: "deploy", bot, owner: r.owner, at: r.at, dir: isDir(r.dir) ? r.dir : "N" }, this.duration(1.2));
      case "bomb_dropped":
        if (!isCoord(r.at) || typeof r.owner !== "string") return;
        return this.animate({ kind: "bomb", bot, owner: r.owner, at: r.at }, this.duration(1));
      case "bomb_exploded": {
        const squares = Array.isArray(r.squares) ? r.squares.filter(isCoord) : isCoord(r.at) ? [r.at] : [];
        return this.animate({ kind: "blast", bot, squares }, this.duration(1.6));
      }
      case "bomb_destroyed": return this.animate({ kind: "fizzle", bot }, this.duration(1));
      case "shielded":
        void bubble("Shielded", "good", 1.6);
        return this.animate({ kind: "shield", bot }, this.duration(1.2));
      case "reflected": {
        if (!isCoord(r.at)) return bubble("Reflected", "info", 1.6);
        void bubble("Reflected!", "info", 1.6);
        if (isCoord(r.to)) {
          return this.animate({
            kind: "shot", from: r.at, to: r.to, dir: isDir(r.dir) ? r.dir : null, beams: 1, source: "bot", hit: true,
            module: "reflector",
          }, this.duration(1.2));
        }
        return this.animate({ kind: "shield", bot }, this.duration(1));
      }
      case "pushed_back": return bubble("Recoil", "info", 1.2);
      case "shocked":
        if (!isCoord(r.from) || !isCoord(r.to) || typeof r.target !== "string") return;
        void this.animate({ kind: "bubble", bot: r.target, text: "Shock!", tone: "damage" }, this.duration(1.6));
        return this.animate({ kind: "shock", from: r.from, to: r.to, target: r.target }, this.duration(1));
      default:
        return;
    }
  }

  /** The events of issue 6's elements. What the elements remember (a broken tile, a downed force field, a
   * revealed teleporter number) is redrawn from the board in the next snapshot (Board.markBoard). */
  private async playElementEvent(e: EngineEvent): Promise<void> {
    const r = e as Record<string, unknown>;
    const bot = typeof r.bot === "string" ? r.bot : null;
    switch (e.type) {
      case "slid":
        if (bot && isCoord(r.to)) return this.animate({ kind: "move", bot, to: r.to, linear: true }, this.duration(0.6));
        return;
      case "teleported":
        if (!bot || !isCoord(r.to)) return;
        await this.animate({ kind: "flash", bot, tone: "info" }, this.duration(0.4));
        await this.animate({ kind: "move", bot, to: r.to }, this.duration(0.25));
        void this.animate({ kind: "bubble", bot, text: `Teleported (${String(r.series ?? "?")} → ${String(r.destination ?? "?")})`, tone: "info" }, this.duration(2));
        return this.animate({ kind: "flash", bot, tone: "info" }, this.duration(0.4));
      case "landed":
        if (bot) return this.animate({ kind: "bubble", bot, text: "Landed", tone: "info" }, this.duration(1.2));
        return;
      case "virtual":
        if (!bot) return;
        await this.animate({ kind: "stats", bot, virtual: true }, 0);
        return this.animate({ kind: "flash", bot, tone: "info" }, this.duration(0.8));
      case "mirror_broken":
        if (bot) return this.animate({ kind: "bubble", bot, text: "Mirror broken: Bad Luck next turn", tone: "damage" }, this.duration(2));
        return;
      default:
        return; // tile_broken, receptacle_filled, field_*: shown by the board after the turn
    }
  }
}

const ELEMENT_EVENTS = new Set([
  "slid", "landed", "teleported", "virtual", "tile_broken", "receptacle_filled", "field_damaged", "field_down",
  "field_up", "mirror_broken",
]);

/** The bot modules' events (issue 14/15), played by playModuleEvent. */
const MODULE_EVENTS = new Set([
  "module_installed", "module_charged", "module_charge_refused", "module_activated", "module_charge_used",
  "stored_chip_played", "chip_stored", "chip_transformed", "clamped", "drone_deployed", "bomb_dropped",
  "bomb_exploded", "bomb_destroyed", "shielded", "reflected", "pushed_back", "shocked",
]);

/** The fused and classic events a robot's square names in a bubble ("Register 3 fused", "Powered down"). */
export function rulesetEventText(e: EngineEvent): string | null {
  const r = e as Record<string, unknown>;
  switch (e.type) {
    case "register_fused": return `Register ${String(r.register)} fused`;
    case "reboot_next": return "Reboots next turn";
    case "reinstate_point": return "Reinstate point";
    case "powered_down": return "Powered down";
    case "archived": return "Archive marker";
    case "finished": return `Finished ${ordinal(Number(r.place))}`;
    case "upgraded": return `Upgrade: ${upgradeLabel(r.upgrade)}`;
    case "upgrade_lost": return `Lost ${upgradeLabel(r.upgrade)}`;
    case "scrambled": return `Register ${String(r.register)} scrambled`;
    case "circuit_breaker": return "Circuit breaker";
    case "absorbed": return `${upgradeLabel(r.upgrade)} absorbed ${String(r.amount ?? 1)}`;
    case "beam": return upgradeLabel(r.upgrade);
    default: return null;
  }
}
