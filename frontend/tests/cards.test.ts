// Unit checks of numbered cards (roborace, "<chip>@<number>") and of what a ruleset changes on the game
// screen: card parsing and labels, the turn log's card numbers and space order, lives that are not counted,
// and the words for the default ruleset left as they were.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sequentialStep } from "../src/animate";
import { useTiming } from "../src/timing";
import TIMING from "../../games/kinds/roboracer/timing.json";
import { cardChip, cardNumber, chipLabel, chipShort, parseCard, playedText } from "../src/chips";
import { hasSpareMoveChip, unusedChips } from "../src/modules";
import { spaceOrderText, TurnLog, turnPriority, winnerText } from "../src/log";
import { seatState } from "../src/roboracer/seats";
import { programHint } from "../src/program";
import { robotLegend, rulesOf, rulesText } from "../src/ruleset";
import { applyEvent, cloneBots } from "../src/state";
import type { BotState, EngineEvent, RulesetInfo, Seat, Snapshot } from "../src/types";
import { asKnownEvent } from "../src/types";
import { FakeElement, installFakeDocument } from "./fakedom";

installFakeDocument();

const ROBORACE: RulesetInfo = {
  name: "roborace", title: "RoboRace", document: "004", numbered: true, max_damage: 10, damage: false, counts_lives: false,
  modules: false, options: {},
};
const ROBORACER: RulesetInfo = {
  name: "roboracer", title: "RoboRacer", document: "003", numbered: false, max_damage: 10, counts_lives: true,
  modules: true, options: {},
};
const seats = [
  { number: 1, user: "Alice", bot: "1", color: "#f00", ready: false, ejected: false },
  { number: 2, user: "Bob", bot: "2", color: "#00f", ready: false, ejected: false },
] as unknown as Seat[];
const snap = { status: "programming", seats, me: null, ruleset: ROBORACE } as unknown as Snapshot;

test("a numbered card splits into its chip and its number", () => {
  assert.deepEqual(parseCard("R@5"), { chip: "R", number: 5 });
  assert.deepEqual(parseCard("2@70"), { chip: "2", number: 70 });
  assert.deepEqual(parseCard("1@50"), { chip: "1", number: 50 });
  assert.deepEqual(parseCard("B@0"), { chip: "B", number: 0 });
  // Plain chips (roboracer) have no number; odd text stays one (unknown) chip.
  assert.deepEqual(parseCard("R"), { chip: "R", number: null });
  assert.deepEqual(parseCard("0"), { chip: "0", number: null });
  assert.deepEqual(parseCard("R@x"), { chip: "R@x", number: null });
  assert.deepEqual(parseCard("@5"), { chip: "@5", number: null });
  assert.deepEqual(parseCard("R@"), { chip: "R@", number: null });
  assert.equal(cardChip("U@42"), "U");
  assert.equal(cardChip("L"), "L");
  assert.equal(cardNumber("U@42"), 42);
  assert.equal(cardNumber("U"), null);
});

test("a card's label names the chip and its number; a plain chip's label is as before", () => {
  assert.equal(chipLabel("R@5"), "Turn right · 5");
  assert.equal(chipLabel("2@70"), "Move 2 · 70");
  assert.equal(chipLabel("B@47"), "Back up · 47");
  assert.equal(chipLabel("U@42"), "U-turn · 42");
  assert.equal(chipLabel("R"), "Turn right");
  assert.equal(chipLabel("3"), "Move 3");
  assert.equal(chipLabel("Z"), "Chip Z");
  assert.equal(chipShort("1@50"), "150");
  assert.equal(chipShort("L"), "L");
  // Two cards of the same chip stay two cards.
  assert.notEqual(chipLabel("1@50"), chipLabel("1@51"));
});

