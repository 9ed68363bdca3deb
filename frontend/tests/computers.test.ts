// Unit checks of the computer players' words and badge (issue 20): how a computer seat, a seat under
// autopilot, their events and the lobby's "Play against the computer" choices read.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  AUTOPILOT_BANNER, AUTOPILOT_NOTE, autopilotBadge, autopilotNotice, computerBadge, computerLabel,
  fitOpponents, freeSeats, isComputer, opponentRange, strengthName, strengthsOf,
} from "../src/computers";
import { timersText } from "../src/clock";
import { expiredNotice } from "../src/panel";
import { FakeElement, installFakeDocument } from "./fakedom";
import type { Snapshot } from "../src/types";

installFakeDocument();
// The badge's robot icon is SVG: the fake document makes it one more element.
(globalThis as unknown as { document: Record<string, unknown> }).document.createElementNS =
  (_ns: string, tag: string) => new FakeElement(tag);

const snap = {
  status: "programming",
  max_seats: 3,
  me: { seat: 1 },
  seats: [
    { number: 1, user: "ada", display_name: "Ada L", computer: null, autopilot: false },
    { number: 2, user: "computer-normal-1", display_name: "Normal Computer 1", computer: "normal", autopilot: false },
    { number: 3, user: "bo", display_name: "", computer: null, autopilot: true },
  ],
} as unknown as Snapshot;

test("strengths read as words, the snapshot's list first", () => {
  assert.equal(strengthName("easy"), "Easy");
  assert.equal(strengthName("hard"), "Hard");
  assert.equal(strengthName("expert"), "Expert"); // a strength this client does not know yet
  assert.equal(strengthName(null), "");
  assert.deepEqual(strengthsOf({ computer_strengths: ["easy", "normal"] }), ["easy", "normal"]);
  assert.deepEqual(strengthsOf({}), ["easy", "normal", "hard"]);
});

test("a computer seat is one with a strength; a person under autopilot is not a computer", () => {
  assert.ok(isComputer(snap.seats[1]));
  assert.ok(!isComputer(snap.seats[0]));
  assert.ok(!isComputer(snap.seats[2]));
  assert.ok(!isComputer({ computer: undefined }));
  assert.ok(!isComputer(null));
  assert.equal(computerLabel(snap.seats[1]), "Computer · Normal");
});

test("the badge says Computer and the strength, with a robot icon and no markup", () => {
  const badge = computerBadge({ computer: "hard" }) as unknown as FakeElement;
  assert.equal(badge.textContent, "Computer · Hard");
  assert.equal(badge.dataset.computer, "hard");
  assert.ok(badge.classList.contains("seat-computer"));
  assert.ok(badge.all().some((e) => e.tagName === "svg" && e.getAttribute("aria-hidden") === "true"));
  const auto = autopilotBadge() as unknown as FakeElement;
  assert.equal(auto.textContent, AUTOPILOT_NOTE);
  assert.equal(AUTOPILOT_NOTE, "computer playing (time ran out)");
});

test("seat_autopilot events in plain words, by name", () => {
  assert.equal(autopilotNotice(snap, { seat: 3, on: true }),
    "bo ran out of time: a computer player plays their robot until they send a program again.");
  assert.equal(autopilotNotice(snap, { seat: 3, on: false }), "bo is back: they play their own robot again.");
  // My own seat: the banner says it while it lasts; the notice only says I am back.
  assert.equal(autopilotNotice(snap, { seat: 1, on: true }), "");
  assert.equal(autopilotNotice(snap, { seat: 1, on: false }), "You are back in control of your robot.");
  assert.equal(autopilotNotice(snap, { seat: 7, on: true }),
    "Seat 7 ran out of time: a computer player plays their robot until they send a program again.");
  assert.equal(autopilotNotice(snap, null), "");
  assert.match(AUTOPILOT_BANNER, /^Your time ran out: a computer player is playing your robot\. Send a program, or take it back now\.$/);
});

test("the open seats of a lobby, lowest first; none once the game runs", () => {
  const lobby = { status: "lobby", max_seats: 4, seats: [{ number: 1 }, { number: 3 }] } as unknown as Snapshot;
  assert.deepEqual(freeSeats(lobby), [2, 4]);
  assert.deepEqual(freeSeats({ ...lobby, status: "programming" }), []);
  assert.deepEqual(freeSeats({ ...lobby, max_seats: undefined }), []);
});

test("the lobby offers as many opponents as the course has room for", () => {
  assert.deepEqual(opponentRange("1", "4"), [1, 3]); // Tiny Yard: 1-4 players
  assert.deepEqual(opponentRange(4, 8), [3, 7]); // Twin Lanes: 4-8 players
  assert.equal(opponentRange(undefined, undefined), null);
  assert.equal(opponentRange(1, 1), null); // a course for one has no room for a computer
  assert.equal(fitOpponents(7, [1, 3]), 3);
  assert.equal(fitOpponents(1, [3, 7]), 3);
  assert.equal(fitOpponents(2, [1, 3]), 2);
});

test("the timer settings name the computer policy", () => {
  assert.equal(timersText({ preset: "realtime", move: 120, game: 600, policy: "computer" }),
    "Real-time timers: 2 min a move, 10 min game time · out of game time: a computer player plays the robot until its player sends a program again");
});

test("a seat out of time under the computer policy says who plays it", () => {
  assert.equal(expiredNotice(snap, [3], "computer"),
    "bo has run out of game time. A computer player plays for them until they send a program again.");
});
