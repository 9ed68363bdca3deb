// Unit checks of the Start question (actions.ts): starting with empty seats asks first; a full game does not.
// And the forfeit question: what forfeiting does, given the robots left.
import assert from "node:assert/strict";
import { test } from "node:test";
import { confirmText, forfeitQuestion, rivalsLeft, startQuestion } from "../src/actions";
import type { Snapshot } from "../src/types";

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

// The forfeit question says what forfeiting does with the robots left (it used to say "the game goes on
// without you" even when one opponent was left and the game ended at once).

function racing(seats: { n: number; user: string; ejected?: boolean; team?: string; lives?: number; at?: [number, number] | null }[], me = 1, teams = false): Snapshot {
  return {
    status: "programming", teams,
    me: { seat: me, bot: String(me), hand: [], program: null, frozen: [] },
    seats: seats.map((s) => ({ number: s.n, user: s.user, bot: String(s.n), color: "#123456", ready: false,
      ejected: !!s.ejected, team: s.team ?? null })),
    bots: seats.map((s) => ({ id: String(s.n), at: s.at === undefined ? [0, 0] : s.at, dir: "N", damage: 0,
      lives: s.lives ?? 3, next_checkpoint: 1, virtual: false, team: s.team ?? null })),
  } as unknown as Snapshot;
}

test("in a two-player game forfeiting ends the game and names the winner", () => {
  const snap = racing([{ n: 1, user: "ann" }, { n: 2, user: "bob" }]);
  assert.equal(confirmText("leave", "programming", snap).question,
    "Forfeit? Your robot leaves the race and the game ends now: bob wins by forfeit.");
});

test("with more robots left the others race on, and robots already out do not count", () => {
  const snap = racing([{ n: 1, user: "ann" }, { n: 2, user: "bob" }, { n: 3, user: "cy" }, { n: 4, user: "dee", ejected: true },
    { n: 5, user: "eve", lives: 0, at: null }]);
  assert.deepEqual(rivalsLeft(snap).map((r) => r.name), ["bob", "cy"]);
  assert.equal(forfeitQuestion(rivalsLeft(snap)), "Forfeit? Your robot leaves the race; the other 2 robots race on without you.");
  const lastTwo = racing([{ n: 1, user: "ann" }, { n: 2, user: "bob" }, { n: 3, user: "cy", ejected: true }], 1);
  assert.equal(forfeitQuestion(rivalsLeft(lastTwo)), "Forfeit? Your robot leaves the race and the game ends now: bob wins by forfeit.");
});

test("in team play, leaving one team in the race ends the game for that team", () => {
  const snap = racing([{ n: 1, user: "ann", team: "blue" }, { n: 2, user: "bob", team: "orange" },
    { n: 3, user: "cy", team: "orange" }], 1, true);
  assert.equal(confirmText("leave", "programming", snap).question,
    "Forfeit? Your robot leaves the race and the game ends now: the Orange team wins.");
  const mixed = racing([{ n: 1, user: "ann", team: "blue" }, { n: 2, user: "bob", team: "orange" },
    { n: 3, user: "cy", team: "blue" }], 1, true);
  assert.equal(confirmText("leave", "programming", mixed).question,
    "Forfeit? Your robot leaves the race; the other 2 robots race on without you.");
});

test("leaving a lobby is not a forfeit", () => {
  assert.equal(confirmText("leave", "lobby").question, "Leave this game? Your seat is freed for someone else.");
});