test("numbered cards of one chip are never merged when the hand's unplayed cards are counted", () => {
  assert.deepEqual(unusedChips(["1@50", "1@51", "R@5"], ["1@51"]), ["1@50", "R@5"]);
  assert.deepEqual(unusedChips(["1", "1", "R"], ["1"]), ["1", "R"]);
  assert.equal(hasSpareMoveChip(["R@5", "2@70"], ["R@5"]), true);
  assert.equal(hasSpareMoveChip(["R@5", "2@70"], ["2@70"]), false);
});

test("a played card in the log: the event's number in brackets", () => {
  assert.equal(playedText("2", 70), "Move 2 (70)");
  assert.equal(playedText("R", 5), "Turn right (5)");
  assert.equal(playedText("R@5"), "Turn right (5)");
  assert.equal(playedText("R"), "Turn right");
  assert.equal(playedText("R", "5"), "Turn right");
});

function logOf(events: EngineEvent[], s: Snapshot = snap): { text: string; rows: string[]; heads: string[] } {
  const parent = new FakeElement("DIV");
  const log = new TurnLog(parent as unknown as HTMLElement);
  log.setRules(rulesOf(s));
  log.start("Turn 1 log", turnPriority(events));
  for (const e of events) log.add(s, e);
  const table = (log.el as unknown as FakeElement).find("rr-log") as FakeElement;
  const trs = table.all().filter((e) => e.tagName === "TR");
  return {
    text: table.textContent,
    heads: trs[0].children.map((c) => c.textContent),
    rows: trs.slice(1).map((tr) => tr.children.map((c) => c.textContent).join("|")),
  };
}

const rr = (e: Record<string, unknown>) => ({ phase: 1, step: "cards", ...e }) as unknown as EngineEvent;

test("the turn log shows card numbers and the order in which spaces act", () => {
  const { rows, heads } = logOf([
    rr({ type: "chip", bot: "2", chip: "2", number: 70 }),
    rr({ type: "moved", bot: "2", from: [5, 11], to: [5, 10] }),
    rr({ type: "moved", bot: "2", from: [5, 10], to: [5, 9] }),
    rr({ type: "chip", bot: "1", chip: "R", number: 5 }),
    rr({ type: "rotated", bot: "1", from: "N", to: "E", cause: "chip" }),
    rr({ type: "space_order", bot: null, order: ["1", "2"], step: "spaces" }),
    rr({ type: "carried", bot: "1", from: [2, 11], to: [2, 10], step: "spaces" }),
    rr({ type: "pushed", bot: "2", by: "pusher", from: [5, 9], to: [6, 9], step: "spaces" }),
    rr({ type: "destroyed", bot: "2", at: [6, 9], cause: "crusher", step: "spaces" }),
    rr({ type: "space_order", bot: null, order: ["1"], phase: 5, step: "spaces" }),
    rr({ type: "respawned", bot: "2", at: [5, 11], dir: "N", virtual: false, phase: 5, step: "revitalize" }),
  ]);
  // Numbered cards: "Card", and no damage: the column says how robots were destroyed.
  assert.deepEqual(heads, ["Phase", "Robot", "Card", "Module", "Movement", "Destroyed", "Check points"]);
  // Rows in the order the robots acted (the larger number first), the course's space order after them.
  assert.deepEqual(rows, [
    "1|Bob|Move 2 (70)||moved 2 squares north; pushed 1 square east by a pusher|crushed|",
    "1|Alice|Turn right (5)||turned right; carried 1 square north by a belt||",
    "1|Course|||Spaces act in this order: Alice, Bob||",
    // The robots come back after the spaces acted: rows in the order things happened.
    "5|Course|||Spaces act in this order: Alice||",
    "5|Bob|||back on the board facing north||",
  ]);
});

test("the goal ends a roborace game in words", () => {
  assert.equal(winnerText("goal"), "wins (reached the goal)");
  const { rows } = logOf([
    rr({ type: "checkpoint", bot: "1", number: 1, at: [6, 0], step: "spaces" }),
    rr({ type: "winner", bot: "1", reason: "goal", step: "spaces" }),
  ]);
  assert.deepEqual(rows, ["1|Alice|||||✓ 1; wins (reached the goal)"]);
});

