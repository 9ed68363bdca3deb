// Unit checks of the turn log's words (log.ts): no coordinates (the board has no labels for them), plain
// words for falls and wins, and no "next turn's priority" once the game is over. A fake DOM stands in.
import assert from "node:assert/strict";
import { test } from "node:test";
import { blockedText, destroyedText, distanceText, moveText, TurnLog, turnText, winnerText } from "../src/log";
import { seatState } from "../src/roboracer/seats";
import type { BotState, EngineEvent, Seat, Snapshot } from "../src/types";
import { FakeElement, installFakeDocument } from "./fakedom";

installFakeDocument();

const seats = [
  { number: 1, user: "Ada", bot: "1", color: "#f00", ready: false, ejected: false },
  { number: 2, user: "Ben", bot: "2", color: "#00f", ready: false, ejected: false },
] as unknown as Seat[];
const snap = { status: "programming", seats, me: null } as unknown as Snapshot;
const ev = (e: Record<string, unknown>) => ({ phase: 1, step: "chips", bot: "1", ...e }) as unknown as EngineEvent;

function logOf(events: EngineEvent[], s: Snapshot = snap): { log: TurnLog; text: string; footer: string } {
  const parent = new FakeElement("DIV");
  const log = new TurnLog(parent as unknown as HTMLElement);
  log.start("Turn 1 log", ["1", "2"]);
  for (const e of events) log.add(s, e);
  const el = log.el as unknown as FakeElement;
  return { log, text: el.find("rr-log")?.textContent ?? "", footer: el.find("rr-log-footer")?.textContent ?? "" };
}

test("distances and moves in words, north being up", () => {
  assert.equal(distanceText(0, -2), "2 squares north");
  assert.equal(distanceText(1, 0), "1 square east");
  assert.equal(distanceText(-1, 2), "2 squares south and 1 west");
  assert.equal(moveText("carried", 0, -2), "carried 2 squares north by a belt");
  assert.equal(moveText("pushed", 1, 0, "Ada"), "pushed 1 square east by Ada");
  assert.equal(turnText("N", "E", "belt"), "turned right (belt)");
  assert.equal(turnText("N", "W", "chip"), "turned left");
  assert.equal(turnText("E", "W", undefined), "turned around");
  assert.equal(blockedText("N", "wall"), "blocked by a wall going north");
});

test("falls and wins in plain words", () => {
  assert.equal(destroyedText("pit"), "fell into a pit");
  assert.equal(destroyedText("edge"), "fell off the board");
  assert.equal(destroyedText("bot laser"), "destroyed by a robot's laser");
  assert.equal(destroyedText("something new"), "destroyed");
  assert.equal(winnerText("last bot alive"), "wins (last robot left)");
  assert.ok(!winnerText("last bot in the race").includes("bot"));
});

test("a run of moves reads as one distance, and no coordinates show", () => {
  const { text, log } = logOf([
    ev({ type: "chip", chip: "2" }),
    ev({ type: "moved", from: [1, 7], to: [1, 6] }), ev({ type: "moved", from: [1, 6], to: [1, 5] }),
    ev({ phase: 2, type: "moved", from: [0, 7], to: [-1, 7] }),
    ev({ phase: 2, type: "destroyed", cause: "edge", at: [-1, 7] }),
    ev({ phase: 3, bot: "2", type: "destroyed", cause: "pit", at: [3, 3] }),
    ev({ phase: 3, step: "bot_lasers", type: "damaged", amount: 1, damage: 1, cause: "bot laser" }),
  ]);
  assert.ok(text.includes("+1 robot laser (now 1)") && !/\bbot laser/.test(text), text);
  assert.ok(text.includes("moved 2 squares north"), text);
  assert.ok(text.includes("moved 1 square west") && text.includes("fell off the board"), text);
  assert.ok(!/\(-?\d+,-?\d+\)|→|edge/.test(text), text);
  assert.equal(log.destroyed.get("2"), "fell into a pit");
});

test("next turn's priority shows during a game, not once it is won or finished", () => {
  const priority = ev({ phase: 5, step: "priority", bot: null, type: "priority", order: ["2", "1"] });
  assert.equal(logOf([priority]).footer, "Next turn's priority: Ben, Ada");
  const won = logOf([ev({ phase: 5, step: "winning", type: "winner", reason: "last bot alive" }), priority]);
  assert.equal(won.footer, "");
  assert.ok(won.text.includes("wins (last robot left)"), won.text);
  const later = logOf([priority]);
  later.log.setFinished(true); // e.g. the last rival forfeited after this turn
  assert.equal((later.log.el as unknown as FakeElement).find("rr-log-footer")?.textContent, "");
});

const bot = (extra: Partial<BotState> = {}): BotState =>
  ({ id: "2", at: [1, 1], dir: "N", damage: 0, lives: 3, next_checkpoint: 1, virtual: false, ...extra }) as BotState;

test("the robot list: a forfeit is one 'forfeited' badge; a fallen robot says how it fell", () => {
  const forfeited = { ...seats[1], ejected: true } as Seat;
  assert.deepEqual(seatState({ status: "finished", me: null }, forfeited, bot({ lives: 0, at: null })),
    { notes: [], badge: "forfeited" });
  assert.deepEqual(seatState({ status: "programming", me: null }, seats[1], bot({ at: null }), new Map([["2", "fell into a pit"]])),
    { notes: ["fell into a pit"], badge: "thinking" });
  assert.deepEqual(seatState({ status: "programming", me: null }, seats[1], bot({ at: null })).notes, ["destroyed"]);
  assert.deepEqual(seatState({ status: "finished", me: null }, seats[1], bot({ lives: 0, at: null })),
    { notes: ["out of the game"], badge: "out" });
});

test("a mirror broken by a bomb is the course's line, with no robot and no 'null'", () => {
  const { text } = logOf([
    ev({ phase: 5, step: "bombs", bot: "1.bomb", type: "bomb_exploded", owner: "1", at: [3, 3] }),
    ev({ phase: 5, step: "bombs", bot: null, type: "mirror_broken", at: [4, 2], cause: "bomb" }),
    ev({ phase: 2, bot: "2", type: "mirror_broken", at: [5, 5] }),
  ]);
  assert.ok(text.includes("Course") && text.includes("a bomb broke a mirror"), text);
  assert.ok(text.includes("Benbroke a mirror"), text); // a robot that broke one keeps its own words (row: Ben)
  assert.ok(!/null|undefined/.test(text), text);
});
