// Issue 37 item 7: lives and damage badges are at least BADGE_MIN_PX on screen, on every board size.
import assert from "node:assert/strict";
import test from "node:test";
import { BADGE_FONT, BADGE_MIN_PX, badgeLayout } from "../src/board";

test("badges grow on small boards so their text is at least 11 px, never shrink, and keep apart", () => {
  assert.equal(BADGE_MIN_PX, 11);
  assert.deepEqual(badgeLayout(1), { k: 1, dx: 30, dy: 34 }); // a big board: as drawn
  for (const ppu of [0.23, 0.3, 0.45, 0.6, 0.73, 1.2]) {
    const { k, dx } = badgeLayout(ppu);
    assert.ok(k >= 1);
    assert.ok(BADGE_FONT * ppu * k >= BADGE_MIN_PX - 1e-9, `ppu ${ppu}`);
    assert.ok(dx >= 17 * k, "the two badges (34 units wide each, grown by k) do not overlap");
  }
  assert.equal(badgeLayout(0).k, 1); // no layout: unchanged
});
