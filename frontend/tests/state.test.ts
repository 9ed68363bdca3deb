// Unit checks of the pure modules (no DOM): how a turn's events are grouped for playback, what each
// event does to the bots' public state, the check point colour rule, and a turn's priority.
// Run: npm test (esbuild bundles this for Node, then node --test runs it).
import assert from "node:assert/strict";
import { test } from "node:test";
import { groupEvents } from "../src/animate";
import { turnPriority } from "../src/log";
import { applyEvent, checkpointMarks, cloneBots } from "../src/state";
import type { BotState, EngineEvent } from "../src/types";
import { asKnownEvent } from "../src/types";

const bot = (id: string, extra: Partial<BotState> = {}): BotState => ({
  id, at: [1, 1], dir: "N", damage: 0, lives: 3, next_checkpoint: 1, virtual: false, ...extra,
});
const ev = (phase: number, step: string, type: string, fields: Record<string, unknown> = {}): EngineEvent =>
  ({ phase, step, type, bot: "a", ...fields }) as EngineEvent;

test("events group by phase, step and belt sub-phase, in order", () => {
  const events = [
    ev(1, "chips", "chip", { chip: "1" }), ev(1, "chips", "moved", { from: [1, 1], to: [1, 0] }),
    ev(1, "belts", "carried", { sub: 4, from: [1, 0], to: [2, 0] }), ev(1, "belts", "carried", { sub: 4, bot: "b", from: [3, 3], to: [3, 4] }),
    ev(1, "belts", "carried", { sub: 5, from: [2, 0], to: [3, 0] }),
    ev(1, "bot_lasers", "shot", { from: [1, 2], to: [1, 5] }), ev(2, "chips", "chip", { chip: "L" }),
  ];
  assert.deepEqual(groupEvents(events).map((g) => g.length), [2, 2, 1, 1, 1]);
  assert.deepEqual(groupEvents([]), []);
});

test("each event updates the public state the panel shows", () => {
  const bots = cloneBots([bot("a"), bot("b", { virtual: true })]);
  const steps: [EngineEvent, boolean][] = [
    [ev(1, "chips", "moved", { from: [1, 1], to: [1, 0] }), false],
    [ev(1, "chips", "rotated", { from: "N", to: "E", cause: "chip" }), false],
    [ev(1, "belts", "carried", { from: [1, 0], to: [2, 0], sub: 5 }), false],
    [ev(1, "wall_lasers", "damaged", { amount: 2, damage: 2, cause: "laser" }), true],
    [ev(1, "checkpoints", "checkpoint", { number: 1, at: [2, 0] }), true],
    [ev(5, "repairs", "repaired", { amount: 1, damage: 1, cause: "checkpoint" }), true],
  ];
  for (const [e, visible] of steps) assert.equal(applyEvent(bots, e), visible, e.type);
  assert.deepEqual(bots.get("a"), bot("a", { at: [2, 0], dir: "E", damage: 1, next_checkpoint: 2 }));
  applyEvent(bots, ev(2, "chips", "destroyed", { at: [2, -1], cause: "edge" }));
  assert.deepEqual([bots.get("a")?.at, bots.get("a")?.lives, bots.get("a")?.damage], [null, 2, 0]);
  applyEvent(bots, ev(5, "respawn", "respawned", { at: [0, 7], dir: "N", virtual: true }));
  assert.deepEqual([bots.get("a")?.at, bots.get("a")?.virtual], [[0, 7], true]);
  applyEvent(bots, ev(5, "virtuality", "real", { bot: "b", at: [1, 1] }));
  assert.equal(bots.get("b")?.virtual, false);
  applyEvent(bots, ev(1, "start", "rebooting", { bot: "b" }));
  assert.equal(bots.get("b")?.rebooting, true);
  // Unknown bots and unknown event types change nothing.
  assert.equal(applyEvent(bots, ev(1, "chips", "moved", { bot: "zz", to: [0, 0] })), false);
  assert.equal(applyEvent(bots, ev(1, "chips", "teleported", { to: [0, 0] })), false);
});

test("cloneBots copies: the snapshot stays untouched", () => {
  const source = [bot("a")];
  applyEvent(cloneBots(source), ev(1, "chips", "moved", { to: [5, 5] }));
  assert.deepEqual(source[0].at, [1, 1]);
});

test("check point colours: mine green, the leading opponent's black (ties to priority), the out ignored", () => {
  const bots = [bot("me", { next_checkpoint: 2 }), bot("x", { next_checkpoint: 3 }), bot("y", { next_checkpoint: 3 }),
    bot("z", { next_checkpoint: 4, lives: 0 })];
  assert.deepEqual(checkpointMarks(bots, "me", ["y", "x", "me"]), { mine: 2, leader: 3 });
  assert.deepEqual(checkpointMarks(bots, null, ["me", "x"]), { mine: null, leader: 3 });  // a spectator
  assert.deepEqual(checkpointMarks([bot("me", { next_checkpoint: 2 })], "me", ["me"]), { mine: 2, leader: null });
  assert.deepEqual(checkpointMarks([bot("me", { lives: 0 }), bot("x")], "me", []), { mine: null, leader: 1 });
});

test("a turn's priority is the order in which bots play chips", () => {
  const events = [ev(1, "start", "rebooting", { bot: "c" }), ev(1, "chips", "chip", { bot: "b" }),
    ev(1, "chips", "chip", { bot: "a" }), ev(1, "chips", "moved", { bot: "b" }), ev(2, "chips", "chip", { bot: "c" })];
  assert.deepEqual(turnPriority(events), ["b", "a", "c"]);
});

test("events the animator cannot read are skipped, course-wide ones are kept", () => {
  assert.equal(asKnownEvent(ev(1, "chips", "moved", { to: "nowhere" })), null);
  assert.equal(asKnownEvent(ev(1, "chips", "lava", {})), null);
  assert.notEqual(asKnownEvent({ phase: 5, step: "virtuality", type: "radiation", bot: null, at: [1, 2] }), null);
  assert.notEqual(asKnownEvent({ phase: 1, step: "wall_lasers", type: "shot", bot: null, from: [0, 0], to: [0, 3] }), null);
  assert.notEqual(asKnownEvent({ phase: 5, step: "priority", type: "priority", bot: null, order: ["a"] }), null);
});
