// My own clock beside Submit (issue 37, item 2): which time counts, and when it is low (the last 30 s).
import assert from "node:assert/strict";
import { test } from "node:test";
import { seatClock, timeLeft } from "../src/clock";
import { isLow, remaining, WARN_SECONDS } from "../src/myclock";

const T0 = Date.parse("2026-11-28T10:00:00Z");

test("the time that counts is move time first, then game time; a stopped clock never runs low", () => {
  const c = seatClock({ move_left: 40, game_left: 600, clock_running: true }, T0);
  assert.equal(remaining(timeLeft(c, T0)), 40);
  assert.equal(isLow(timeLeft(c, T0)), false);
  assert.equal(isLow(timeLeft(c, T0 + 10_500)), true); // 29.5 s of move time left
  assert.equal(WARN_SECONDS, 30);
  // On game time: the game time counts.
  assert.equal(remaining(timeLeft(c, T0 + 50_000)), 590);
  assert.equal(isLow(timeLeft(c, T0 + 50_000)), false);
  const stopped = seatClock({ move_left: 5, game_left: 0, clock_running: false }, T0);
  assert.equal(isLow(timeLeft(stopped, T0)), false);
  // A clock waiting for the animation (starts_in) is not low while it waits with its full time.
  const waiting = seatClock({ move_left: 120, game_left: 0, clock_running: true, starts_in: 10 }, T0);
  assert.equal(remaining(timeLeft(waiting, T0 + 5000)), 120);
});
