// The timing table (games/kinds/roboracer/timing.json) is the one source of how long each event holds a turn:
// the server starts the clocks after its total, and the screen's Animator waits its times (docs/site.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { eventMs, timing, useTiming } from "../src/timing";
import TIMING from "../../games/kinds/roboracer/timing.json";

test("without a table on the page every event is instant and no step is sequential", () => {
  assert.deepEqual(timing(), { sequential_steps: [], events_ms: {} });
  assert.equal(eventMs("moved"), 0);
});

test("the page's table gives each event its time; unknown and malformed entries take none", () => {
  useTiming(TIMING);
  assert.equal(eventMs("moved"), TIMING.events_ms.moved);
  assert.ok(eventMs("moved") > 0 && eventMs("winner") > eventMs("moved"));
  assert.equal(eventMs("tile_broken"), 0);
  assert.equal(eventMs("no_such_event"), 0);
  useTiming({ sequential_steps: [], events_ms: { moved: -5, shot: Number.NaN } });
  assert.equal(eventMs("moved"), 0);
  assert.equal(eventMs("shot"), 0);
});
