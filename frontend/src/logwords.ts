// The turn log's words (log.ts): every engine event of a turn in plain words, for the log's cells and the
// panel's notes. Pure, unit-tested through log.ts (tests/log.test.ts).
import { isComputer } from "./computers";
import type { EngineEvent, Snapshot } from "./types";
import { moduleLabel } from "./modules";
import { playedText } from "./chips";
import { damageValue, ordinal, upgradeLabel, type Rules } from "./ruleset";

// Players see no coordinates on the board, so the log speaks in plain words: "moved 2 squares north",
// "fell into a pit", "turned right (belt)" — never "(1,7)→(1,5)" or "destroyed (edge) at (-1,7)".

const HEADINGS: Record<string, string> = { N: "north", E: "east", S: "south", W: "west" };

export function heading(d: unknown): string {
  return HEADINGS[String(d)] ?? String(d);
}

function squares(n: number): string {
  return `${n} square${n === 1 ? "" : "s"}`;
}

/** A run of squares as a distance: "2 squares north", "1 square east", "2 squares north and 1 east". North is -y. */
export function distanceText(dx: number, dy: number): string {
  const ns = dy === 0 ? "" : `${Math.abs(dy)} ${dy < 0 ? "north" : "south"}`;
  const ew = dx === 0 ? "" : `${Math.abs(dx)} ${dx > 0 ? "east" : "west"}`;
  if (ns && ew) return `${squares(Math.abs(dy))} ${dy < 0 ? "north" : "south"} and ${ew}`;
  if (ns) return `${squares(Math.abs(dy))} ${dy < 0 ? "north" : "south"}`;
  if (ew) return `${squares(Math.abs(dx))} ${dx > 0 ? "east" : "west"}`;
  return "0 squares";
}

/** A movement cell's run: "moved 2 squares north", "carried 1 square east by a belt", "pushed … by Ada". */
export function moveText(kind: "moved" | "carried" | "pushed" | "slid", dx: number, dy: number, by = ""): string {
  const d = distanceText(dx, dy);
  switch (kind) {
    case "carried": return `carried ${d} by a belt`;
    case "pushed": return `pushed ${d}${by ? ` by ${by}` : ""}`;
    case "slid": return `slid ${d} on oil`;
    default: return `moved ${d}`;
  }
}

const DESTROYED: Record<string, string> = {
  pit: "fell into a pit", edge: "fell off the board", laser: "destroyed by a laser", blaster: "destroyed by a blaster",
  "bot laser": "destroyed by a robot's laser", crusher: "crushed", "virtual burn": "burnt out while virtual",
  screen: "fell through a screen", trapdoor: "fell through a trapdoor", receptacle: "fell into a receptacle",
  shocker: "destroyed by a shocker", vent: "destroyed by a vent", portal: "destroyed in a portal",
  force_field: "destroyed by a force field",
};

/** A `destroyed` event's cause (docs/formats.md) in plain words; "destroyed" when unknown. */
export function destroyedText(cause: unknown): string {
  return DESTROYED[String(cause)] ?? "destroyed";
}

/** A `rotated` event: "turned right", "turned left", "turned around", with what turned it unless a chip did. */
export function turnText(from: unknown, to: unknown, cause: unknown): string {
  const order = ["N", "E", "S", "W"];
  const a = order.indexOf(String(from)), b = order.indexOf(String(to));
  const way = a < 0 || b < 0 || a === b ? `to face ${heading(to)}` : ["", "right", "around", "left"][(b - a + 4) % 4];
  const by = cause && cause !== "chip" ? ` (${String(cause)})` : "";
  return `turned ${way}${by}`;
}

const BLOCKERS: Record<string, string> = {
  wall: "a wall", bot: "a robot", one_way_wall: "a one-way wall", sliding_wall: "a sliding wall", window: "a window",
  fence: "the electric fence", pusher: "a pusher",
  shocker: "a shocker", portal: "a portal", force_field: "a force field", mirror: "a mirror", magnet: "a magnet",
};

export function blockedText(dir: unknown, by: unknown): string {
  return `blocked by ${BLOCKERS[String(by ?? "wall")] ?? String(by)} going ${heading(dir)}`;
}

/** Damage causes in words: "electric fence", "robot laser". */
const CAUSES: Record<string, string> = { fence: "electric fence", "bot laser": "robot laser", laser: "laser" };

/** A `damaged` event's line: "+1 laser (now 3)"; fused "−1 HP electric fence (now HP 9/10)"; classic "(now 3/22)". */
export function damagedText(rules: Pick<Rules, "hitPoints" | "maxDamage" | "named">, amount: unknown, damage: unknown, cause: unknown): string {
  const why = CAUSES[String(cause ?? "")] ?? String(cause ?? "");
  const now = typeof damage === "number" ? damageValue(rules, damage) : String(damage);
  const text = rules.hitPoints ? `−${String(amount)} HP ${why} (now ${now})` : `+${String(amount)} ${why} (now ${now})`;
  return text.replace("  ", " ");
}

