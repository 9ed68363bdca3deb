// Unit checks of clock.ts: the time formats, the countdown (move time first, then game time), the
// offset between the browser's clock and the server's, vacation notes.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  clockOffset, clockText, formatDuration, humanDuration, localDate, seatClock, speakDuration, timeLeft, timersText,
  vacationText,
} from "../src/clock";

test("durations: m:ss under an hour, hours and minutes under a day, then days and hours", () => {
  assert.equal(formatDuration(0), "0:00");
  assert.equal(formatDuration(5), "0:05");
  assert.equal(formatDuration(59.2), "1:00"); // rounded up: 0:00 only when nothing is left
  assert.equal(formatDuration(247), "4:07");
  assert.equal(formatDuration(3599), "59:59");
  assert.equal(formatDuration(3600), "1h 0m");
  assert.equal(formatDuration(5 * 3600 + 12 * 60 + 30), "5h 12m");
  assert.equal(formatDuration(86399), "23h 59m");
  assert.equal(formatDuration(86400 + 4 * 3600 + 59), "1d 4h");
  assert.equal(formatDuration(14 * 86400), "14d 0h");
  assert.equal(formatDuration(-3), "0:00");
  assert.equal(formatDuration(null), "–");
  assert.equal(formatDuration(Number.NaN), "–");
  assert.equal(speakDuration(247), "4 minutes 7 seconds");
  assert.equal(speakDuration(1), "1 second");
  assert.equal(speakDuration(86400 + 3600), "1 day 1 hour");
});

const T0 = Date.parse("2026-11-23T10:00:00Z");

test("a running clock spends move time first, then game time, then expires", () => {
  const c = seatClock({ move_left: 30, game_left: 600, clock_running: true, expired: false }, T0);
  let t = timeLeft(c, T0 + 10_000);
  assert.deepEqual([t.move, t.game, t.onGameTime, t.running, t.expired], [20, 600, false, true, false]);
  assert.equal(clockText(t), "move 0:20 · game 10:00");
  t = timeLeft(c, T0 + 45_000); // 30 s of move time, then 15 s of game time
  assert.deepEqual([t.move, t.game, t.onGameTime], [0, 585, true]);
  assert.equal(clockText(t), "game 9:45");
  // A tournament's organiser holds the clocks: stopped, and said so.
  const held = seatClock({ move_left: 42, game_left: 300, clock_running: false, expired: false, paused: true }, 0);
  assert.equal(clockText(timeLeft(held, 60_000)), "move 0:42 · game 5:00 · paused");
  t = timeLeft(c, T0 + 700_000);
  assert.deepEqual([t.game, t.expired, t.running], [0, true, false]);
  assert.equal(clockText(t), "expired");
  // Before the report (a clock a little ahead of ours): nothing is spent.
  assert.equal(timeLeft(c, T0 - 5000).move, 30);
});

test("a clock that waits for the last turn's animation (starts_in) counts only after it", () => {
  const c = seatClock({ move_left: 120, game_left: 600, clock_running: true, expired: false, starts_in: 9.5 }, T0);
  assert.equal(c.startsIn, 9.5);
  assert.equal(timeLeft(c, T0 + 5_000).move, 120); // the animation is still playing: no time spent
  assert.equal(timeLeft(c, T0 + 9_500).move, 120);
  assert.equal(timeLeft(c, T0 + 19_500).move, 110); // ten seconds after it started
  assert.equal(seatClock({ move_left: 1, starts_in: -3, clock_running: true }, T0).startsIn, 0);
  assert.equal(seatClock({ move_left: 1, starts_in: "soon", clock_running: true }, T0).startsIn, 0);
});

test("a stopped clock does not move; an expired one says so; missing timers are left out", () => {
  const stopped = seatClock({ move_left: 12.5, game_left: 100, clock_running: false, expired: false }, T0);
  assert.deepEqual(timeLeft(stopped, T0 + 60_000), { move: 12.5, game: 100, onGameTime: false, running: false, expired: false });
  assert.equal(clockText(timeLeft(stopped, T0)), "move 0:13 · game 1:40");
  const expired = seatClock({ move_left: 0, game_left: 0, clock_running: false, expired: true }, T0);
  assert.equal(clockText(timeLeft(expired, T0)), "expired");
  const gameOnly = seatClock({ move_left: null, game_left: 90, clock_running: true }, T0);
  assert.equal(clockText(timeLeft(gameOnly, T0 + 30_000)), "game 1:00");
  const none = seatClock({}, T0);
  assert.equal(clockText(timeLeft(none, T0)), "");
});

test("the offset to the server's clock is taken at receipt, so a browser clock that is wrong does not matter", () => {
  const serverTime = "2026-11-23T10:00:00+00:00";
  const localNow = T0 - 90_000; // this browser's clock is 90 s slow
  const offset = clockOffset(serverTime, localNow);
  assert.equal(offset, 90_000);
  const c = seatClock({ move_left: 60, game_left: 0, clock_running: true }, Date.parse(serverTime));
  // 10 s later on the browser's clock: 10 s spent, whatever the browser's clock says.
  assert.equal(timeLeft(c, localNow + 10_000 + offset).move, 50);
  assert.equal(clockOffset("not a time", localNow), 0);
  assert.equal(clockOffset(undefined, localNow), 0);
});

test("vacation notes: current, ahead, over", () => {
  const v = { from: "2026-11-20", until: "2026-11-30" };
  assert.equal(vacationText(v, "2026-11-23"), "on vacation until 2026-11-30");
  assert.equal(vacationText(v, "2026-11-30"), "on vacation until 2026-11-30");
  assert.equal(vacationText(v, "2026-11-10"), "vacation 2026-11-20 to 2026-11-30");
  assert.equal(vacationText(v, "2026-12-01"), "");
  assert.equal(vacationText(null, "2026-11-23"), "");
  assert.equal(localDate(new Date(2026, 0, 5, 12)), "2026-01-05");
});

test("timer settings in words", () => {
  assert.equal(humanDuration(120), "2 min");
  assert.equal(humanDuration(5400), "1 h 30 min");
  assert.equal(humanDuration(86400), "1 day");
  assert.equal(humanDuration(15 * 86400), "15 days");
  assert.equal(humanDuration(45), "45 s");
  assert.equal(humanDuration(0), "none");
  assert.equal(timersText({ preset: "realtime", move: 120, game: 600, policy: "wait" }),
    "Real-time timers: 2 min a move, 10 min game time · out of game time: the others may !eject");
  assert.equal(timersText({ preset: "tournament", move: 3 * 86400, game: 15 * 86400, policy: "random" }),
    "Tournament timers: 3 days a move, 15 days game time · out of game time: a random program is played");
  assert.equal(timersText(null), "");
  assert.equal(timersText({ preset: "custom" }), "");
});

test("a solo game's timers do not speak of others who may !eject (docs/ratings.md \"Solo games\")", () => {
  assert.equal(timersText({ preset: "realtime", move: 120, game: 600, policy: "wait" }, true),
    "Real-time timers: 2 min a move, 10 min game time · out of game time: the game waits for your program");
  assert.equal(timersText({ preset: "realtime", move: 120, game: 600, policy: "eject" }, true),
    "Real-time timers: 2 min a move, 10 min game time · out of game time: ejected at once");
});
