// Unit checks of the program editor's words: the reboot checkbox's explanation, and the hint that leaves
// the keyboard out on touch screens (a phone has no 1–9 or Enter keys to press).
import assert from "node:assert/strict";
import { test } from "node:test";
import { programHint, programTitle, rebootHelpText } from "../src/program";

test("the program hint says tap and leaves out the keys on touch screens", () => {
  const touch = programHint(true);
  assert.ok(touch.startsWith("Tap or drag"), touch);
  assert.ok(!/Keys|Backspace|Enter|Click/.test(touch), touch);
  const desk = programHint(false);
  assert.ok(desk.startsWith("Click or drag") && desk.includes("Backspace") && desk.includes("Enter submits"), desk);
});

test("the reboot explanation names the checkbox, not a button", () => {
  assert.ok(rebootHelpText(false).includes("Reboot this turn"));
  assert.ok(!/button|Press/.test(rebootHelpText(false)));
  assert.ok(rebootHelpText(true).startsWith("Reboot chosen"));
});

test("in fused (hit points) the reboot help says hit points, as the badge and the legend do", () => {
  for (const reboot of [false, true]) {
    const text = rebootHelpText(reboot, 10);
    assert.ok(text.includes("back to full hit points (10)") && !text.includes("damage"), text);
    assert.ok(rebootHelpText(reboot).includes("repaired to 0 damage"));
  }
});

test("only a seated player's panel says \"Your program\"", () => {
  assert.equal(programTitle(true), "Your program");
  assert.equal(programTitle(false), "Programs");
});
