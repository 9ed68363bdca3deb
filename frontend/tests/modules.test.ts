// Unit checks of the bot modules' pure parts: the price arithmetic (mirrors engine/modules/economy.py,
// 003 "The Economy" worked example), the Module menu's choices, the status text, what module events do to
// the bots' state, and the turn log's module column.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  activateChoices, actionKey, actionText, afterPurchase, chargeCost, chargeOptions, hasSpareMoveChip, MODULE_NAMES,
  moduleLabel, moduleStatus, parseAction, pricesText, usableCharges,
} from "../src/modules";
import { menuGroups, menuHelp } from "../src/modmenu";
import { moduleText, nameOf } from "../src/log";
import { applyEvent, checkpointMarks, cloneBots, pricesAfter } from "../src/state";
import type { BotState, EngineEvent, Snapshot } from "../src/types";

const EXAMPLE = { repair: 150, shield: 200, turbo: 250 };

test("003's economy example: 2 Turbo charges cost 250 + 254 = 504, then Turbo 258, Shields 196, Repairs 146", () => {
  const cost = chargeCost(EXAMPLE, "turbo", 2);
  assert.ok(cost);
  assert.equal(cost.total, 504);
  assert.deepEqual(cost.prices, { repair: 146, shield: 196, turbo: 258 });
  assert.deepEqual(afterPurchase(EXAMPLE, "turbo"), { repair: 148, shield: 198, turbo: 254 });
});

test("prices never fall below the floor of 10, and a module not available has no price", () => {
  assert.deepEqual(afterPurchase({ a: 11, b: 10, c: 300 }, "c"), { a: 10, b: 10, c: 304 });
  assert.equal(chargeCost(EXAMPLE, "blaster", 1), null);
  // One module alone: nothing else to move, its own price stays.
  assert.deepEqual(afterPurchase({ turbo: 250 }, "turbo"), { turbo: 250 });
});

test("charge options +1..+5 with each total price; the battery decides which are allowed", () => {
  const options = chargeOptions(EXAMPLE, { type: "turbo", charges: 0 }, 600);
  assert.deepEqual(options.map((o) => o.count), [1, 2, 3, 4, 5]);
  // 250, +254, +258, +262, +266
  assert.deepEqual(options.map((o) => o.total), [250, 504, 762, 1024, 1290]);
  assert.deepEqual(options.map((o) => o.allowed), [true, true, false, false, false]);
  assert.equal(options[2].why, "battery 600");
  // 99 charges at most in a module.
  const full = chargeOptions(EXAMPLE, { type: "turbo", charges: 97 }, 100000);
  assert.deepEqual(full.map((o) => o.allowed), [true, true, false, false, false]);
});

test("each module's own Activate choices", () => {
  assert.deepEqual(activateChoices("shield"), [{ label: "Activate", action: { activate: {} } }]);
  assert.deepEqual(activateChoices("turbo").map((c) => c.label), ["Phase 1", "Phase 2", "Phase 3", "Phase 4", "Phase 5"]);
  assert.deepEqual(activateChoices("turbo")[2].action, { activate: { phases: [3] } });
  assert.deepEqual(activateChoices("reflector").map((c) => c.action),
    [1, 2, 3, 4].map((p) => ({ activate: { phases: [p, p + 1] } })));
  const turret = activateChoices("turret");
  assert.equal(turret.length, 6);
  assert.deepEqual(turret.map((c) => c.label), ["Left", "Right", "Back", "Front & Left", "Front & Right", "Front & Back"]);
  assert.deepEqual(turret[3].action, { activate: { aim: "L", front: true } });
  assert.deepEqual(activateChoices("prioritizer").map((c) => c.action),
    [{ activate: { order: "first" } }, { activate: { order: "last" } }]);
  // Every module of the engine has at least one choice.
  for (const m of MODULE_NAMES) assert.ok(activateChoices(m).length > 0, m);
});

test("Turbo and Crab Legs need a spare move chip, copies counted", () => {
  assert.equal(hasSpareMoveChip(["1", "2", "L", "R", "U", "B"], ["1", "2", "L", "R", "U"]), true);
  assert.equal(hasSpareMoveChip(["1", "2", "L", "R", "U", "L"], ["1", "2", "L", "R", "U"]), false);
  assert.equal(hasSpareMoveChip(["1", "1", "L", "R", "U", "L"], ["1", "L", "R", "U", "L"]), true);
});

