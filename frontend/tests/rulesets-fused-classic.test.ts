// Unit checks of the fused (001) and classic (000) screen words: hit points, damage out of 22, classic's
// instruction labels (upgrades' "F0", "4", "B2", "1+L"), the turn log's lines for their events, the panel's
// notes for powered-down robots and the program's sit-out and power-down lines.
import assert from "node:assert/strict";
import { test } from "node:test";
import { chipLabel, chipShort, playedText } from "../src/chips";
import {
  damagedText, registerOrderText, repairedText, rulesetEventLine, shotText, TurnLog,
} from "../src/log";
import { seatState } from "../src/roboracer/seats";
import { powerDownHelpText, sitOutText } from "../src/program";
import { damageValue, ordinal, rulesOf, rulesText, upgradeLabel } from "../src/ruleset";
import { rulesetEventText } from "../src/animate";
import { sharedOffsets } from "../src/board";
import type { BotState, EngineEvent, RulesetInfo, Seat, Snapshot } from "../src/types";
import { FakeElement, installFakeDocument } from "./fakedom";

installFakeDocument();

const FUSED: RulesetInfo = {
  name: "fused", title: "Fused", document: "001", numbered: true, max_damage: 10, damage: true, counts_lives: true,
  modules: false, options: { electric_fence: true },
};
const CLASSIC: RulesetInfo = {
  name: "classic", title: "Classic", document: "000", numbered: false, max_damage: 22, damage: true, counts_lives: true,
  modules: false, options: {},
};
const seats = [
  { number: 1, user: "Ada", bot: "1", color: "#f00", ready: false, ejected: false },
  { number: 2, user: "Ben", bot: "2", color: "#00f", ready: false, ejected: false },
] as unknown as Seat[];
const snap = (ruleset: RulesetInfo | null) => ({ status: "programming", seats, me: null, ruleset }) as unknown as Snapshot;
const ev = (e: Record<string, unknown>) => ({ phase: 1, step: "chips", bot: "1", ...e }) as unknown as EngineEvent;

test("fused: hit points instead of damage, fused registers, the electric fence in the ruleset line", () => {
  const rules = rulesOf({ ruleset: FUSED });
  assert.equal(rules.hitPoints, true);
  assert.equal(rules.lockedWord, "fused");
  assert.equal(damageValue(rules, 0), "HP 10/10");
  assert.equal(damageValue(rules, 3), "HP 7/10");
  assert.equal(damageValue(rules, 12), "HP 0/10");
  assert.equal(rulesText(rules), "Fused · the larger card number acts first · 10 hit points · electric fence on");
  assert.match(rulesText(rulesOf({ ruleset: { ...FUSED, options: { electric_fence: false } } })), /electric fence off$/);
  assert.equal(damagedText(rules, 1, 1, "fence"), "−1 HP electric fence (now HP 9/10)");
  assert.equal(repairedText(rules, 1, 0, "checkpoint"), "+1 HP repaired (now HP 10/10)");
});

test("classic: damage out of 22, locked registers, power down and upgrades in the ruleset line", () => {
  const rules = rulesOf({ ruleset: CLASSIC });
  assert.equal(rules.hitPoints, false);
  assert.equal(rules.maxDamage, 22);
  assert.equal(rules.lockedWord, "locked");
  assert.equal(rules.powerDown, true);
  assert.equal(damageValue(rules, 13), "13/22");
  assert.equal(rulesText(rules), "Classic · power down, upgrades");
  assert.equal(damagedText(rules, 1, 4, "laser"), "+1 laser (now 4/22)");
  assert.equal(repairedText(rules, 4, 0, "power down"), "−4 repaired (power down) (now 0/22)");
});

test("roboracer and roborace keep their words", () => {
  const def = rulesOf(null);
  assert.equal(def.hitPoints || def.powerDown || def.upgrades, false);
  assert.equal(damageValue(def, 3), "3");
  assert.equal(damagedText(def, 1, 3, "bot laser"), "+1 robot laser (now 3)");
  assert.equal(repairedText(def, 1, 2, "reboot"), "−1 repaired (now 2)");
  assert.equal(rulesText(rulesOf({ ruleset: { name: "roborace", title: "RoboRace", numbered: true, damage: false } })),
    "RoboRace · the larger card number acts first");
});

test("classic instructions with upgrades have words, not a question mark", () => {
  assert.equal(chipLabel("F0"), "Brakes (move 0)");
  assert.equal(chipLabel("4"), "Move 4");
  assert.equal(chipLabel("B2"), "Back up 2");
  assert.equal(chipLabel("1+L"), "Move 1 + turn left");
  assert.equal(chipLabel("2+R"), "Move 2 + turn right");
  assert.equal(chipShort("1+L"), "1+L");
  assert.equal(playedText("B2"), "Back up 2");
  assert.equal(playedText("2@70"), "Move 2 (70)");
  assert.equal(chipLabel("X+Y"), "Chip X+Y");
});

test("upgrade names and places in words", () => {
  assert.equal(upgradeLabel("ramming_gear"), "Ramming Gear");
  assert.equal(upgradeLabel("power_down_shield"), "Power Down Shield");
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
});