/** A `repaired` event's line: "−1 repaired (now 2)"; fused "+1 HP repaired (now HP 10/10)". */
export function repairedText(rules: Pick<Rules, "hitPoints" | "maxDamage" | "named">, amount: unknown, damage: unknown, cause: unknown): string {
  const now = typeof damage === "number" ? damageValue(rules, damage) : String(damage);
  const why = !rules.named ? "repaired" : cause === "power down" ? "repaired (power down)" : cause === "reboot" ? "repaired (reboot)" : "repaired";
  return rules.hitPoints ? `+${String(amount)} HP ${why} (now ${now})` : `−${String(amount)} ${why} (now ${now})`;
}

/** The fused (001) and classic (000) events in words, with the column they go in; null for other events. */
export function rulesetEventLine(snap: Snapshot | null, e: EngineEvent): { col: "chip" | "mod" | "move" | "damage" | "cps"; text: string } | null {
  const r = e as Record<string, unknown>;
  switch (e.type) {
    case "reinstate_point": return { col: "cps", text: `new reinstate point (facing ${heading(r.dir)})` };
    case "register_fused": return { col: "damage", text: `register ${String(r.register)} fused (${playedText(String(r.card ?? "?"))})` };
    case "reboot_next": return { col: "damage", text: "reboots next turn (sits it out)" };
    case "powered_down": return { col: "chip", text: "powered down (plays nothing, repaired)" };
    case "archived": return { col: "cps", text: "archive marker moved here" };
    case "finished": return { col: "cps", text: `finished ${ordinal(Number(r.place))}` };
    case "upgraded": return { col: "mod", text: `took the upgrade ${upgradeLabel(r.upgrade)}` };
    case "offer": return { col: "mod", text: `upgrade on offer: ${upgradeLabel(r.upgrade)}` };
    case "upgrade_lost": return { col: "mod", text: `lost ${upgradeLabel(r.upgrade)}${r.reason ? ` (${String(r.reason)})` : ""}` };
    case "absorbed": return { col: "damage", text: `${upgradeLabel(r.upgrade)} absorbed ${String(r.amount ?? 1)} damage` };
    case "beam": return { col: "mod", text: `${upgradeLabel(r.upgrade)}${typeof r.target === "string" ? ` on ${nameOf(snap, r.target)}` : ""}` };
    case "scrambled": return { col: "chip", text: `register ${String(r.register)} scrambled` };
    case "circuit_breaker": return { col: "mod", text: `Circuit Breaker: powers down next round (${String(r.damage)} damage)` };
    case "recompiled": return { col: "mod", text: "Recompile: new instructions for 2 damage" };
    default: return null;
  }
}

/** classic's `register_order` event: "Robots act in this order: Alice, Bob". */
export function registerOrderText(snap: Snapshot | null, order: unknown): string {
  // The order holds the robots on the board: an empty one means none is there to act (all destroyed).
  if (Array.isArray(order) && order.length === 0) return NO_ROBOT_ACTS;
  const ids = Array.isArray(order) ? order.map(String) : [];
  return ids.length ? `Robots act in this order: ${ids.map((id) => nameOf(snap, id)).join(", ")}` : "Robots act";
}

/** The words of an empty classic `register_order`. */
export const NO_ROBOT_ACTS = "No robot on the board: no robot acts";

/** A shot that hit (`target`, or fused/classic's `hit` list): "shoots Bob", "laser hits Bob and Cy"; null for a miss. */
export function shotText(snap: Snapshot | null, e: Record<string, unknown>): string | null {
  const hit = typeof e.target === "string" ? [e.target] : Array.isArray(e.hit) ? e.hit.map(String) : [];
  if (!hit.length) return null;
  const names = hit.map((id) => nameOf(snap, id));
  const who = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
  const beams = e.beams && Number(e.beams) > 1 ? ` (${String(e.beams)} beams)` : "";
  return `${e.source === "bot" ? "shoots" : "wall laser hits"} ${who}${beams}`;
}

/** The `winner` event: "wins (all check points)", "wins (last robot left)". */
export function winnerText(reason: unknown): string {
  switch (reason) {
    case "course": return "wins (all check points)";
    case "last bot alive": return "wins (last robot left)";
    case "last bot in the race": return "wins (the others are out of the race)";
    case "goal": return "wins (reached the goal)";
    default: return "wins";
  }
}

