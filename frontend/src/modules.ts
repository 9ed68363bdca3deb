// Bot modules (003 "Bot Modules", "Actions", "Battery", "The Economy"): names, the menu's choices and the
// price arithmetic. Pure functions over plain data; the menu (modmenu.ts), the status panel and the tests
// use the same ones. The prices mirror engine/modules/economy.py.
import { cardChip } from "./chips";
import { MODULE_HINTS, MODULE_LABELS, MODULE_NAMES, MODULE_SHAPES } from "./catalog";

export { MODULE_HINTS, MODULE_NAMES };
import type { Chip } from "./types";

/** A module's name (engine.MODULE_NAMES, from the engine's catalog: catalog.ts). */
export type ModuleName = string;

export const PRICE_FLOOR = 10;
export const PRICE_MAX = 1_000_000;
/** 003: +2 per other available module for the bought one, −2 for every other one. */
export const STEP = 2;
/** 003 "Actions": at most 5 charges in one turn; the engine keeps at most 99 in a module. */
export const MAX_CHARGE_ACTION = 5;
export const MAX_CHARGES = 99;

/** A module's name as players read it ("crab_legs" → "Crab Legs"); an unknown name as given. */
export function moduleLabel(name: unknown): string {
  return MODULE_LABELS[String(name)] ?? String(name).replace(/_/g, " ");
}

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

/** How each module is activated (its `activation` in the engine: turn, scanner, phase, two_phases, turret,
 * prioritizer), from the catalog. */
const activation = (module: string): string => (MODULE_SHAPES[module] ?? "").split(" ")[0];
/** Modules that need a move chip the program does not play (003 "Turbo", "Crab Legs"): the catalog says which. */
export const NEEDS_SPARE = { has: (module: string): boolean => (MODULE_SHAPES[module] ?? "").endsWith(" spare") };
export const SPARE_CHIPS: readonly Chip[] = ["1", "2", "3", "B"];

export interface ActivateChoice { label: string; action: ModuleAction }

const AIMS: [string, "L" | "R" | "B"][] = [["Left", "L"], ["Right", "R"], ["Back", "B"]];

/** The installed module's own Activate choices (003 "Actions": [Activate], [Phase X], [Phases X-Y],
 * the Turret's [Direction] / [Front & Direction], the Prioritizer's first / last). */
export function activateChoices(module: string): ActivateChoice[] {
  const shape = activation(module);
  if (shape === "turn" || shape === "scanner") return [{ label: "Activate", action: { activate: {} } }];
  if (shape === "phase") {
    return [1, 2, 3, 4, 5].map((p) => ({ label: `Phase ${p}`, action: { activate: { phases: [p] } } }));
  }
  if (shape === "two_phases") {
    return [1, 2, 3, 4].map((p) => ({ label: `Phases ${p}-${p + 1}`, action: { activate: { phases: [p, p + 1] } } }));
  }
  if (shape === "turret") {
    const out: ActivateChoice[] = [];
    for (const front of [false, true]) {
      for (const [name, aim] of AIMS) {
        out.push({ label: front ? `Front & ${name}` : name, action: { activate: { aim, front } } });
      }
    }
    return out;
  }
  if (shape === "prioritizer") {
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
