// What the game's ruleset (snapshot.ruleset, docs/rulesets.md) changes on the game screen: its title, numbered
// cards, and which of damage, lives, reboot and bot modules exist. A snapshot without a ruleset block (older
// servers, the demo files) is the default ruleset, roboracer, and the screen stays as it always was.
import type { Snapshot } from "./types";

export const DEFAULT_RULESET = "roboracer";

export interface Rules {
  name: string;
  title: string;
  /** Not the default ruleset: the screen names it. */
  named: boolean;
  /** Cards carry numbers ("R@5"); the larger number acts first. */
  numbered: boolean;
  /** Robots take damage (the panel's and the board's damage, the log's damage column). */
  damage: boolean;
  /** A destruction costs a robot: lives are shown and counted. */
  lives: boolean;
  /** The ruleset has bot modules. */
  modules: boolean;
  /** The game's options (snapshot ruleset.options), e.g. fused's electric_fence. */
  options: Record<string, unknown>;
  /** The damage that destroys a robot (snapshot max_damage; 10 when not sent). */
  maxDamage: number;
  /** fused (001): robots have hit points, HP = maxDamage - damage, shown instead of a damage count. */
  hitPoints: boolean;
  /** What a register that can't be changed is called: "fused" (fused), else "locked". */
  lockedWord: string;
  /** classic (000): the player may announce a power down for the next round with the program. */
  powerDown: boolean;
  /** classic (000): robots carry upgrades (option cards). */
  upgrades: boolean;
}

/** What this screen does differently per ruleset name, beyond the snapshot's flags. */
const BY_NAME: Record<string, Partial<Pick<Rules, "hitPoints" | "lockedWord" | "powerDown" | "upgrades">>> = {
  fused: { hitPoints: true, lockedWord: "fused" },
  classic: { powerDown: true, upgrades: true },
};

export function rulesOf(snap: Pick<Snapshot, "ruleset"> | null | undefined): Rules {
  const r = snap?.ruleset && typeof snap.ruleset === "object" ? snap.ruleset : null;
  const name = typeof r?.name === "string" && r.name ? r.name : DEFAULT_RULESET;
  return {
    name,
    title: typeof r?.title === "string" && r.title ? r.title : name === DEFAULT_RULESET ? "RoboRacer" : name,
    named: name !== DEFAULT_RULESET,
    numbered: r?.numbered === true,
    damage: r?.damage !== false,
    lives: r?.counts_lives !== false,
    modules: r?.modules !== false,
    maxDamage: typeof r?.max_damage === "number" && r.max_damage > 0 ? r.max_damage : 10,
    hitPoints: false,
    lockedWord: "locked",
    powerDown: false,
    upgrades: false,
    ...BY_NAME[name],
    options: r?.options && typeof r.options === "object" ? r.options : {},
  };
}

/** A robot's damage as the ruleset shows it: fused "HP 7/10", classic "3/22", the others "3". */
export function damageValue(rules: Pick<Rules, "hitPoints" | "maxDamage" | "named">, damage: number): string {
  if (rules.hitPoints) return `HP ${Math.max(0, rules.maxDamage - damage)}/${rules.maxDamage}`;
  return rules.named ? `${damage}/${rules.maxDamage}` : String(damage);
}

/** An upgrade's name for people: "ramming_gear" → "Ramming Gear". */
export function upgradeLabel(name: unknown): string {
  return String(name ?? "").split("_").filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

/** The mode line's words for a ruleset other than the default: "RoboRace · the larger card number acts first". */
export function rulesText(rules: Rules): string {
  if (!rules.named) return "";
  const parts = [rules.title];
  if (rules.numbered) parts.push("the larger card number acts first");
  if (rules.hitPoints) parts.push(`${rules.maxDamage} hit points`);
  if (rules.powerDown) parts.push("power down, upgrades");
  if (typeof rules.options.electric_fence === "boolean") parts.push(`electric fence ${rules.options.electric_fence ? "on" : "off"}`);
  return parts.join(" · ");
}

/** The legend's robot entry: only the badges the ruleset shows. */
export function robotLegend(rules: Rules): string {
  const badges = [rules.lives ? "♥ lives" : "", rules.damage ? (rules.hitPoints ? "red badge hit points left" : "red badge damage") : ""].filter(Boolean).join(", ");
  // Virtual robots come with 003's lives (a robot back on the course is virtual for a while).
  const virtual = rules.lives ? "faded and dashed = virtual" : "";
  return `Robot: seat colour and number, the nose shows its heading${[badges, virtual].filter(Boolean).map((t) => `; ${t}`).join("")}`;
}

/** 1 → "1st", 2 → "2nd", 11 → "11th". */
export function ordinal(n: number): string {
  if (!Number.isFinite(n)) return "";
  const tens = n % 100, ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}
