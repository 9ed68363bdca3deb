// Unit checks of the BOT badge (issue 41, docs/bot-api.md): a bot account's name shows it wherever a seat or a
// lobby row is drawn; only the server's `true` makes one (older servers and the demo files say nothing).
import assert from "node:assert/strict";
import { test } from "node:test";
import { botBadge, isBotAccount } from "../src/botaccounts";
import { installFakeDocument } from "./fakedom";

installFakeDocument();

test("only a true flag is a bot account", () => {
  assert.equal(isBotAccount(true), true);
  for (const value of [false, undefined, null, "true", 1, {}]) assert.equal(isBotAccount(value), false);
});

test("the badge reads BOT and says what it means", () => {
  const badge = botBadge() as unknown as { className: string; textContent: string; title: string };
  assert.equal(badge.textContent, "BOT");
  assert.match(badge.className, /\bbot-badge\b/);
  assert.match(badge.title, /program plays it/);
});
