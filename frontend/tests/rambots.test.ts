// RAMbots (kinds.ts, src/rambots/): what each engine event does to the public state, the turn's groups and
// words, the program and goal-stack building, the status line. Pure modules only (no DOM).
import assert from "node:assert/strict";
import { test } from "node:test";
import { groupRamEvents } from "../src/rambots/animate";
import { describeTurn } from "../src/rambots/log";
import { applyRamEvent, cloneState, objectAt, precedenceOrder, readMe, sortPieces } from "../src/rambots/model";
import { GoalModel, MAX_INSTRUCTIONS, ProgramModel } from "../src/rambots/program";
import { ramStatusText, stateOf, waitingFor } from "../src/rambots/status";
import { parsePiece } from "../src/rambots/types";
import { kindOf } from "../src/kinds";
import type { EngineEvent } from "../src/types";
import { BEFORE, ROUND2, snapshot } from "./rambots-fixture";

const ev = (type: string, fields: Record<string, unknown> = {}): EngineEvent => ({ type, ...fields }) as unknown as EngineEvent;

test("the kind registry: a missing or unknown kind is RoboRacer", () => {
  assert.equal(kindOf({ kind: "rambots" }), "rambots");
  assert.equal(kindOf({}), "roboracer");
  assert.equal(kindOf({ kind: "chess" }), "roboracer");
  assert.equal(kindOf(null), "roboracer");
});

test("a whole round of events leaves every piece, pool, goal and the precedence where the engine put them", () => {
  const s = cloneState(BEFORE);
  for (const e of ROUND2) applyRamEvent(s, e);
  const bot = (id: string) => s.players.find((p) => p.id === id)!;
  const beacon = (c: string) => s.beacons.find((b) => b.colour === c)!;
  assert.deepEqual([bot("1").bot.at, bot("1").bot.dir], [[3, 2], "N"]);
  assert.deepEqual([bot("2").bot.at, bot("2").bot.dir], [[5, 1], "up"]);
  assert.deepEqual([bot("3").bot.at, bot("3").bot.dir], [[5, 2], "N"]);
  assert.deepEqual([beacon("red").at, beacon("red").dir], [[4, 1], "E"]);
  assert.deepEqual([beacon("yellow").at, beacon("yellow").dir], [[5, 0], "N"]);
  assert.deepEqual([beacon("green").at, beacon("green").dir], [[4, 2], "up"]);
  assert.deepEqual([beacon("blue").at, beacon("blue").dir], [[4, 4], "W"]);
  // Red tagged its green goal: the piece joins its pool and its next goal shows (it knows its whole stack).
  assert.deepEqual([bot("1").tagged, bot("1").goals_left, bot("1").goal_top], [2, 2, "S-blue"]);
  assert.deepEqual(bot("1").goals, ["S-blue", "L-yellow"]);
  assert.ok(bot("1").pool.includes("M-green"));
  // Green RAMmed Blue and stole its S-blue.
  assert.ok(!bot("2").pool.includes("S-blue"));
  assert.equal(bot("3").pool.filter((p) => p === "S-blue").length, 1);
  assert.deepEqual(s.precedence, ["green", "yellow", "red", "blue"]);
  // The fixture itself is untouched.
  assert.deepEqual(BEFORE.players[0].bot.at, [2, 5]);
});

test("each event type on its own", () => {
  const s = cloneState(BEFORE);
  assert.equal(applyRamEvent(s, ev("moved", { object: "beacon:red", from: [3, 3], to: [3, 2], dir: "N", cause: "beam" })), false);
  assert.deepEqual(s.beacons[0].at, [3, 2]);
  applyRamEvent(s, ev("reoriented", { object: "bot:3", from: "up", to: "S" }));
  assert.equal(s.players[2].bot.dir, "S");
  applyRamEvent(s, ev("tipped", { object: "beacon:green", from: "up", to: "W" }));
  assert.equal(s.beacons[2].dir, "W");
  applyRamEvent(s, ev("set_upright", { object: "bot:1", from: "N" }));
  assert.equal(s.players[0].bot.dir, "up");
  assert.equal(applyRamEvent(s, ev("stolen", { from: "1", to: "2", piece: "L-red" })), true);
  assert.ok(!s.players[0].pool.includes("L-red"));
  assert.ok(s.players[1].pool.includes("L-red"));
  // A player whose stack this browser does not know: the next top comes with the event, or stays unknown.
  applyRamEvent(s, ev("tagged", { player: "2", piece: "S-red", object: "beacon:red", next_top: "M-yellow" }));
  assert.deepEqual([s.players[1].goal_top, s.players[1].goals_left, s.players[1].tagged], ["M-yellow", 3, 1]);
  applyRamEvent(s, ev("tagged", { player: "3", piece: "L-blue", object: "bot:1" }));
  assert.deepEqual([s.players[2].goal_top, s.players[2].goals_left], [null, 1]);
  applyRamEvent(s, ev("precedence_rotated", {}));
  assert.deepEqual(s.precedence, ["green", "yellow", "red", "blue"]);
  assert.equal(applyRamEvent(s, ev("removed", { player: "2" })), true);
  assert.deepEqual([s.players[1].out, s.players[1].bot.at], [true, null]);
  applyRamEvent(s, ev("won", { player: "3" }));
  assert.deepEqual([s.winner, s.phase], ["3", "over"]);
  // Events that change nothing lasting, unknown types and unknown objects.
  const before = JSON.stringify(s);
  for (const e of [ev("instruction", { player: "1", piece: "S-red", dir: "N", step: 1 }), ev("blocked", { object: "bot:1", dir: "N" }),
    ev("rammed", { by: "1", object: "bot:2" }), ev("beam", { player: "1", colour: "red", from: [0, 0], dir: "N", hit: null, at: null }),
    ev("teleported", { object: "bot:1", to: [0, 0] }), ev("moved", { object: "bot:9", to: [0, 0] }), ev("moved", { object: "wall", to: [0, 0] })]) {
    assert.equal(applyRamEvent(s, e), false, e.type);
  }
  assert.equal(JSON.stringify(s), before);
});