test("a Scanner's due charge is not usable", () => {
  assert.equal(usableCharges({ type: "scanner", charges: 1 }, true), 0);
  assert.equal(usableCharges({ type: "scanner", charges: 2 }, true), 1);
  assert.equal(usableCharges(null, false), 0);
});

test("action keys round-trip and ignore key order", () => {
  const a = { activate: { front: true, aim: "L" as const } };
  assert.equal(actionKey(a), actionKey({ activate: { aim: "L", front: true } }));
  assert.deepEqual(parseAction(actionKey(a)), { activate: { aim: "L", front: true } });
  assert.equal(parseAction(""), null);
  assert.equal(parseAction("[1]"), null);
  assert.equal(actionText({ activate: { phases: [3] } }, "turbo"), "Activate Turbo: phase 3");
  assert.equal(actionText({ install: "crab_legs" }, null), "Install Crab Legs");
});

test("the status panel's module text is 003's \"Turbo +2 250\"", () => {
  assert.equal(moduleStatus({ type: "turbo", charges: 2 }, 250), "Turbo +2 250");
  assert.equal(moduleStatus(null, 500), "none, battery 500");
  assert.equal(moduleLabel("crab_legs"), "Crab Legs");
  assert.equal(pricesText({ turbo: 250, shield: 200 }), "Shield 200 · Turbo 250");
});

test("the menu: install with each price, charge with totals (battery-limited), activate the installed module", () => {
  const none = menuGroups(["turbo", "shield", "repair"], EXAMPLE, null, 500, false);
  assert.equal(none.length, 1);
  assert.deepEqual(none[0].options.map((o) => o.label), ["Install Repair (free · a charge 150)", "Install Shield (free · a charge 200)", "Install Turbo (free · a charge 250)"]);
  const groups = menuGroups(["turbo", "shield", "repair"], EXAMPLE, { type: "turbo", charges: 0 }, 600, false);
  assert.equal(groups.length, 3);
  assert.deepEqual(groups[1].options.map((o) => [o.label.split(" —")[0], o.disabled]),
    [["+1 Charge (250)", false], ["+2 Charge (504)", false], ["+3 Charge (762)", true], ["+4 Charge (1024)", true], ["+5 Charge (1290)", true]]);
  assert.equal(groups[2].label, "Activate Turbo (no charge left)");
  assert.ok(groups[2].options.every((o) => o.disabled));
  const charged = menuGroups(["turbo"], { turbo: 250 }, { type: "turbo", charges: 1 }, 0, false);
  assert.ok(charged[2].options.every((o) => !o.disabled));
  assert.ok(charged[1].options.every((o) => o.disabled)); // a battery of 0 buys nothing
  assert.deepEqual(menuGroups([], {}, null, 500, false), []);
});

test("the menu's help says when Turbo has no spare move chip", () => {
  const turbo = { type: "turbo", charges: 1 };
  const text = menuHelp({ activate: { phases: [2] } }, turbo, ["1", "2", "L", "R", "U", "L"], ["1", "2", "L", "R", "U"]);
  assert.match(text, /needs a spare move chip/);
  assert.doesNotMatch(menuHelp({ activate: { phases: [2] } }, turbo, ["1", "2", "L", "R", "U", "3"], ["1", "2", "L", "R", "U"]), /needs a spare/);
  assert.match(menuHelp({ install: "shield" }, turbo, [], []), /replaces Turbo and its 1 charge/);
});

const bot = (id: string, extra: Partial<BotState> = {}): BotState => ({
  id, at: [1, 1], dir: "N", damage: 0, lives: 3, next_checkpoint: 2, virtual: false, battery: 600, module: null, ...extra,
});
const ev = (type: string, fields: Record<string, unknown> = {}): EngineEvent =>
  ({ phase: 1, step: "actions", type, bot: "a", ...fields }) as EngineEvent;