test("the new events in the turn log's words", () => {
  const s = snap(CLASSIC);
  assert.deepEqual(rulesetEventLine(s, ev({ type: "register_fused", register: 5, card: "R@3" })), { col: "damage", text: "register 5 fused (Turn right (3))" });
  assert.deepEqual(rulesetEventLine(s, ev({ type: "reinstate_point", at: [1, 1], dir: "E" })), { col: "cps", text: "new reinstate point (facing east)" });
  assert.equal(rulesetEventLine(s, ev({ type: "reboot_next" }))?.text, "reboots next turn (sits it out)");
  assert.equal(rulesetEventLine(s, ev({ type: "powered_down" }))?.text, "powered down (plays nothing, repaired)");
  assert.equal(rulesetEventLine(s, ev({ type: "finished", place: 2 }))?.text, "finished 2nd");
  assert.equal(rulesetEventLine(s, ev({ type: "upgraded", upgrade: "ramming_gear", at: [1, 1] }))?.text, "took the upgrade Ramming Gear");
  assert.equal(rulesetEventLine(s, ev({ type: "offer", bot: null, upgrade: "brakes", at: [1, 1] }))?.text, "upgrade on offer: Brakes");
  assert.equal(rulesetEventLine(s, ev({ type: "upgrade_lost", upgrade: "ablative_coat", reason: "used up" }))?.text, "lost Ablative Coat (used up)");
  assert.equal(rulesetEventLine(s, ev({ type: "beam", upgrade: "tractor_beam", target: "2" }))?.text, "Tractor Beam on Ben");
  assert.equal(rulesetEventLine(s, ev({ type: "archived", at: [1, 1] }))?.text, "archive marker moved here");
  assert.equal(rulesetEventLine(s, ev({ type: "chip", chip: "1" })), null);
  assert.equal(registerOrderText(s, ["2", "1"]), "Robots act in this order: Ben, Ada");
  assert.equal(shotText(s, { source: "bot", hit: ["2"] }), "shoots Ben");
  assert.equal(shotText(s, { source: "laser", hit: ["1", "2"] }), "wall laser hits Ada and Ben");
  assert.equal(shotText(s, { source: "laser", hit: [] }), null);
  assert.equal(rulesetEventText(ev({ type: "register_fused", register: 4, card: "R@3" })), "Register 4 fused");
  assert.equal(rulesetEventText(ev({ type: "finished", place: 1 })), "Finished 1st");
  assert.equal(rulesetEventText(ev({ type: "moved" })), null);
});

test("a classic turn log: register order lines, instructions, upgrades column", () => {
  const parent = new FakeElement("DIV");
  const log = new TurnLog(parent as unknown as HTMLElement);
  log.setRules(rulesOf({ ruleset: CLASSIC }));
  log.start("Turn 1 log");
  const s = snap(CLASSIC);
  for (const e of [
    ev({ type: "register_order", bot: null, order: ["2", "1"] }),
    ev({ type: "chip", chip: "1+L" }),
    ev({ type: "chip", bot: "2", chip: "F0" }),
    ev({ type: "shot", step: "lasers", bot: "2", source: "bot", dir: "N", hit: ["1"] }),
    ev({ type: "damaged", step: "lasers", amount: 1, damage: 1, cause: "bot laser" }),
    ev({ type: "upgraded", step: "repairs", phase: 5, upgrade: "brakes", at: [1, 1] }),
    ev({ type: "powered_down", bot: "2", step: "start", phase: 0 }),
  ]) log.add(s, e);
  const text = (log.el as unknown as FakeElement).find("rr-log")?.textContent ?? "";
  for (const want of ["Robots act in this order: Ben, Ada", "Move 1 + turn left", "Brakes (move 0)", "shoots Ada",
    "+1 robot laser (now 1/22)", "took the upgrade Brakes", "powered down"]) assert.ok(text.includes(want), `${want} in ${text}`);
  assert.ok(!text.includes("Chip "), text);
  assert.ok(text.includes("Instruction") && text.includes("Upgrade"), text);
});

test("the robots panel: powered down, requested power down", () => {
  const bot = { id: "1", at: [1, 1], dir: "N", damage: 0, lives: 3, next_checkpoint: 1, virtual: false } as BotState;
  const s = { ...snap(CLASSIC), me: { seat: 1, bot: "1", hand: [], program: null, frozen: [], power_down: true } } as unknown as Snapshot;
  assert.deepEqual(seatState(s, seats[0], { ...bot, power_down_next: true }).notes, ["powered down this turn", "power down next turn requested"]);
  assert.deepEqual(seatState(snap(CLASSIC), seats[1], { ...bot, id: "2", powered_down: true }).notes, ["powered down last turn"]);
  assert.deepEqual(seatState(snap(null), seats[1], { ...bot, id: "2" }).notes, []);
});

test("the program's lines for sitting out and powering down", () => {
  assert.match(sitOutText(true), /powered down/);
  assert.match(sitOutText(false), /rebooting/);
  assert.match(powerDownHelpText(true), /sits the next turn out/);
  assert.match(powerDownHelpText(false), /Power down next round/);
});

test("robots sharing a square are drawn apart, smaller", () => {
  assert.deepEqual(sharedOffsets(1), [[0, 0, 1]]);
  for (const n of [2, 3, 4, 8]) {
    const offsets = sharedOffsets(n);
    assert.equal(offsets.length, n);
    assert.equal(new Set(offsets.map(([x, y]) => `${x},${y}`)).size, n, "all apart");
    assert.ok(offsets.every(([x, y, k]) => Math.abs(x) <= 0.35 && Math.abs(y) <= 0.35 && k < 1));
  }
});