test("the goal step's reveal shows every top and ends the goal phase", () => {
  const s = cloneState({ ...BEFORE, phase: "goals", round: 0, players: BEFORE.players.map((p) => ({ ...p, goal_top: null, goals_built: false })) });
  applyRamEvent(s, ev("goal_stacks_revealed", { tops: { 1: "S-green", 2: "L-red", 3: "M-yellow" } }));
  assert.deepEqual(s.players.map((p) => p.goal_top), ["S-green", "L-red", "M-yellow"]);
  assert.equal(s.phase, "programming");
});

test("unreadable state and me become empty, not a crash", () => {
  const s = cloneState({ players: [{ id: 2, colour: "purple", bot: null, pool: ["S-red", 7] }], beacons: "x" });
  assert.deepEqual([s.players[0].id, s.players[0].colour, s.players[0].bot.at, s.players[0].pool], ["2", "red", null, ["S-red"]]);
  assert.deepEqual(s.beacons, []);
  assert.deepEqual(s.precedence, ["red", "yellow", "green", "blue"]);
  assert.equal(readMe(null), null);
  assert.deepEqual(readMe({ program: [{ piece: "S-red", dir: "sideways" }], compiled: true })?.program, [{ piece: "S-red", dir: "up" }]);
});

test("the seat list follows the precedence stack; pieces sort smallest first, then by precedence", () => {
  const s = cloneState(BEFORE);
  assert.deepEqual(precedenceOrder(s), ["2", "3", "1"]); // blue, green, (yellow), red
  assert.deepEqual(sortPieces(["L-red", "S-red", "M-blue", "S-blue", "S-green"], s.precedence), ["S-blue", "S-green", "S-red", "M-blue", "L-red"]);
  assert.equal(objectAt(s, [3, 4]), "beacon:green");
  assert.equal(objectAt(s, [2, 5]), "bot:1");
  assert.equal(objectAt(s, [0, 0]), null);
  assert.deepEqual(parsePiece("M-yellow"), { size: "M", colour: "yellow" });
  assert.equal(parsePiece("X-red"), null);
});

test("a round plays one instruction at a time; the turn's own events alone", () => {
  const groups = groupRamEvents(ROUND2);
  const instructions = ROUND2.filter((e) => e.type === "instruction").length;
  assert.equal(instructions, 11);
  assert.equal(groups.length, instructions + 1);
  assert.ok(groups.slice(0, -1).every((g) => g[0].type === "instruction"));
  assert.equal(groups[groups.length - 1][0].type, "precedence_rotated");
  assert.equal(groups.flat().length, ROUND2.length);
  // Before the first instruction (the goal step's reveal): a group of its own.
  assert.deepEqual(groupRamEvents([ev("goal_stacks_revealed", { tops: {} }), ev("instruction", {}), ev("moved", {})]).map((g) => g.length), [1, 2]);
});

