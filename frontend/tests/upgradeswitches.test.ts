// Unit checks of classic's switched upgrades (upgradeswitches.ts): what `upgrade_use` a choice sends, which
// instructions the flywheel may keep, and the choices a sent `upgrade_use` stands for.
import assert from "node:assert/strict";
import { test } from "node:test";
import { choiceFrom, NO_CHOICE, switchedUpgrades, unusedInstructions, upgradeUse } from "../src/upgradeswitches";

const ALL = ["gyroscopic_stabilizer", "pressor_beam", "tractor_beam", "circuit_breaker", "flywheel", "brakes"];

test("only switched upgrades get a control", () => {
  assert.deepEqual(switchedUpgrades(["brakes", "flywheel", "ablative_coat", "scrambler"]), ["flywheel", "scrambler"]);
  assert.deepEqual(switchedUpgrades([]), []);
});

test("a choice becomes the upgrade_use the engine accepts, naming only upgrades the robot has", () => {
  assert.equal(upgradeUse(ALL, NO_CHOICE), null);
  assert.deepEqual(upgradeUse(ALL, { stabilizer: true, beam: "pressor_beam", breaker: 3, flywheel: "L" }),
    { gyroscopic_stabilizer: true, pressor_beam: true, circuit_breaker: 3, flywheel: "L" });
  // A beam the robot lacks, a threshold out of 1..21 and an unknown instruction are left out.
  assert.equal(upgradeUse(ALL, { stabilizer: false, beam: "scrambler", breaker: 22, flywheel: "X" }), null);
  assert.equal(upgradeUse(["brakes"], { stabilizer: true, beam: "pressor_beam", breaker: 5, flywheel: "1" }), null);
  assert.equal(upgradeUse(ALL, { ...NO_CHOICE, breaker: 0 }), null);
});

test("the flywheel may keep only what the program leaves in the hand, each instruction once", () => {
  const hand = ["1", "1", "2", "L", "R", "U", "B", "3", "L", "R"];
  assert.deepEqual(unusedInstructions(hand, ["1", "2", "L", "R", "U"]), ["1", "3", "B", "L", "R"]);
  assert.deepEqual(unusedInstructions(hand, [null, null, null, null, null]), ["1", "2", "3", "B", "L", "R", "U"]);
  assert.deepEqual(unusedInstructions(["1", "2"], ["1", "2"]), []);
});

test("a page loaded again shows the switches that were sent", () => {
  assert.deepEqual(choiceFrom({ tractor_beam: true, circuit_breaker: 5, flywheel: "3" }),
    { stabilizer: false, beam: "tractor_beam", breaker: 5, flywheel: "3" });
  assert.deepEqual(choiceFrom({}), NO_CHOICE);
});

test("an upgrade's name on its square takes at most two lines, as even as the words allow", async () => {
  const { offerLines } = await import("../src/elements");
  assert.deepEqual(offerLines("Brakes"), ["Brakes", ""]);
  assert.deepEqual(offerLines("Pressor Beam"), ["Pressor", "Beam"]);
  assert.deepEqual(offerLines("Power Down Shield"), ["Power Down", "Shield"]);
  assert.deepEqual(offerLines("Double Barreled Lasers"), ["Double Barreled", "Lasers"]);
});
