import { test } from "node:test";
import assert from "node:assert/strict";
import { awardLines } from "../src/results";

test("awardLines names the winners from the table, else the award's players, with the figure", () => {
  const lines = awardLines([
    { award: "pacifist", title: "Pacifist robot: dealt the least damage", bots: ["1", "2"], players: ["a", "b"], value: 0 },
    { award: "clumsy", title: "Clumsy robot", bots: ["3"], players: ["carol"], value: 2 },
  ], [["1", "alice"], ["2", "bob"], ["3", "carol"]]);
  assert.deepEqual(lines.map((l) => [l.award, l.who]), [["pacifist", "alice, bob (0)"], ["clumsy", "carol (2)"]]);
  assert.equal(lines[0].title, "Pacifist robot: dealt the least damage");
});

test("awardLines ignores a missing or malformed list", () => {
  assert.deepEqual(awardLines(undefined, []), []);
  assert.deepEqual(awardLines([null, { title: "x" }], []), []);
});

test("an award every robot of the race shares is not shown", () => {
  const lines = awardLines([
    { award: "terminator", title: "Terminator robot", bots: ["1", "2"], value: 0 },
    { award: "clumsy", title: "Clumsy robot", bots: ["2"], value: 1 },
  ], [["1", "alice"], ["2", "bob"]]);
  assert.deepEqual(lines.map((l) => l.award), ["clumsy"]);
});