test("the turn log says each instruction in words", () => {
  const lines = describeTurn(cloneState(BEFORE), ROUND2);
  assert.equal(lines.length, 12); // 11 instructions and the precedence (the unknown event is left out)
  assert.deepEqual([lines[0].player, lines[0].instruction, lines[0].text], ["1", "small blue N", "moves 1, fires a blue beam (push): no hit"]);
  assert.equal(lines[2].text, "tips down facing W, moves 2, fires a yellow beam (pull): no hit");
  assert.equal(lines[3].text, "turns E, pushes the blue beacon, pushes the green beacon, moves 1, RAMs the green beacon, " +
    "tips the green beacon over (E), tags the green goal, fires a green beam (activate) at the green beacon, sets the green beacon upright");
  assert.equal(lines[4].instruction, "small yellow upright");
  assert.match(lines[4].text, /^backs up 1, fires a yellow beam \(pull\) at the blue beacon, the blue beacon moves 1$/);
  const green = lines[10];
  assert.equal(green.instruction, "large green N");
  assert.match(green.text, /RAMs Blue's bot, steals small blue/);
  assert.match(green.text, /pushes Blue's bot 2/);
  assert.match(green.text, /moves 3/);
  assert.equal(lines[11].player, null);
  assert.match(lines[11].text, /green, yellow, red, blue/);
  assert.match(describeTurn(cloneState(BEFORE), [ev("won", { player: "2" })])[0].text, /^Blue wins/);
});

test("building a program: tap to add (five at most, each piece once), point, rotate, reorder, take back", () => {
  const pool = ["S-red", "S-red", "M-blue", "L-green", "S-yellow", "M-yellow"];
  const m = new ProgramModel(pool);
  assert.equal(m.add(0, "N"), true);
  assert.equal(m.add(0, "E"), false, "the same piece twice");
  assert.equal(m.add(1, "E"), true, "the other S-red");
  assert.equal(m.add(99, "E"), false);
  for (const i of [2, 3, 4]) assert.equal(m.add(i, "S"), true);
  assert.equal(m.slots.length, MAX_INSTRUCTIONS);
  assert.equal(m.add(5, "W"), false, "a sixth instruction");
  assert.equal(m.rotate(0), true);
  assert.equal(m.slots[0].dir, "E");
  m.setDir(2, "up");
  m.rotate(2);
  assert.equal(m.slots[2].dir, "N", "upright rotates back to N");
  assert.equal(m.move(0, 1), true);
  assert.equal(m.move(0, -1), false);
  assert.deepEqual(m.program().map((i) => `${i.piece} ${i.dir}`), ["S-red E", "S-red E", "M-blue N", "L-green S", "S-yellow S"]);
  assert.equal(m.remove(2), true);
  assert.equal(m.add(2, "W"), true, "a piece taken back can be laid out again");
  assert.deepEqual([...m.used()].sort(), [0, 1, 2, 3, 4]);
  assert.equal(m.equals(m.program()), true);
  assert.equal(m.equals([]), false);
});

test("a program from the server is matched to the pool, duplicates to different pieces, missing pieces dropped", () => {
  const m = ProgramModel.from(["S-red", "M-blue", "S-red"], [
    { piece: "S-red", dir: "N" }, { piece: "S-red", dir: "up" }, { piece: "L-green", dir: "E" }, { piece: "M-blue", dir: "W" },
  ]);
  assert.deepEqual(m.slots.map((s) => [s.index, s.dir]), [[0, "N"], [2, "up"], [1, "W"]]);
});

test("building a goal stack: one piece of each colour, top first", () => {
  const g = new GoalModel(["S-red", "M-red", "L-blue", "S-green", "M-yellow", "L-yellow"]);
  assert.equal(g.pick(1), true);
  assert.equal(g.pick(0), false, "a second red");
  assert.equal(g.canPick(0), false);
  assert.equal(g.complete(), false);
  assert.deepEqual(g.missing(), ["yellow", "green", "blue"]);
  for (const i of [2, 3, 5]) assert.equal(g.pick(i), true);
  assert.equal(g.complete(), true);
  assert.deepEqual(g.goals(), ["M-red", "L-blue", "S-green", "L-yellow"]);
  assert.equal(g.move(3, -1), true);
  assert.deepEqual(g.goals(), ["M-red", "L-blue", "L-yellow", "S-green"]);
  assert.equal(g.remove(0), true);
  assert.equal(g.complete(), false);
  assert.equal(g.pick(0), true, "red again, now the S");
  assert.deepEqual(g.goals(), ["L-blue", "L-yellow", "S-green", "S-red"]);
});

test("the status line: the goal step, a round, the end", () => {
  const goalSnap = snapshot({ turn: 0 }, { ...BEFORE, phase: "goals", round: 0 });
  assert.equal(waitingFor(goalSnap), 2);
  assert.equal(ramStatusText(goalSnap, stateOf(goalSnap), false), "Goal stacks — waiting for 2 players");
  const round = snapshot();
  assert.equal(ramStatusText(round, stateOf(round), false), "Round 2 — programming");
  assert.equal(ramStatusText(round, stateOf(round), true), "Round 2 — bots running");
  const over = snapshot({ status: "finished", winner: "3" }, { ...BEFORE, phase: "over", winner: "3" });
  assert.equal(ramStatusText(over, stateOf(over), false), "Finished — cyrano wins");
});

test("the log names pieces in words, never codes like M-yellow", () => {
  const lines = describeTurn(cloneState(BEFORE), [
    ev("goal_stacks_revealed", { tops: { 1: "M-yellow" } }),
    ev("instruction", { player: "1", piece: "M-yellow", dir: "E", step: 1 }),
    ev("stolen", { from: "2", to: "1", piece: "L-red" }),
  ]);
  assert.match(lines[0].text, /must tag medium yellow first/);
  assert.equal(lines[1].instruction, "medium yellow E");
  assert.match(lines[1].text, /steals large red/);
  for (const l of lines) assert.doesNotMatch(`${l.instruction} ${l.text}`, /\b[SML]-[a-z]/);
});
