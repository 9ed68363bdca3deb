// classic's switched upgrades (000, docs/rules.md "classic"): the controls under the program for the
// gyroscopic stabilizer, the laser switches (one at a time), the circuit breaker's threshold and the
// flywheel's saved instruction. What they send is the program action's `upgrade_use`, built by the pure
// `upgradeUse` below (unit-tested).
import { h } from "./dom";
import { upgradeLabel } from "./ruleset";
import type { Chip } from "./types";

/** The laser switches, in 000's order; at most one is on for a round. */
export const BEAMS = ["radio_control", "scrambler", "mini_howitzer", "pressor_beam", "tractor_beam"] as const;
const BEAM_HELP: Record<string, string> = {
  radio_control: "the robot you hit plays your instructions for the rest of the round",
  scrambler: "the robot you hit plays a random instruction in its next register",
  mini_howitzer: "push the robot you hit one square away and damage it (five uses)",
  pressor_beam: "push the robot you hit one square away, no damage",
  tractor_beam: "pull the robot you hit one square closer, no damage",
};
/** The circuit breaker's threshold when none is chosen (000 "Circuit Breaker"). */
export const BREAKER_DEFAULT = 8;
const INSTRUCTIONS = ["1", "2", "3", "B", "L", "R", "U"];

export interface SwitchChoice {
  stabilizer: boolean;
  beam: string | null;
  breaker: number | null;
  flywheel: Chip | null;
}

export const NO_CHOICE: SwitchChoice = { stabilizer: false, beam: null, breaker: null, flywheel: null };

/** The switched upgrades among a robot's upgrades (the ones with a control here). */
export function switchedUpgrades(upgrades: readonly string[]): string[] {
  const switched = new Set<string>(["gyroscopic_stabilizer", ...BEAMS, "circuit_breaker", "flywheel"]);
  return upgrades.filter((u) => switched.has(u));
}

/** The `upgrade_use` to send for a robot with `upgrades` and the player's choice, or null when nothing is
 * switched. Only upgrades the robot has are named; one beam at a time; a breaker threshold from 1 to 21. */
export function upgradeUse(upgrades: readonly string[], choice: SwitchChoice): Record<string, boolean | number | string> | null {
  const has = new Set(upgrades);
  const use: Record<string, boolean | number | string> = {};
  if (has.has("gyroscopic_stabilizer") && choice.stabilizer) use.gyroscopic_stabilizer = true;
  if (choice.beam !== null && has.has(choice.beam) && (BEAMS as readonly string[]).includes(choice.beam)) use[choice.beam] = true;
  if (has.has("circuit_breaker") && choice.breaker !== null && Number.isInteger(choice.breaker)
    && choice.breaker >= 1 && choice.breaker <= 21) use.circuit_breaker = choice.breaker;
  if (has.has("flywheel") && choice.flywheel !== null && INSTRUCTIONS.includes(choice.flywheel)) use.flywheel = choice.flywheel;
  return Object.keys(use).length ? use : null;
}

/** The instructions a program leaves unused in the hand, each once (the flywheel may save one of them). */
export function unusedInstructions(hand: readonly Chip[], program: readonly (Chip | null)[]): Chip[] {
  const left = new Map<string, number>();
  for (const chip of hand) left.set(chip, (left.get(chip) ?? 0) + 1);
  for (const chip of program) if (chip !== null && left.has(chip)) left.set(chip, (left.get(chip) ?? 0) - 1);
  return INSTRUCTIONS.filter((chip) => (left.get(chip) ?? 0) > 0);
}

/** The controls: shown only when the robot has a switched upgrade. */
export class UpgradeSwitches {
  readonly el: HTMLFieldSetElement;
  private readonly body: HTMLDivElement;
  private upgrades: string[] = [];
  private choice: SwitchChoice = { ...NO_CHOICE };
  private key = "";
  private round = 0;

  constructor(private readonly onChange: () => void) {
    this.el = h("fieldset", { class: "rr-upgrade-switches", id: "upgrade-switches" });
    this.el.append(h("legend", {}, "Upgrades this round"));
    this.body = h("div", { class: "rr-upgrade-switch-list" });
    this.el.append(this.body);
    this.el.hidden = true;
    const changed = (ev: Event): void => {
      const t = ev.target as HTMLInputElement | HTMLSelectElement;
      if (t.name === "gyroscopic_stabilizer") this.choice.stabilizer = (t as HTMLInputElement).checked;
      else if (t.name === "beam") this.choice.beam = t.value || null;
      else if (t.name === "circuit_breaker") {
        const n = Number(t.value);
        this.choice.breaker = t.value !== "" && Number.isInteger(n) && n >= 1 && n <= 21 ? n : null;
      } else if (t.name === "flywheel") this.choice.flywheel = t.value || null;
      this.onChange();
    };
    this.el.addEventListener("change", changed);
    this.el.addEventListener("input", changed); // a number typed counts before the field loses focus
  }

