// The game screen's playback controls (Pause/Step/Skip, the speeds, "Replay turn") hide while there is
// nothing to play or replay: a lobby, the first turn's programming.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { playbackShown, speedsShown } from "../src/playback";

test("no playback controls before a turn has resolved", () => {
  assert.equal(playbackShown(0, false, 0), false); // a lobby
  assert.equal(playbackShown(0, false, 1), false); // programming turn 1
});

test("playback controls while a turn plays, and once there is a turn to replay", () => {
  assert.equal(playbackShown(0, true, 1), true);
  assert.equal(playbackShown(1, false, 2), true);
  assert.equal(playbackShown(0, false, 2), true);
});

test("the speeds hide in a lobby only: they can be chosen before the first turn plays", () => {
  assert.equal(speedsShown("lobby"), false);
  assert.equal(speedsShown(undefined), false);
  assert.equal(speedsShown("programming"), true);
  assert.equal(speedsShown("finished"), true);
});

test("on a phone the controls row wraps while I program, never scrolls sideways", () => {
  // npm test runs in frontend/; the bundled test does not sit next to the sources.
  const css = readFileSync(join(process.cwd(), "src", "styles.css"), "utf8");
  const rules = [...css.matchAll(/\.rr-my-programming \.rr-controls[^{]*\{([^}]*)\}/g)].map((m) => m[1]);
  assert.ok(rules.length > 0);
  for (const body of rules) assert.ok(!/nowrap|overflow-x/.test(body), body);
  assert.ok(rules.some((body) => /flex-wrap:\s*wrap/.test(body)));
});