test("module events change the bots' module, charges and battery; prices follow module_charged", () => {
  const bots = cloneBots([bot("a"), bot("b")]);
  assert.equal(applyEvent(bots, ev("module_installed", { module: "turbo" })), true);
  assert.deepEqual(bots.get("a")?.module, { type: "turbo", charges: 0 });
  applyEvent(bots, ev("module_charged", { module: "turbo", charges: 2, price_paid: 504, prices: { turbo: 258 } }));
  assert.deepEqual(bots.get("a")?.module, { type: "turbo", charges: 2 });
  assert.equal(bots.get("a")?.battery, 96);
  applyEvent(bots, ev("module_activated", { module: "turbo", phases: [3] }));
  assert.equal(bots.get("a")?.module?.charges, 1);
  // The Scanner's charge is taken next turn.
  bots.get("b")!.module = { type: "scanner", charges: 1 };
  applyEvent(bots, ev("module_activated", { bot: "b", module: "scanner", phases: [1, 2, 3, 4, 5] }));
  assert.equal(bots.get("b")?.module?.charges, 1);
  applyEvent(bots, ev("module_charge_used", { bot: "b", module: "scanner", charges: 0 }));
  assert.equal(bots.get("b")?.module?.charges, 0);
  assert.deepEqual(pricesAfter(EXAMPLE, ev("module_charged", { prices: { repair: 146, shield: 196, turbo: 258 } })),
    { repair: 146, shield: 196, turbo: 258 });
  assert.deepEqual(pricesAfter(EXAMPLE, ev("module_installed", { module: "turbo" })), EXAMPLE);
});

test("a deployed drone joins the bots, virtual, in its owner's next check point, and is no opponent", () => {
  const bots = cloneBots([bot("a", { next_checkpoint: 3 }), bot("b", { next_checkpoint: 2 })]);
  applyEvent(bots, ev("drone_deployed", { phase: 1, step: "modules", bot: "a.drone", owner: "a", at: [1, 1], dir: "S" }));
  const drone = bots.get("a.drone");
  assert.ok(drone);
  assert.equal(drone.drone_of, "a");
  assert.equal(drone.virtual, true);
  assert.equal(drone.dir, "S");
  assert.equal(drone.next_checkpoint, 3);
  // Seen by b: the leader is a (3), not a's drone counted as someone else.
  assert.deepEqual(checkpointMarks(bots.values(), "a", ["a", "b", "a.drone"]), { mine: 3, leader: 2 });
});

test("the log's module column names the module actions in words", () => {
  const snap = { seats: [{ number: 1, user: "ada", bot: "a", color: "#f00", ready: true }] } as unknown as Snapshot;
  assert.equal(moduleText(snap, ev("module_installed", { module: "turbo" })), "installed Turbo");
  assert.equal(moduleText(snap, ev("module_charged", { module: "turbo", charges: 2, price_paid: 504 })), "Turbo: bought 2 charges for 504");
  assert.equal(moduleText(snap, ev("module_activated", { module: "turret", phases: [1, 2, 3, 4, 5], aim: "L", front: true })),
    "activated Turret, aims front and left");
  assert.equal(moduleText(snap, ev("module_activated", { module: "turbo", phases: [3] })), "activated Turbo, phase 3");
  assert.equal(moduleText(snap, ev("chip_stored", {})), "Storage: stored a chip");
  assert.equal(moduleText(snap, ev("moved", {})), null);
  assert.equal(nameOf(snap, "a.drone"), "ada's drone");
  assert.equal(nameOf(snap, "a.bomb"), "ada's bomb");
});

test("the course page's price chart: one line per module with prices, scaled between the lowest and highest", async () => {
  const { chartLines, sourceText } = await import("../src/pricechart");
  const history = [
    { at: "2026-01-01T00:00:00Z", game: 1, prices: { turbo: 250, shield: 200 } },
    { at: "2026-01-02T00:00:00Z", game: 1, prices: { turbo: 252, shield: 198 } },
    { at: "2026-01-03T00:00:00Z", game: 2, prices: { turbo: 254, shield: 196 } },
  ];
  const chart = chartLines(history, 100, 58);
  assert.deepEqual(chart.lines.map((l) => l.module), ["shield", "turbo"]); // engine order
  assert.equal(chart.min, 196);
  assert.equal(chart.max, 254);
  assert.deepEqual(chart.lines[1].points, [[0, 4], [50, 2], [100, 0]]);
  assert.deepEqual(chart.lines[0].points[2], [100, 58]);
  assert.deepEqual(chartLines([], 100, 50).lines, []);
  assert.match(sourceText({ source: "course", finished_games: 12 }), /own price book \(12 finished games\)/);
  assert.match(sourceText({ source: "site", finished_games: 1 }), /1 finished game,.*average across all courses/);
});

test("the lobby rows name a game's modules as the server's template does", async () => {
  const { modulesText } = await import("../src/lobbystate");
  assert.equal(modulesText(undefined), "");
  assert.equal(modulesText([]), "");
  assert.equal(modulesText(["crab_legs", "turbo"]), "Modules: Crab Legs, Turbo");
  assert.equal(modulesText([...MODULE_NAMES]), "All 17 modules");
});