/** Other events, in words; the event names themselves are internal. */
export const OTHER: Record<string, string> = {
  teleported: "teleported", landed: "landed", virtual: "turned virtual", mirror_broken: "broke a mirror",
  receptacle_filled: "filled a receptacle", tile_broken: "a floor tile broke", field_damaged: "a force field was hit",
  field_down: "a force field went down", field_up: "a force field came back", ejected: "out of the race",
};

export function nameOf(snap: Snapshot | null, bot: string): string {
  const seat = snap?.seats.find((s) => s.bot != null && String(s.bot) === bot);
  // A computer player by its display name ("Normal Computer 1"), not its internal user name.
  if (seat) return isComputer(seat) && seat.display_name?.trim() ? seat.display_name : seat.user;
  // A drone is `<owner>.drone`, a bomb `<owner>.bomb` (docs/formats.md "Bot modules").
  const m = /^(.*)\.(drone|bomb)$/.exec(bot);
  if (m) {
    const owner = snap?.seats.find((s) => s.bot != null && String(s.bot) === m[1]);
    if (owner) return `${owner.user}'s ${m[2]}`;
  }
  return `Robot ${bot}`;
}

export const AIM_WORDS: Record<string, string> = { L: "left", R: "right", B: "back" };

/** A module event in the log's module column ("installed Turbo", "bought 2 charges for 504"), or null. */
export function moduleText(snap: Snapshot | null, e: EngineEvent): string | null {
  const r = e as Record<string, unknown>;
  const name = moduleLabel(r.module);
  switch (e.type) {
    case "module_installed": return `installed ${name}`;
    case "module_charged": return `${name}: bought ${String(r.charges)} charge${r.charges === 1 ? "" : "s"} for ${String(r.price_paid)}`;
    case "module_charge_refused": return `${name}: charge refused (not enough battery)`;
    case "module_activated": {
      const phases = Array.isArray(r.phases) && r.phases.length < 5 ? `, phase ${r.phases.join("-")}` : "";
      const aim = r.aim ? `, aims ${r.front ? "front and " : ""}${AIM_WORDS[String(r.aim)] ?? String(r.aim)}` : "";
      const order = r.order ? `, acts ${String(r.order)}` : "";
      return `activated ${name}${phases}${aim}${order}`;
    }
    case "module_charge_used": return `${name}: last turn's scan charge taken`;
    case "chip_stored": return r.replaced ? "Storage: stored a chip (the old one is gone)" : "Storage: stored a chip";
    case "stored_chip_played": return `played the stored chip in register ${String(r.register)}`;
    case "chip_transformed": return typeof r.module === "string" ? `${name} changed the chip` : null;
    case "clamped": return "Clamp held it";
    case "drone_deployed": return `Drone deployed${r.replaced ? " (replaces the old one)" : ""}`;
    case "bomb_dropped": return "Bomb dropped";
    case "bomb_exploded": return "Bomb exploded";
    case "bomb_destroyed": return "Bomb destroyed without exploding";
    case "shielded": return `Shield stopped ${String(r.amount ?? "")} damage`.replace("  ", " ");
    case "reflected": return `Reflector sent the shot back${typeof r.shooter === "string" ? ` to ${nameOf(snap, r.shooter)}` : ""}`;
    case "pushed_back": return "Blaster recoil";
    case "shocked": return typeof r.target === "string" ? `Shocker touched ${nameOf(snap, r.target)}` : "Shocker";
    default: return null;
  }
}

/** roborace's `space_order` event: "Spaces act in this order: Alice, Bob". The order holds the robots on the
 * board; an empty one means every robot was destroyed earlier in the phase, and a space acts only on the robot
 * standing on it (004 "Execute all program"), so no space acts. */
export function spaceOrderText(snap: Snapshot | null, order: unknown): string {
  if (Array.isArray(order) && order.length === 0) return NO_SPACE_ACTS;
  const ids = Array.isArray(order) ? order.map(String) : [];
  return ids.length ? `Spaces act in this order: ${ids.map((id) => nameOf(snap, id)).join(", ")}` : "Spaces act";
}

/** The words of an empty `space_order` (docs/rules.md "RoboRace"). */
export const NO_SPACE_ACTS = "No robot on the board: no space acts";

/** The turn's priority as its events show it: the order in which bots play chips. (roborace's cards have
 * no such order: the larger number acts first, phase by phase; its rows keep the order the events came in.) */
export function turnPriority(events: EngineEvent[]): string[] {
  const seen: string[] = [];
  for (const e of events) {
    const bot = (e as Record<string, unknown>).bot;
    if (e.step === "chips" && typeof bot === "string" && !seen.includes(bot)) seen.push(bot);
  }
  return seen;
}
