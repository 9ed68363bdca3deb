// Unit checks of the turn log's words when no robot is on the board (issue 33): roborace's `space_order` and
// classic's `register_order` list the robots on the board, so an empty list means every robot was destroyed
// earlier in the phase. The log then says so, instead of "Spaces act" with no order, which claimed that
// spaces acted on someone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { registerOrderText, spaceOrderText, TurnLog, turnPriority } from "../src/log";
import { rulesOf } from "../src/ruleset";
import type { EngineEvent, RulesetInfo, Seat, Snapshot } from "../src/types";
import { FakeElement, installFakeDocument } from "./fakedom";

installFakeDocument();

const ROBORACE: RulesetInfo = {
  name: "roborace", title: "RoboRace", document: "004", numbered: true, max_damage: 10, damage: false, counts_lives: false,
  modules: false, options: {},
};
const seats = [
  { number: 1, user: "Alice", bot: "1", color: "#f00", ready: false, ejected: false },
  { number: 2, user: "Bob", bot: "2", color: "#00f", ready: false, ejected: false },
] as unknown as Seat[];
const snap = { status: "programming", seats, me: null, ruleset: ROBORACE } as unknown as Snapshot;

const rr = (e: Record<string, unknown>) => ({ phase: 1, step: "cards", ...e }) as unknown as EngineEvent;

function rowsOf(events: EngineEvent[]): string[] {
  const parent = new FakeElement("DIV");
  const log = new TurnLog(parent as unknown as HTMLElement);
  log.setRules(rulesOf(snap));
  log.start("Turn 1 log", turnPriority(events));
  for (const e of events) log.add(snap, e);
  const table = (log.el as unknown as FakeElement).find("rr-log") as FakeElement;
  return table.all().filter((e) => e.tagName === "TR").slice(1).map((tr) => tr.children.map((c) => c.textContent).join("|"));
}

test("an empty space order says that no robot is on the board and no space acts", () => {
  assert.equal(spaceOrderText(snap, []), "No robot on the board: no space acts");
  // The words never claim an order or that spaces acted.
  assert.ok(!/in this order/.test(spaceOrderText(snap, [])));
  assert.notEqual(spaceOrderText(snap, []), "Spaces act");
  // A robot on the board still gets its order.
  assert.equal(spaceOrderText(snap, ["1"]), "Spaces act in this order: Alice");
});

test("an empty register order says that no robot is on the board and no robot acts", () => {
  assert.equal(registerOrderText(snap, []), "No robot on the board: no robot acts");
  assert.equal(registerOrderText(snap, ["2"]), "Robots act in this order: Bob");
});

test("both robots off the board in phase 1: every phase's course line says no space acts", () => {
  // Both back up off the bottom edge with their first cards (the failure of issue 33).
  const events: EngineEvent[] = [
    rr({ type: "chip", bot: "2", chip: "B", number: 47 }),
    rr({ type: "moved", bot: "2", from: [5, 11], to: [5, 12] }),
    rr({ type: "destroyed", bot: "2", at: [5, 12], cause: "off_board" }),
    rr({ type: "chip", bot: "1", chip: "B", number: 44 }),
    rr({ type: "moved", bot: "1", from: [2, 11], to: [2, 12] }),
    rr({ type: "destroyed", bot: "1", at: [2, 12], cause: "off_board" }),
  ];
  for (const phase of [1, 2, 3, 4, 5]) events.push(rr({ type: "space_order", bot: null, order: [], phase, step: "spaces" }));
  const rows = rowsOf(events);
  const course = rows.filter((r) => r.includes("|Course|"));
  assert.deepEqual(course, [1, 2, 3, 4, 5].map((phase) => `${phase}|Course|||No robot on the board: no space acts||`));
  assert.ok(rows.every((r) => !r.includes("Spaces act")), rows.join("\n"));
});