  /** What Submit sends as `upgrade_use`: null without switched upgrades, else the whole round's set ({} turns
   * every switch off: the engine keeps a robot's switches from round to round until it sends new ones). */
  get use(): Record<string, boolean | number | string> | null {
    return this.el.hidden ? null : upgradeUse(this.upgrades, this.choice) ?? {};
  }

  /** A new round (`fresh`) clears the choices; the robot's upgrades and the unused instructions redraw. */
  update(upgrades: readonly string[], unused: readonly Chip[], fresh: boolean, sent?: Record<string, unknown> | null): void {
    if (fresh) {
      this.choice = { ...NO_CHOICE };
      if (sent && typeof sent === "object") this.choice = choiceFrom(sent);
    }
    this.upgrades = switchedUpgrades(upgrades);
    if (this.choice.flywheel !== null && !unused.includes(this.choice.flywheel)) this.choice.flywheel = null;
    this.el.hidden = this.upgrades.length === 0;
    // Redrawn only when what can be chosen changes (or a new round starts), never for the player's own change:
    // a number being typed keeps its field and focus.
    if (fresh) this.round += 1;
    const key = JSON.stringify([this.upgrades, unused, this.round]);
    if (key === this.key) return;
    this.key = key;
    this.body.replaceChildren(...this.controls(unused));
  }

  private controls(unused: readonly Chip[]): HTMLElement[] {
    const out: HTMLElement[] = [];
    const has = new Set(this.upgrades);
    if (has.has("gyroscopic_stabilizer")) {
      const box = h("input", { type: "checkbox", name: "gyroscopic_stabilizer", id: "use-gyroscopic_stabilizer" });
      box.checked = this.choice.stabilizer;
      const label = h("label", { for: "use-gyroscopic_stabilizer", class: "rr-switch" });
      label.append(box, h("span", {}, "Gyroscopic Stabilizer on: gears and turning belts don't turn you"));
      out.push(label);
    }
    const beams = BEAMS.filter((b) => has.has(b));
    if (beams.length) {
      const select = h("select", { name: "beam", id: "use-beam" });
      select.append(h("option", { value: "" }, "Lasers: normal (damage)"));
      for (const beam of beams) select.append(h("option", { value: beam }, `${upgradeLabel(beam)}: ${BEAM_HELP[beam]}`));
      select.value = this.choice.beam ?? "";
      const label = h("label", { for: "use-beam", class: "rr-switch" }, "Your lasers ");
      label.append(select);
      out.push(label);
    }
    if (has.has("circuit_breaker")) {
      const input = h("input", { type: "number", name: "circuit_breaker", id: "use-circuit_breaker", min: "1", max: "21",
        step: "1", inputmode: "numeric", placeholder: String(BREAKER_DEFAULT) });
      input.value = this.choice.breaker === null ? "" : String(this.choice.breaker);
      const label = h("label", { for: "use-circuit_breaker", class: "rr-switch" },
        "Circuit Breaker: power down by itself at ");
      label.append(input, h("span", {}, ` damage (${BREAKER_DEFAULT} if left empty)`));
      out.push(label);
    }
    if (has.has("flywheel")) {
      const select = h("select", { name: "flywheel", id: "use-flywheel" });
      select.append(h("option", { value: "" }, "nothing"));
      for (const chip of unused) select.append(h("option", { value: chip }, chip));
      select.value = this.choice.flywheel ?? "";
      const label = h("label", { for: "use-flywheel", class: "rr-switch" }, "Flywheel: keep an unused instruction for next round ");
      label.append(select);
      out.push(label);
    }
    return out;
  }
}

/** The choices a sent `upgrade_use` stands for (a page loaded again shows what was sent). */
export function choiceFrom(use: Record<string, unknown>): SwitchChoice {
  const beam = BEAMS.find((b) => use[b] === true) ?? null;
  const breaker = typeof use.circuit_breaker === "number" ? use.circuit_breaker : null;
  const flywheel = typeof use.flywheel === "string" ? use.flywheel : null;
  return { stabilizer: use.gyroscopic_stabilizer === true, beam, breaker, flywheel };
}
