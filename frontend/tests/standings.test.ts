// Unit checks of standings.ts: the results screen's rows. The engine's places win when the snapshot has
// them; without them the winner comes first, then check points reached, with ties sharing a place.
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkpointCount, competitionLink, ordinal, placesOf, resultRows, resultsSummary } from "../src/standings";
import type { BotState, Seat, Snapshot } from "../src/types";

function bot(id: string, next: number, lives = 3, damage = 0): BotState {
  return { id, at: [0, 0], dir: "N", damage, lives, next_checkpoint: next, virtual: false };
}

function seat(n: number, user: string, ejected = false): Seat {
  return { number: n, user, bot: String(n), color: "#123456", ready: false, ejected } as Seat;
}

function snap(bots: BotState[], seats: Seat[], winner: string | null, extra: object = {}): Snapshot {
  return {
    id: 1, status: "finished", turn: 4, version: 9, priority: [], me: null, can_join: false, can_start: false,
    course: { format: "x", name: "T", width: 8, height: 8, elements: [
      { type: "checkpoint", at: [1, 1], number: 1 }, { type: "checkpoint", at: [2, 2], number: 2 },
      { type: "checkpoint", at: [3, 3], number: 3 },
    ] },
    bots, seats, winner, ...extra,
  } as unknown as Snapshot;
}

test("without places: the winner first, then by check points, the same number sharing a place", () => {
  const s = snap(
    [bot("1", 2), bot("2", 4), bot("3", 2), bot("4", 3, 0), bot("5", 3)],
    [seat(1, "ann"), seat(2, "bob"), seat(3, "cy"), seat(4, "dee"), seat(5, "eve", true)],
    "2",
  );
  const rows = resultRows(s);
  assert.deepEqual(rows.map((r) => [r.bot, r.place, r.checkpoints]), [
    ["2", 1, 3], ["4", 2, 2], ["5", 2, 2], ["1", 4, 1], ["3", 4, 1],
  ]);
  assert.equal(rows[0].winner, true);
  assert.equal(rows[0].totalCheckpoints, 3);
  assert.equal(rows.find((r) => r.bot === "4")?.note, "out of lives");
  assert.equal(rows.find((r) => r.bot === "5")?.note, "forfeited");
  assert.equal(rows.find((r) => r.bot === "1")?.name, "ann");
});

test("the snapshot's places are used as they are, ties included", () => {
  const s = snap([bot("1", 1), bot("2", 3), bot("3", 2)], [seat(1, "ann"), seat(2, "bob"), seat(3, "cy")], "2",
    { places: { 1: 1, 2: 2, 3: 2 } });
  assert.deepEqual(placesOf(s), new Map([["1", 1], ["2", 2], ["3", 2]]));
  assert.deepEqual(resultRows(s).map((r) => [r.bot, r.place]), [["1", 1], ["2", 2], ["3", 2]]);
  assert.equal(placesOf(snap([], [], null, { places: "nonsense" })), null);
});

test("check points are capped at the course's count; ordinals", () => {
  const s = snap([bot("1", 9)], [seat(1, "ann")], "1");
  assert.equal(checkpointCount(s), 3);
  assert.equal(resultRows(s)[0].checkpoints, 3);
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
});

test("a drone is not ranked: only its owner has a row", () => {
  const drone = { ...bot("1.drone", 3), drone_of: "1" };
  const rows = resultRows(snap([bot("1", 3), bot("2", 2), drone], [seat(1, "ada"), seat(2, "bo")], "1"));
  assert.deepEqual(rows.map((r) => r.bot), ["1", "2"]);
});

test("an aborted game's summary says it was aborted, never that someone wins", () => {
  const rows = [{ bot: "1", name: "ann", place: 1, winner: true }, { bot: "2", name: "bob", place: 2, winner: false }];
  assert.equal(resultsSummary(rows, "1", 0, true), "Game aborted after 0 turns: fewer than two players moved. You take 1st place.");
  assert.equal(resultsSummary(rows, "2", 1, true), "Game aborted after 1 turn: fewer than two players moved. ann takes 1st place.");
  assert.equal(resultsSummary(rows, "1", 4), "You win after 4 turns.");
  assert.equal(resultsSummary(rows, null, 4), "ann wins after 4 turns.");
  const tied = [{ bot: "1", name: "ann", place: 1, winner: false }, { bot: "2", name: "bob", place: 1, winner: false }];
  assert.equal(resultsSummary(tied, "1", 3), "The race is over after 3 turns.");
  assert.equal(resultsSummary(tied, "1", 0, true), "Game aborted after 0 turns: fewer than two players moved.");
});

test("a tournament table's results lead back to its tournament", () => {
  const s = snap([], [], null, { competition: { kind: "tournament", name: "Spring Cup", url: "/tournaments/3/" } });
  assert.deepEqual(competitionLink(s), { url: "/tournaments/3/", text: "Back to the tournament: Spring Cup" });
  assert.equal(competitionLink(snap([], [], null, { competition: null })), null);
  assert.equal(competitionLink(snap([], [], null, { competition: { kind: "tournament", name: "x", url: "https://evil.example/" } })), null);
});

test("a finished competition game says what its result did, named with its round and table", async () => {
  const { competitionResult } = await import("../src/standings");
  const snap = (competition: unknown) => ({ competition }) as unknown as import("../src/types").Snapshot;
  assert.equal(competitionResult(snap({ kind: "tournament", name: "Spring Cup", url: "/t/1/", context: "round 2, table 1",
    result: "ann advances to round 3" })), "Spring Cup, round 2, table 1: ann advances to round 3.");
  assert.equal(competitionResult(snap({ kind: "Pyramid", name: "The Pyramid", url: "/p/", result: "" })), "");
  assert.equal(competitionResult(snap(null)), "");
  assert.equal(competitionResult(snap({ name: "X", url: "/", result: "No winner" })), "X: No winner.");
});

test("a robot alone takes no place: the summary says whether it completed the course", () => {
  const lost = [{ bot: "1", name: "ann", place: 1, winner: false }];
  assert.equal(resultsSummary(lost, "1", 3), "Over after 3 turns: your robot did not complete the course.");
  assert.equal(resultsSummary(lost, "1", 3, true), "Over after 3 turns: your robot did not complete the course.");
  assert.equal(resultsSummary(lost, null, 1), "Over after 1 turn: ann did not complete the course.");
  assert.equal(resultsSummary([{ ...lost[0], winner: true }], "1", 5), "You completed the course in 5 turns.");
});
