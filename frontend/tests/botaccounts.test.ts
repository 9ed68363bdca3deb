// Unit checks of the BOT badge (issue 41, docs/bot-api.md): a bot account's name shows it wherever a seat, a
// lobby row, a chat line or a turn log row is drawn; only the server's `true` makes one (older servers and the
// demo files say nothing).
import assert from "node:assert/strict";
import { test } from "node:test";
import { botBadge, isBotAccount } from "../src/botaccounts";
import { renderChatMessage } from "../src/chat";
import { TurnLog } from "../src/log";
import type { ChatMessage, EngineEvent, Seat, Snapshot } from "../src/types";
import { FakeElement, installFakeDocument } from "./fakedom";

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

const badges = (el: FakeElement): FakeElement[] => el.all().filter((e) => e.classList.contains("bot-badge"));

test("a bot account's chat line shows the badge after its name; a person's and the site's lines do not", () => {
  const line = (extra: Partial<ChatMessage>): FakeElement => renderChatMessage({
    id: 1, seat: 2, user: "robo", display_name: "robo", text: "good luck", at: "2026-11-29T04:20:00+00:00",
    system: false, ...extra,
  }, { seat: 1, user: "ann" }) as unknown as FakeElement;
  const bot = line({ bot_account: true });
  const head = bot.find("chat-head") as FakeElement;
  assert.equal(badges(bot).length, 1);
  assert.deepEqual(head.children.slice(0, 2).map((e) => e.textContent), ["robo", "BOT"]);  // then the time
  assert.equal(badges(line({ user: "ann", display_name: "ann", seat: 1, bot_account: false })).length, 0);
  assert.equal(badges(line({ bot_account: undefined })).length, 0);  // an older line: nothing said
  assert.equal(badges(line({ system: true, seat: null, user: "", bot_account: true })).length, 0);
});

test("the turn log's rows of a bot account's robot show the badge after its name", () => {
  const seats = [
    { number: 1, user: "ann", bot: "1", color: "#f00", bot_account: false },
    { number: 2, user: "robo", bot: "2", color: "#00f", bot_account: true },
  ] as unknown as Seat[];
  const snap = { status: "programming", seats, me: null } as unknown as Snapshot;
  const log = new TurnLog(new FakeElement("DIV") as unknown as HTMLElement);
  log.start("Turn 1 log", ["1", "2"]);
  for (const bot of ["1", "2"]) log.add(snap, { phase: 1, step: "chips", bot, type: "chip", chip: "1" } as unknown as EngineEvent);
  const rows = (log.el as unknown as FakeElement).all().filter((e) => e.tagName === "TR" && e.dataset.bot);
  const row = (bot: string) => rows.find((r) => r.dataset.bot === bot) as FakeElement;
  assert.equal(badges(row("2")).length, 1);
  assert.match(row("2").textContent, /robo BOT/);
  assert.equal(badges(row("1")).length, 0);
});
