// Bot modules (003 "Bot Modules", "Actions", "Battery", "The Economy"): names, the menu's choices and the
// price arithmetic. Pure functions over plain data; the menu (modmenu.ts), the status panel and the tests
// use the same ones. The prices mirror engine/modules/economy.py.
import { cardChip } from "./chips";
import type { Chip } from "./types";

/** engine.MODULE_NAMES, in the engine's order. */
export const MODULE_NAMES = [
  "blaster", "bomb", "clamp", "crab_legs", "drone", "prioritizer", "repair", "repeller", "reflector",
  "reverse", "scanner", "shield", "shocker", "storage", "turbo", "turret", "virtualizer",
] as const;
export type ModuleName = (typeof MODULE_NAMES)[number];

export const PRICE_FLOOR = 10;
export const PRICE_MAX = 1_000_000;
/** 003: +2 per other available module for the bought one, −2 for every other one. */
export const STEP = 2;
/** 003 "Actions": at most 5 charges in one turn; the engine keeps at most 99 in a module. */
export const MAX_CHARGE_ACTION = 5;
export const MAX_CHARGES = 99;

const LABELS: Record<string, string> = {
  blaster: "Blaster", bomb: "Bomb", clamp: "Clamp", crab_legs: "Crab Legs", drone: "Drone",
  prioritizer: "Prioritizer", repair: "Repair", repeller: "Repeller", reflector: "Reflector", reverse: "Reverse",
  scanner: "Scanner", shield: "Shield", shocker: "Shocker", storage: "Storage", turbo: "Turbo", turret: "Turret",
  virtualizer: "Virtualizer",
};

/** A module's name as players read it ("crab_legs" → "Crab Legs"); an unknown name as given. */
export function moduleLabel(name: unknown): string {
  return LABELS[String(name)] ?? String(name).replace(/_/g, " ");
}

/** What each module does, in a few words (menu tooltips, the how-to-play page has the long form). */
export const MODULE_HINTS: Record<string, string> = {
  blaster: "shots do 2 damage and push you back 1, for the turn",
  bomb: "drop a bomb: 9 damage on its square, 2 around it, at the end of the turn",
  clamp: "in one phase you can't move or be moved, except by a belt",
  crab_legs: "in one phase a Left or Right chip moves you sideways 1 (needs a spare move chip)",
  drone: "deploy a virtual drone that plays your chips and can tag check points for you",
  prioritizer: "act first or last in every step this turn",
  repair: "repair 1 damage at the end of the turn",
  repeller: "in two phases your laser pushes the robot it hits 1 square instead",
  reflector: "in two phases shots that hit you go back to the shooter",
  reverse: "in one phase your chip is reversed",
  scanner: "see the chips the others have submitted (not their order)",
  shield: "no damage from shots this turn; you don't fire",
  shocker: "robots you touch take 1 damage",
  storage: "store the first chip you don't play, to play it later",
  turbo: "in one phase a move chip moves you 1 more square (needs a spare move chip)",
  turret: "aim your laser left, right or back, with or without the front",
  virtualizer: "turn virtual from the start of one phase",
};

export type ModuleAction =
  | { install: string }
  | { charge: number }
  | { activate: { phases?: number[]; aim?: "L" | "R" | "B"; front?: boolean; order?: "first" | "last" } };

export interface InstalledModule { type: string; charges: number }

/** Prices after one charge of `module` was bought (economy.after_purchase). */
export function afterPurchase(prices: Readonly<Record<string, number>>, module: string): Record<string, number> {
  const names = Object.keys(prices);
  const others = names.length - 1;
  const out: Record<string, number> = {};
  for (const name of names) {
    const price = prices[name];
    out[name] = name === module ? Math.min(PRICE_MAX, price + STEP * others) : Math.max(PRICE_FLOOR, price - STEP);
  }
  return out;
}

/** What `count` charges of `module` cost bought one after another, and the prices after them
 * (economy.charge_cost). Null when the module has no price in this game. */
export function chargeCost(
  prices: Readonly<Record<string, number>>, module: string, count: number,
): { total: number; prices: Record<string, number> } | null {
  if (typeof prices[module] !== "number") return null;
  let total = 0;
  let current: Record<string, number> = { ...prices };
  for (let i = 0; i < count; i++) {
    total += current[module];
    current = afterPurchase(current, module);
  }
  return { total, prices: current };
}

export interface ChargeOption {
  count: number;
  /** The total price of `count` charges, priced one after another. */
  total: number;
  /** The battery covers it and the module has room for the charges. */
  allowed: boolean;
  /** Why not, when not allowed. */
  why: string;
}

/** The Charge choices +1..+5 for the installed module: each total price and whether the battery allows it. */
export function chargeOptions(
  prices: Readonly<Record<string, number>>, module: InstalledModule, battery: number,
): ChargeOption[] {
  const out: ChargeOption[] = [];
  for (let count = 1; count <= MAX_CHARGE_ACTION; count++) {
    const cost = chargeCost(prices, module.type, count);
    if (!cost) break;
    const full = module.charges + count > MAX_CHARGES;
    const poor = cost.total > battery;
    out.push({
      count, total: cost.total, allowed: !full && !poor,
      why: full ? `at most ${MAX_CHARGES} charges` : poor ? `battery ${battery}` : "",
    });
  }
  return out;
}

