// What an engine event does to the bots' public state, and what the board highlights because of it.
// Pure functions over plain data: the animator, the status panel and the tests use the same ones.
import type { BotState, EngineEvent } from "./types";
import { isCoord, isDir } from "./types";

export type Bots = Map<string, BotState>;

export function cloneBots(bots: Iterable<BotState>): Bots {
  const out: Bots = new Map();
  for (const b of bots) {
    const id = String(b.id);
    out.set(id, { ...b, id, at: b.at ? [b.at[0], b.at[1]] : null });
  }
  return out;
}

/** Apply one event to `bots` (in place). Returns true when anything visible in the panel changed.
 * `countsLives` false (roborace): a destroyed bot keeps its lives; it comes back at the end of the round. */
export function applyEvent(bots: Bots, e: EngineEvent, countsLives = true): boolean {
  const r = e as Record<string, unknown>;
  if (e.type === "drone_deployed" && typeof r.bot === "string" && typeof r.owner === "string" && isCoord(r.at)) {
    // 003 "Drone": a virtual bot on the owner's square, facing the other way; it shares the owner's next check point.
    const owner = bots.get(r.owner);
    bots.set(r.bot, {
      id: r.bot, at: [r.at[0], r.at[1]], dir: isDir(r.dir) ? r.dir : "N", damage: 0, lives: 1,
      next_checkpoint: owner?.next_checkpoint ?? 1, virtual: true, drone_of: r.owner, battery: 0, module: null,
    });
    return true;
  }
  const bot = typeof r.bot === "string" ? bots.get(r.bot) : undefined;
  if (!bot) return false;
  switch (e.type) {
    case "module_installed":
      if (typeof r.module === "string") bot.module = { type: r.module, charges: 0 };
      return true;
    case "module_charged":
      if (bot.module && typeof r.charges === "number") bot.module = { ...bot.module, charges: bot.module.charges + r.charges };
      if (typeof bot.battery === "number" && typeof r.price_paid === "number") bot.battery = Math.max(0, bot.battery - r.price_paid);
      return true;
    case "module_activated":
      // The Scanner's charge is taken at the start of the next turn (module_charge_used).
      if (bot.module && r.module !== "scanner") bot.module = { ...bot.module, charges: Math.max(0, bot.module.charges - 1) };
      return true;
    case "module_charge_used":
      if (bot.module && typeof r.charges === "number") bot.module = { ...bot.module, charges: r.charges };
      return true;
    case "moved":
    case "pushed":
    case "carried":
      if (isCoord(r.to)) bot.at = [r.to[0], r.to[1]];
      return false;
    case "rotated":
      if (isDir(r.to)) bot.dir = r.to;
      return false;
    case "damaged":
    case "repaired":
      if (typeof r.damage === "number") bot.damage = r.damage;
      return true;
    case "destroyed":
      bot.at = null;
      if (countsLives) bot.lives = Math.max(0, bot.lives - 1);
      bot.damage = 0;
      return true;
    case "checkpoint":
      if (typeof r.number === "number") bot.next_checkpoint = r.number + 1;
      return true;
    case "respawned":
      if (isCoord(r.at)) bot.at = [r.at[0], r.at[1]];
      if (isDir(r.dir)) bot.dir = r.dir;
      bot.virtual = r.virtual !== false;
      return true;
    case "real":
      bot.virtual = false;
      return true;
    case "rebooting":
      bot.rebooting = true;
      return true;
    default:
      return false;
  }
}

/** The game's prices after an event: a `module_charged` event carries every available module's new price. */
export function pricesAfter(prices: Record<string, number>, e: EngineEvent): Record<string, number> {
  const r = e as Record<string, unknown>;
  if (e.type !== "module_charged" || !r.prices || typeof r.prices !== "object") return prices;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.prices as Record<string, unknown>)) if (typeof v === "number") out[k] = v;
  return out;
}

/**
 * The check point numbers the board colours (003 "Check Point" numbering): green is the viewer's
 * next check point, black the leading opponent's next one, red all others. The leading opponent is
 * the opponent still in the game with the highest next check point; ties go to the earlier priority.
 */
export function checkpointMarks(
  bots: Iterable<BotState>, myBot: string | null, priority: string[],
): { mine: number | null; leader: number | null } {
  let mine: number | null = null;
  let best: BotState | null = null;
  const rank = (id: string): number => {
    const i = priority.indexOf(id);
    return i < 0 ? 1e6 : i;
  };
  for (const b of bots) {
    if (b.drone_of) continue; // a drone shares its owner's next check point
    if (myBot !== null && b.id === myBot) {
      mine = b.lives > 0 ? b.next_checkpoint : null;
      continue;
    }
    if (b.lives <= 0) continue;
    if (!best || b.next_checkpoint > best.next_checkpoint ||
      (b.next_checkpoint === best.next_checkpoint && rank(b.id) < rank(best.id))) best = b;
  }
  return { mine, leader: best ? best.next_checkpoint : null };
}