test("space order in words, with players' names", () => {
  assert.equal(spaceOrderText(snap, ["2", "1"]), "Spaces act in this order: Bob, Alice");
  assert.equal(spaceOrderText(snap, ["9"]), "Spaces act in this order: Robot 9");
  assert.equal(spaceOrderText(snap, undefined), "Spaces act");
});

test("the board skips space_order; roborace's cards and spaces play robot after robot", () => {
  assert.equal(asKnownEvent(rr({ type: "space_order", bot: null, order: ["1"], step: "spaces" })), null);
  assert.deepEqual(turnPriority([rr({ type: "chip", bot: "2", chip: "2", number: 70 })]), []);
  useTiming(TIMING);
  for (const step of ["chips", "cards", "spaces"]) assert.ok(sequentialStep(step), step);
  assert.ok(!sequentialStep("belts"));
});

test("without counted lives a destroyed robot keeps them and is never out", () => {
  const bot = (id: string, extra: Partial<BotState> = {}): BotState => ({
    id, at: [1, 1], dir: "N", damage: 0, lives: 1, next_checkpoint: 1, virtual: false, ...extra,
  });
  const destroyed = rr({ type: "destroyed", bot: "1", at: [1, 1], cause: "pit" });
  const kept = cloneBots([bot("1")]);
  applyEvent(kept, destroyed, false);
  assert.equal(kept.get("1")?.lives, 1);
  assert.equal(kept.get("1")?.at, null);
  const counted = cloneBots([bot("1")]);
  applyEvent(counted, destroyed);
  assert.equal(counted.get("1")?.lives, 0);
  // A robot with no lives left: out in roboracer, just destroyed (back at the end of the round) in roborace.
  const dead = bot("1", { lives: 0, at: null });
  assert.equal(seatState({ ...snap, ruleset: ROBORACER }, seats[0], dead).badge, "out");
  assert.deepEqual(seatState(snap, seats[0], dead, new Map([["1", "fell into a pit"]])),
    { notes: ["fell into a pit"], badge: "thinking" });
});

test("what a ruleset shows: roborace has no damage, lives or modules; roboracer is as it was", () => {
  const race = rulesOf(snap);
  assert.deepEqual(race, {
    name: "roborace", title: "RoboRace", named: true, numbered: true, damage: false, lives: false, modules: false,
    // fused and classic only (ruleset.ts BY_NAME)
    maxDamage: 10, hitPoints: false, lockedWord: "locked", powerDown: false, upgrades: false, options: {},
  });
  assert.equal(rulesText(race), "RoboRace · the larger card number acts first");
  assert.ok(!robotLegend(race).includes("lives") && !robotLegend(race).includes("damage"), robotLegend(race));
  for (const s of [{ ruleset: ROBORACER }, {}, { ruleset: null }] as Pick<Snapshot, "ruleset">[]) {
    const rules = rulesOf(s);
    assert.deepEqual([rules.name, rules.named, rules.numbered, rules.damage, rules.lives, rules.modules],
      ["roboracer", false, false, true, true, true]);
    assert.equal(rulesText(rules), "");
    assert.equal(robotLegend(rules),
      "Robot: seat colour and number, the nose shows its heading; ♥ lives, red badge damage; faded and dashed = virtual");
  }
  // A server that says so decides about damage.
  assert.equal(rulesOf({ ruleset: { ...ROBORACE, damage: true } }).damage, true);
});

test("the program hint speaks of cards and their numbers when cards are numbered", () => {
  assert.equal(programHint(false), programHint(false, false));
  assert.ok(programHint(false, true).startsWith("Click or drag a card"), programHint(false, true));
  assert.ok(programHint(true, true).includes("larger number acts first"));
  assert.ok(!/Keys|Enter/.test(programHint(true, true)));
});