export const TURN_BASED = new Set(["blaster", "bomb", "drone", "repair", "scanner", "shield", "shocker", "storage"]);
export const ONE_PHASE = new Set(["clamp", "crab_legs", "reverse", "turbo", "virtualizer"]);
export const TWO_PHASES = new Set(["repeller", "reflector"]);
/** Modules that need a move chip the program does not play (003 "Turbo", "Crab Legs"). */
export const NEEDS_SPARE = new Set(["turbo", "crab_legs"]);
export const SPARE_CHIPS: readonly Chip[] = ["1", "2", "3", "B"];

export interface ActivateChoice { label: string; action: ModuleAction }

const AIMS: [string, "L" | "R" | "B"][] = [["Left", "L"], ["Right", "R"], ["Back", "B"]];

/** The installed module's own Activate choices (003 "Actions": [Activate], [Phase X], [Phases X-Y],
 * the Turret's [Direction] / [Front & Direction], the Prioritizer's first / last). */
export function activateChoices(module: string): ActivateChoice[] {
  if (TURN_BASED.has(module)) return [{ label: "Activate", action: { activate: {} } }];
  if (ONE_PHASE.has(module)) {
    return [1, 2, 3, 4, 5].map((p) => ({ label: `Phase ${p}`, action: { activate: { phases: [p] } } }));
  }
  if (TWO_PHASES.has(module)) {
    return [1, 2, 3, 4].map((p) => ({ label: `Phases ${p}-${p + 1}`, action: { activate: { phases: [p, p + 1] } } }));
  }
  if (module === "turret") {
    const out: ActivateChoice[] = [];
    for (const front of [false, true]) {
      for (const [name, aim] of AIMS) {
        out.push({ label: front ? `Front & ${name}` : name, action: { activate: { aim, front } } });
      }
    }
    return out;
  }
  if (module === "prioritizer") {
    return [
      { label: "Act first", action: { activate: { order: "first" } } },
      { label: "Act last", action: { activate: { order: "last" } } },
    ];
  }
  return [];
}

/** Charges usable this turn: a Scanner activated last turn still owes one (engine available_charges). */
export function usableCharges(module: InstalledModule | null | undefined, scanDue: boolean): number {
  if (!module) return 0;
  return Math.max(0, module.charges - (scanDue ? 1 : 0));
}

/** The hand's chips the program does not play (copies counted). `program` holds the chips placed from the
 * hand (frozen registers, "S" and empty registers excluded by the caller). */
export function unusedChips(hand: readonly Chip[], program: readonly Chip[]): Chip[] {
  const used = new Map<Chip, number>();
  for (const c of program) used.set(c, (used.get(c) ?? 0) + 1);
  const out: Chip[] = [];
  for (const c of hand) {
    const n = used.get(c) ?? 0;
    if (n > 0) used.set(c, n - 1);
    else out.push(c);
  }
  return out;
}

/** Turbo and Crab Legs: does the hand keep a spare move chip (1 2 3 B) out of the program? */
export function hasSpareMoveChip(hand: readonly Chip[], program: readonly Chip[]): boolean {
  return unusedChips(hand, program).some((c) => SPARE_CHIPS.includes(cardChip(c))); // "2@70" is a move card too
}

/** An action's value in the menu (a <select> option value) and back. */
export function actionKey(action: ModuleAction | null | undefined): string {
  if (!action) return "";
  return JSON.stringify(action, (_k, v: unknown) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v));
}

export function parseAction(key: string): ModuleAction | null {
  if (!key) return null;
  try {
    const v = JSON.parse(key) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as ModuleAction) : null;
  } catch {
    return null;
  }
}

/** An action in words: "Install Turbo", "Charge +2", "Activate Turbo: phase 3", "Turret: Front & Left". */
export function actionText(action: ModuleAction | null | undefined, installed: string | null): string {
  if (!action) return "No module action";
  if ("install" in action) return `Install ${moduleLabel(action.install)}`;
  if ("charge" in action) return `Charge +${action.charge}`;
  const a = action.activate ?? {};
  const name = moduleLabel(installed ?? "module");
  const choice = activateChoices(installed ?? "").find((c) => actionKey(c.action) === actionKey(action));
  return choice && choice.label !== "Activate" ? `Activate ${name}: ${choice.label.toLowerCase()}`
    : a.phases ? `Activate ${name}: phase ${a.phases.join("-")}` : `Activate ${name}`;
}

/** 003 "Battery": the status panel shows the module, its charges and the battery: "Turbo +2 250". */
export function moduleStatus(module: InstalledModule | null | undefined, battery: number | undefined): string {
  const b = typeof battery === "number" ? String(battery) : "";
  if (!module) return b ? `none, battery ${b}` : "none";
  return `${moduleLabel(module.type)} +${module.charges}${b ? ` ${b}` : ""}`;
}

/** The game's prices as table rows: [["Shield", 200], ["Turbo", 250]] (by name). */
export function priceRows(prices: Readonly<Record<string, number>> | null | undefined): [string, number][] {
  return Object.keys(prices ?? {}).sort().map((n) => [moduleLabel(n), (prices as Record<string, number>)[n]]);
}

/** The game's prices for everyone: "Shield 200 · Turbo 250" (sorted by name as the server sends them). */
export function pricesText(prices: Readonly<Record<string, number>> | null | undefined): string {
  const names = Object.keys(prices ?? {}).sort();
  return names.map((n) => `${moduleLabel(n)} ${(prices as Record<string, number>)[n]}`).join(" · ");
}
