// Plays a turn. Every change to the board (course, bots, effects) goes through Animator.animate()
// (bots.ts BotLayer, effects.ts EffectLayer), which keeps each bot's data-x / data-y / data-dir / data-lives /
// data-damage equal to its logical state once the change is done. play(events) turns a turn's engine events
// into changes, group by group (a group = the events of one phase and step, and belt sub-phase),
// honouring pause, single-step, speed and skip.
import { cardChip, chipLabel } from "./chips";
import { ordinal, upgradeLabel } from "./ruleset";
import { moduleLabel } from "./modules";
import type { EngineEvent } from "./types";
import { asKnownEvent, isCoord, isDir } from "./types";

import { EffectLayer } from "./effects";
import { eventMs, timing } from "./timing";
export type { BoardChange, Speed } from "./bots";

/** Whether a step's events play one after the other (bot after bot), not all bots at once: 003's chips (in
 * priority order), and roborace's cards (the larger number first) and spaces (in the space_order drawn): the
 * timing table's `sequential_steps`. */
export function sequentialStep(step: string): boolean {
  return timing().sequential_steps.includes(step);
}

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

export class Animator extends EffectLayer {
  /** Called before each group plays: phase, step, index and count (for "Phase 2 · belts"). */
  onGroup: ((phase: number, step: string, index: number, count: number) => void) | null = null;
  /** How long the last turn played to its end took (ms; the browser test compares it with the server's figure). */
  playedMs: number | null = null;

