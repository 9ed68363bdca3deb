// Unit checks of the words the game screen shows players (issue 13): a robot that touched the last check
// point is "all check points reached", not "next check point 4 of 3"; a preset without game time says
// "no game time", not "none game time".
import assert from "node:assert/strict";
import { test } from "node:test";
import { timersText } from "../src/clock";
import { commandText } from "../src/chat";
import { ejectedNotice, expiredNotice, seatNames } from "../src/panel";
import { checkpointCount, checkpointStat, statusText } from "../src/roboracer/seats";
import type { Snapshot } from "../src/types";

const course = (numbers: number[]) => ({
  course: { elements: [{ type: "pit", at: [0, 0] }, ...numbers.map((n, i) => ({ type: "checkpoint", at: [i, 1], number: n }))] },
}) as unknown as Pick<Snapshot, "course">;

test("the panel counts the course's check points", () => {
  assert.equal(checkpointCount(course([1, 3, 2])), 3);
  assert.equal(checkpointCount(course([])), 0);
  assert.equal(checkpointCount({ course: undefined } as unknown as Pick<Snapshot, "course">), 0);
});

test("a robot's check point progress never reads past the last one", () => {
  assert.deepEqual(checkpointStat(1, 3), ["next check point", "1 of 3"]);
  assert.deepEqual(checkpointStat(3, 3), ["next check point", "3 of 3"]);
  assert.deepEqual(checkpointStat(4, 3), ["all check points", "reached"]);
  assert.deepEqual(checkpointStat(2, 0), ["next check point", "2"]); // course unknown: the number alone
});

test("timer settings without game time say so in words", () => {
  assert.equal(timersText({ preset: "custom", move: 300, game: 0, policy: "eject" }),
    "Custom timers: 5 min a move, no game time · out of game time: ejected at once");
  assert.ok(!timersText({ preset: "custom", move: 300, game: 0, policy: "wait" }).includes("none"));
});

const seats = {
  seats: [
    { number: 1, user: "ada", display_name: "Ada L" }, { number: 2, user: "bo", display_name: "" },
    { number: 3, user: "cy", display_name: "Cy" },
  ],
} as unknown as Pick<Snapshot, "seats">;

test("ejection and time-out notices name the players and call leaving a forfeit", () => {
  assert.equal(ejectedNotice(seats, { seats: [2], by: "ada", reason: "game time ran out" }),
    "bo forfeits: out of game time, ejected by Ada L.");
  assert.equal(ejectedNotice(seats, { seats: [2, 3], by: "timer", reason: "game time ran out" }),
    "bo and Cy forfeit: out of game time, ejected automatically.");
  assert.equal(ejectedNotice(seats, { seats: [1], by: "ada", reason: "resigned" }), "Ada L forfeited (resigned).");
  assert.equal(ejectedNotice(seats, { seats: [3], by: "staff", reason: "ejected by root" }), "Cy forfeits: ejected by a moderator.");
  assert.equal(ejectedNotice(seats, { seats: [7], by: "timer" }), "seat 7 forfeits: out of game time, ejected automatically.");
  assert.equal(expiredNotice(seats, [1, 2, 3], "wait"), "Ada L, bo and Cy have run out of game time. Any player may now send !eject.");
  assert.equal(expiredNotice(seats, [3], "eject"), "Cy has run out of game time.");
});

test("the !eject answer names the players when the game screen gives their names", () => {
  assert.equal(commandText({ command: "eject", ejected: [2, 3] }, (numbers) => seatNames(seats, numbers)),
    "Ejected bo and Cy: out of game time, they forfeit.");
});

test("the status line of an aborted game names no winner", () => {
  const finished = {
    status: "finished", turn: 1, winner: "2", aborted: true, me: null, bots: [],
    seats: [{ number: 1, user: "ann", bot: "1", color: "#123456", ready: false }, { number: 2, user: "bob", bot: "2", color: "#654321", ready: false }],
  } as unknown as Snapshot;
  assert.equal(statusText(finished, false), "Aborted — bob takes 1st place");
  assert.equal(statusText({ ...finished, aborted: false } as Snapshot, false), "Finished — bob wins");
  assert.equal(statusText({ ...finished, winner: null } as unknown as Snapshot, false), "Aborted");
});
