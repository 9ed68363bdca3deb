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
}

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
  };
}

/** The mode line's words for a ruleset other than the default: "RoboRace · the larger card number acts first". */
export function rulesText(rules: Rules): string {
  if (!rules.named) return "";
  return rules.numbered ? `${rules.title} · the larger card number acts first` : rules.title;
}

/** The legend's robot entry: only the badges the ruleset shows. */
export function robotLegend(rules: Rules): string {
  const badges = [rules.lives ? "♥ lives" : "", rules.damage ? "red badge damage" : ""].filter(Boolean).join(", ");
  // Virtual robots come with 003's lives (a robot back on the course is virtual for a while).
  const virtual = rules.lives ? "faded and dashed = virtual" : "";
  return `Robot: seat colour and number, the nose shows its heading${[badges, virtual].filter(Boolean).map((t) => `; ${t}`).join("")}`;
}