  /**
   * Play a turn's engine events group by group. In a "chips" group (and roborace's "cards" and "spaces") the
   * bots act one after the other (the events are in the order they acted); in other groups (belts, pushers, lasers, ...) all bots at
   * once, each bot's own events in order. Resolves true when finished, false when cancelled.
   */
  async play(events: EngineEvent[], onEvent: (e: EngineEvent) => void): Promise<boolean> {
    const gen = this.begin();
    this.playedMs = null;
    try {
      // Let the browser lay out and paint the turn's starting state in a task of its own.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const started = performance.now();
      const groups = groupEvents(events);
      for (let i = 0; i < groups.length; i++) {
        const group = groups[i];
        await this.gate(gen);
        if (gen !== this.generation) return false;
        this.onGroup?.(group[0].phase, group[0].step, i, groups.length);
        if (sequentialStep(group[0].step)) {
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
      if (gen !== this.generation) return false;
      this.playedMs = performance.now() - started;
      return true;
    } finally {
      this.end(gen);
    }
  }

  /** How long `e` holds its robot's chain at the chosen speed (the timing table's time; `share` of it). */
  private held(e: EngineEvent, share = 1): number {
    return this.atSpeed(eventMs(e.type) * share);
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
      return this.animate({ kind: "bubble", bot: e.bot, text: said, tone: e.type === "register_fused" || e.type === "upgrade_lost" ? "damage" : "info" }, this.held(e));
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
        return this.wait(this.held(e));
      case "moved":
      case "pushed":
        return this.animate({ kind: "move", bot: k.bot, to: k.to }, this.held(e));
      case "carried":
        return this.animate({ kind: "move", bot: k.bot, to: k.to, linear: true }, this.held(e));
      case "rotated":
        return this.animate({ kind: "rotate", bot: k.bot, to: k.to }, this.held(e));
      case "blocked":
        return this.animate({ kind: "bump", bot: k.bot, dir: k.dir }, this.held(e));
      case "shot":
        return this.animate({
          kind: "shot", from: k.from, to: k.to, dir: isDir(k.dir) ? k.dir : null, beams: Number(k.beams) || 1,
          source: String(k.source ?? "laser"), hit: typeof k.target === "string",
          module: typeof mod === "string" ? mod : undefined,
        }, this.held(e));
      case "damaged":
        await this.animate({ kind: "stats", bot: k.bot, damage: k.damage }, 0);
        void this.animate({
          kind: "bubble", bot: k.bot, tone: "damage",
          text: this.hitPoints !== null ? `−${k.amount} HP → ${Math.max(0, this.hitPoints - k.damage)}` : `−${k.amount} → ${k.damage} damage`,
        }, this.duration(2.5));
        return this.animate({ kind: "flash", bot: k.bot, tone: "damage" }, this.held(e));
      case "repaired":
        await this.animate({ kind: "stats", bot: k.bot, damage: k.damage }, 0);
        void this.animate({ kind: "bubble", bot: k.bot, text: `+${k.amount} repaired`, tone: "good" }, this.duration(2.5));
        return this.animate({ kind: "flash", bot: k.bot, tone: "repair" }, this.held(e));
      case "destroyed":
        return this.animate({ kind: "destroy", bot: k.bot, at: k.at ?? null }, this.held(e));
      case "checkpoint":
        return this.animate({ kind: "bubble", bot: k.bot, text: `✓ Check point ${k.number}`, tone: "good" }, this.held(e));
      case "respawned":
        return this.animate({ kind: "respawn", bot: k.bot, at: k.at, dir: k.dir, virtual: k.virtual !== false }, this.held(e));
      case "real":
        await this.animate({ kind: "stats", bot: k.bot, virtual: false }, 0);
        return this.animate({ kind: "flash", bot: k.bot, tone: "info" }, this.held(e));
      case "radiation":
        return this.animate({ kind: "radiation", at: k.at }, 0);
      case "rebooting":
        return this.animate({ kind: "bubble", bot: k.bot, text: "Rebooting", tone: "info" }, this.held(e));
      case "reboot_refused":
        return this.animate({ kind: "bubble", bot: k.bot, text: "Reboot refused: radiation", tone: "damage" }, this.held(e));
      case "winner":
        return this.animate({ kind: "bubble", bot: k.bot, text: "🏆 Winner!", tone: "good" }, this.held(e));
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
        return this.animate({ kind: "remains_drop", from, squares }, this.held(e));
      }
      case "remains_moved":
        if (!isCoord(r.from) || !isCoord(r.to)) return;
        return this.animate({ kind: "remains_move", from: r.from, to: r.to }, this.held(e));
      case "remains_collected": {
        if (!isCoord(r.at)) return;
        const pieces = Number(r.pieces) || 1;
        if (bot && typeof r.damage === "number") await this.animate({ kind: "stats", bot, damage: r.damage }, 0);
        if (bot) {
          const repaired = Number(r.repaired) || 0;
          void this.animate({ kind: "bubble", bot, text: `Remains: ${repaired ? `+${repaired} repaired, ` : ""}+${Number(r.battery) || 100 * pieces} battery`, tone: "good" }, this.duration(2.5));
        }
        return this.animate({ kind: "remains_take", at: r.at, bot, pieces }, this.held(e));
      }
      case "remains_lost":
        if (!isCoord(r.at)) return;
        return this.animate({ kind: "remains_take", at: r.at, bot: null, pieces: 1 }, this.held(e));
      case "remains_merged":
        if (!isCoord(r.at)) return;
        return this.animate({ kind: "remains_take", at: r.at, bot: null, pieces: (Number(r.pieces) || 2) - 1 }, this.held(e));
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
    // A bubble that holds the robot's chain for the event's time in the timing table.
    const said = (text: string, tone: "chip" | "damage" | "good" | "info" = "info"): Promise<void> =>
      this.animate({ kind: "bubble", bot, text, tone }, this.held(e));
    switch (e.type) {
      case "module_installed": return said(`Installed ${name}`);
      case "module_charged":
        return said(`${name} +${String(r.charges)} charge${r.charges === 1 ? "" : "s"} (${String(r.price_paid)})`, "good");
      case "module_charge_refused": return said(`${name}: charge refused (battery)`, "damage");
      case "module_activated": {
        const phases = Array.isArray(r.phases) && r.phases.length < 5 ? ` · phase ${r.phases.join("-")}` : "";
        const extra = r.aim ? ` · ${r.front ? "front & " : ""}${({ L: "left", R: "right", B: "back" } as Record<string, string>)[String(r.aim)] ?? ""}`
          : r.order ? ` · ${String(r.order)}` : "";
        await this.animate({ kind: "flash", bot, tone: "info" }, this.held(e, 0.6 / 2.6));
        return this.animate({ kind: "bubble", bot, text: `${name}${phases}${extra}`, tone: "info" }, this.held(e, 2 / 2.6));
      }
      case "module_charge_used": return said(`${name}: charge used`);
      case "stored_chip_played": return said("Stored chip", "chip");
      case "chip_stored":
        void bubble(r.replaced ? "Chip stored (old one discarded)" : "Chip stored", "info", 2);
        return this.animate({ kind: "store", bot }, this.held(e));
      case "chip_transformed":
        // Turbo and Crab Legs say so again on their square ("Turbo!", "Crab walk"); a reversed chip says it here.
        return said(r.module === "reverse" ? "Reversed" : name);
      case "clamped": return said("Clamped");
      case "drone_deployed":
        if (!isCoord(r.at) || typeof r.owner !== "string") return;
        void this.animate({ kind: "bubble", bot: r.owner, text: "Drone deployed", tone: "info" }, this.duration(2));
        return this.animate({ kind: "deploy", bot, owner: r.owner, at: r.at, dir: isDir(r.dir) ? r.dir : "N" }, this.held(e));
      case "bomb_dropped":
        if (!isCoord(r.at) || typeof r.owner !== "string") return;
        return this.animate({ kind: "bomb", bot, owner: r.owner, at: r.at }, this.held(e));
      case "bomb_exploded": {
        const squares = Array.isArray(r.squares) ? r.squares.filter(isCoord) : isCoord(r.at) ? [r.at] : [];
        return this.animate({ kind: "blast", bot, squares }, this.held(e));
      }
      case "bomb_destroyed": return this.animate({ kind: "fizzle", bot }, this.held(e));
      case "shielded":
        void bubble("Shielded", "good", 1.6);
        return this.animate({ kind: "shield", bot }, this.held(e));
      case "reflected": {
        if (!isCoord(r.at)) return said("Reflected");
        void bubble("Reflected!", "info", 1.6);
        if (isCoord(r.to)) {
          return this.animate({
            kind: "shot", from: r.at, to: r.to, dir: isDir(r.dir) ? r.dir : null, beams: 1, source: "bot", hit: true,
            module: "reflector",
          }, this.held(e));
        }
        return this.animate({ kind: "shield", bot }, this.held(e));
      }
      case "pushed_back": return said("Recoil");
      case "shocked":
        if (!isCoord(r.from) || !isCoord(r.to) || typeof r.target !== "string") return;
        void this.animate({ kind: "bubble", bot: r.target, text: "Shock!", tone: "damage" }, this.duration(1.6));
        return this.animate({ kind: "shock", from: r.from, to: r.to, target: r.target }, this.held(e));
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
        if (bot && isCoord(r.to)) return this.animate({ kind: "move", bot, to: r.to, linear: true }, this.held(e));
        return;
      case "teleported":
        if (!bot || !isCoord(r.to)) return;
        await this.animate({ kind: "flash", bot, tone: "info" }, this.held(e, 0.4 / 1.05));
        await this.animate({ kind: "move", bot, to: r.to }, this.held(e, 0.25 / 1.05));
        void this.animate({ kind: "bubble", bot, text: `Teleported (${String(r.series ?? "?")} → ${String(r.destination ?? "?")})`, tone: "info" }, this.duration(2));
        return this.animate({ kind: "flash", bot, tone: "info" }, this.held(e, 0.4 / 1.05));
      case "landed":
        if (bot) return this.animate({ kind: "bubble", bot, text: "Landed", tone: "info" }, this.held(e));
        return;
      case "virtual":
        if (!bot) return;
        await this.animate({ kind: "stats", bot, virtual: true }, 0);
        return this.animate({ kind: "flash", bot, tone: "info" }, this.held(e));
      case "mirror_broken":
        if (bot) return this.animate({ kind: "bubble", bot, text: "Mirror broken: Bad Luck next turn", tone: "damage" }, this.held(e));
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
