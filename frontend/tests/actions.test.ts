// Unit checks of the Start question (actions.ts): starting with empty seats asks first; a full game does not.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startQuestion } from "../src/actions";

test("starting with empty seats asks, naming how many players there are", () => {
  assert.equal(startQuestion(1, 3), "Start now with 1 of 3 players? The empty seats will be closed.");
  assert.equal(startQuestion(2, 3), "Start now with 2 of 3 players? The empty seats will be closed.");
  assert.equal(startQuestion(3, 3), null);
  assert.equal(startQuestion(null, null), "Start now? Any empty seats will be closed.");
});

test("alone in a rated game, the question says a game with one player is not rated (docs/ratings.md)", () => {
  assert.equal(startQuestion(1, 3, true),
    "Start now with 1 of 3 players? The empty seats will be closed, and a game with one player is not rated.");
  assert.equal(startQuestion(1, 3, false), "Start now with 1 of 3 players? The empty seats will be closed.");
  assert.equal(startQuestion(2, 3, true), "Start now with 2 of 3 players? The empty seats will be closed.");
});
