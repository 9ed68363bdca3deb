// Unit checks of what an arena and a puzzle score on screen (roboracer/seats.ts, roboracer/results.ts): no
// check points where the mode does not count them; the mode's own count instead.
import assert from "node:assert/strict";
import { test } from "node:test";
import { robotResults } from "../src/roboracer/results";
import { modeScore, scoresCheckpoints } from "../src/roboracer/seats";
import type { BotState, Snapshot } from "../src/types";

const bot = (id: string, extra: Partial<BotState> = {}): BotState =>
  ({ id, at: [1, 1], dir: "N", damage: 0, lives: 1, next_checkpoint: 1, ...extra }) as BotState;
const puzzle = (goal: { type: string; targets?: string[] }) =>
  ({ goal, goal_text: "", turn_limit: 3, players: 1, description: "", targets: [] });

test("races and check point puzzles count check points; arenas, destroy and survive puzzles do not", () => {
  assert.equal(scoresCheckpoints({ mode: "race" }), true);
  assert.equal(scoresCheckpoints({}), true);
  assert.equal(scoresCheckpoints({ mode: "arena" }), false);
  assert.equal(scoresCheckpoints({ mode: "puzzle", puzzle: puzzle({ type: "checkpoint" }) }), true);
  assert.equal(scoresCheckpoints({ mode: "puzzle", puzzle: puzzle({ type: "destroy", targets: ["crate"] }) }), false);
  assert.equal(scoresCheckpoints({ mode: "puzzle", puzzle: puzzle({ type: "survive" }) }), false);
});

test("the mode line counts robots left in an arena and targets left in a destroy puzzle", () => {
  const bots = [bot("1"), bot("2", { at: null, lives: 0 }), bot("3")];
  assert.equal(modeScore({ mode: "arena", status: "programming", bots }), "2 of 3 robots left");
  assert.equal(modeScore({ mode: "arena", status: "lobby", bots }), "");
  const crate = [bot("1"), bot("crate", { target: true })];
  const destroy = puzzle({ type: "destroy", targets: ["crate"] });
  assert.equal(modeScore({ mode: "puzzle", puzzle: destroy, status: "programming", bots: crate }), "1 of 1 target left");
  crate[1] = bot("crate", { target: true, at: null, lives: 0 });
  assert.equal(modeScore({ mode: "puzzle", puzzle: destroy, status: "finished", bots: crate }), "0 of 1 target left");
  assert.equal(modeScore({ mode: "race", status: "programming", bots }), "");
});

test("an arena's results table says how each robot fared instead of check points", () => {
  const snap = {
    mode: "arena", status: "finished", turn: 3, course: { elements: [] },
    bots: [bot("1", { lives: 1 }), bot("2", { at: null, lives: 0 })],
    seats: [{ number: 1, bot: "1", username: "alice" }, { number: 2, bot: "2", username: "bob" }],
    places: { "1": 1, "2": 2 }, winner: "1",
    standings: [{ place: 1, bot: "1", seat: 1, user: "alice", detail: "last bot alive" },
      { place: 2, bot: "2", seat: 2, user: "bob", detail: "out in turn 2" }],
  } as unknown as Snapshot;
  const table = robotResults(snap, 2);
  assert.deepEqual(table.columns[0], ["Survival", "col-score"]);
  const cells = Object.fromEntries(table.rows.map((r) => [r.bot, r.cells[0]]));
  assert.deepEqual(cells, { "1": "last bot alive", "2": "out in turn 2" });
  const race = robotResults({ ...snap, mode: "race" } as Snapshot, 2);
  assert.deepEqual(race.columns[0], ["Check points", "col-cp"]);
});
