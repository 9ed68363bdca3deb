// Unit checks of the bell (notify.ts): which socket messages are kept notices, and what one more does to the
// header's count and label.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bumpBell, keptNotice } from "../src/notify";

test("only a message with a kept notice's whole-number id counts", () => {
  assert.equal(keptNotice({ type: "rematch", game: 3, notice: { id: 7, text: "x" } }), 7);
  assert.equal(keptNotice({ type: "your_turn", game: 3 }), null);
  assert.equal(keptNotice({ type: "rematch", notice: { id: "7" } }), null);
  assert.equal(keptNotice({ notice: { id: 1.5 } }), null);
  assert.equal(keptNotice(null), null);
});

test("one more notice raises the count, shows it and says it in the label", () => {
  const attrs = new Map<string, string>();
  const classes = new Set<string>();
  const bell = { setAttribute: (k: string, v: string) => attrs.set(k, v), classList: { add: (c: string) => classes.add(c) } };
  const count = { textContent: "", hidden: true };
  const doc = { getElementById: (id: string) => (id === "rr-bell" ? bell : id === "rr-bell-count" ? count : null) };
  bumpBell(doc as unknown as Document);
  assert.equal(count.textContent, "1");
  assert.equal(count.hidden, false);
  bumpBell(doc as unknown as Document);
  assert.equal(count.textContent, "2");
  assert.equal(attrs.get("aria-label"), "Notices (2 unread)");
  assert.ok(classes.has("rr-bell-unread"));
});

test("a notice's link is followed only when it is a path on this site", async () => {
  const { sitePath } = await import("../src/notify");
  assert.equal(sitePath("/games/5/", "/notices/"), "/games/5/");
  assert.equal(sitePath("//evil.example/", "/notices/"), "/notices/");
  assert.equal(sitePath("https://evil.example/", "/notices/"), "/notices/");
  assert.equal(sitePath("/\\evil.example", "/notices/"), "/notices/");
  assert.equal(sitePath(undefined, "/notices/"), "/notices/");
});

test("a game's end is told apart from other notices", async () => {
  const { isGameOver } = await import("../src/notify");
  assert.equal(isGameOver({ type: "game_over", game: 4 }), true);
  assert.equal(isGameOver({ type: "game_over", game: "4" }), false);
  assert.equal(isGameOver({ type: "your_turn", game: 4 }), false);
});
