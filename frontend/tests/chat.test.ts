// Unit checks of the chat's rendering (plain text only, own and system messages), command answers and
// the "your move" notices. A fake DOM (fakedom.ts) stands in for the browser's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { chatTime, commandText, isChatMessage, isOwn, renderChatMessage } from "../src/chat";
import { deadlineText, invitationText, invitationUrl, isInvitation, isYourTurn, Notifications, noticeText, titleWithCount } from "../src/notify";
import type { ChatMessage } from "../src/types";
import { FakeElement, installFakeDocument } from "./fakedom";

installFakeDocument();

const msg = (extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 7, seat: 2, user: "bob", display_name: "Bob the Builder", text: "hello", at: "2026-11-23T10:05:00+00:00",
  system: false, ...extra,
});

test("a message with markup shows as text: no element is made from it", () => {
  const evil = "<img src=x onerror=alert(1)>";
  const li = renderChatMessage(msg({ text: evil }), { seat: 1, user: "alice" }) as unknown as FakeElement;
  assert.equal(li.find("chat-text")?.textContent, evil);
  assert.ok(li.textContent.includes(evil));
  assert.deepEqual(li.all().filter((e) => e.tagName === "IMG"), []);
  // A display name with markup is text too.
  const li2 = renderChatMessage(msg({ display_name: "<b>x</b>" }), { seat: 1, user: "alice" }) as unknown as FakeElement;
  assert.equal(li2.find("chat-who")?.textContent, "<b>x</b>");
  assert.deepEqual(li2.all().filter((e) => e.tagName === "B"), []);
});

test("own messages are marked, system messages styled, and the seat and id are kept", () => {
  const own = renderChatMessage(msg(), { seat: 2, user: "bob" }) as unknown as FakeElement;
  assert.ok(own.classList.contains("own"));
  assert.equal(own.find("chat-who")?.textContent, "Bob the Builder (you)");
  assert.deepEqual([own.dataset.id, own.dataset.seat], ["7", "2"]);
  const other = renderChatMessage(msg(), { seat: 1, user: "alice" }) as unknown as FakeElement;
  assert.ok(!other.classList.contains("own"));
  assert.equal(other.find("chat-who")?.textContent, "Bob the Builder");
  const sys = renderChatMessage(msg({ seat: null, user: "", system: true, text: "Seat 2 was ejected." }), { seat: 2, user: "bob" }) as unknown as FakeElement;
  assert.ok(sys.classList.contains("system") && !sys.classList.contains("own"));
  assert.equal(sys.find("chat-who")?.textContent, "RoboRacer");
  // A spectator (no seat) still recognises a message by user name.
  assert.equal(isOwn(msg({ seat: null }), { seat: null, user: "bob" }), true);
  assert.equal(isOwn(msg(), { seat: null, user: null }), false);
  // Without a display name, the user name.
  const plain = renderChatMessage(msg({ display_name: "" }), { seat: 1, user: "alice" }) as unknown as FakeElement;
  assert.equal(plain.find("chat-who")?.textContent, "bob");
});

test("chat time is local hours:minutes; malformed messages are dropped", () => {
  assert.match(chatTime("2026-11-23T10:05:00+00:00"), /^\d\d:\d\d$/);
  assert.equal(chatTime("garbage"), "");
  assert.equal(chatTime(null), "");
  assert.equal(isChatMessage(msg()), true);
  assert.equal(isChatMessage({ id: "1", text: "x" }), false);
  assert.equal(isChatMessage(null), false);
});

test("command answers read as sentences", () => {
  assert.equal(commandText({ command: "eject", ejected: [2, 3] }), "Ejected seats 2, 3: out of game time, they forfeit.");
  assert.equal(commandText({ command: "eject", ejected: [4] }), "Ejected seat 4: out of game time, a forfeit.");
  assert.equal(commandText({ command: "eject", ejected: [4] }, (seats) => seats.map((n) => `player ${String(n)}`).join(" and ")),
    "Ejected player 4: out of game time, a forfeit.");
  assert.match(commandText({ command: "eject", ejected: [] }), /^Nobody to eject/);
  assert.match(commandText({ command: "archive", archived: true }), /^Archived/);
  assert.match(commandText({ command: "archive", archived: false }), /^Unarchived/);
  assert.equal(commandText(null), "");
});

test("your-move notices: text, deadline, tab title count", () => {
  const n = { type: "your_turn", game: 12, turn: 3, course: "Tiny Yard", deadline: "2026-11-23T15:12:00Z" } as const;
  assert.equal(isYourTurn(n), true);
  assert.equal(isYourTurn({ type: "other", game: 1 }), false);
  assert.equal(noticeText(n), "Your move in game 12 (Tiny Yard), turn 3");
  assert.equal(noticeText({ ...n, course: "RAMbots", turn_noun: "round" }), "Your move in game 12 (RAMbots), round 3");
  assert.equal(deadlineText(n.deadline, Date.parse("2026-11-23T10:00:00Z")), "5h 12m left");
  assert.equal(deadlineText(null, 0), "");
  assert.equal(titleWithCount("Lobby · RoboRacer", 2), "(2) Lobby · RoboRacer");
  assert.equal(titleWithCount("(2) Lobby · RoboRacer", 1), "(1) Lobby · RoboRacer");
  assert.equal(titleWithCount("(1) Lobby · RoboRacer", 0), "Lobby · RoboRacer");
});

test("a tournament invitation shows as a notice linking to where it is answered", () => {
  const n = { type: "tournament_invitation", invitation: 7, tournament: 3, tournament_name: "Spring Cup",
    replacing: "bob", game: 12, url: "/tournaments/mine/#invitation-7" } as const;
  assert.equal(isInvitation(n), true);
  assert.equal(isInvitation({ type: "tournament_invitation" }), false);
  assert.equal(invitationText(n), "You are invited to replace bob in Spring Cup (game 12)");
  assert.equal(invitationUrl(n), "/tournaments/mine/#invitation-7");
  assert.equal(invitationUrl({ ...n, url: "//evil.example/" }), "/tournaments/mine/");
  assert.equal(invitationUrl({ ...n, url: "https://evil.example/" }), "/tournaments/mine/");
  (globalThis as unknown as { document: { title: string } }).document.title = "Lobby · RoboRacer";
  const parent = new FakeElement("MAIN") as FakeElement & { prepend: (c: FakeElement) => void };
  parent.prepend = (c) => { parent.insertBefore(c, parent.firstChild); };
  const notices = new Notifications(null, parent as unknown as HTMLElement);
  notices.handle(n);
  const box = notices.el.all().find((e) => e.dataset?.kind === "tournament-invitation");
  assert.ok(box && !notices.el.hidden);
  const link = box.all().find((e) => e.tagName === "A");
  assert.equal(link?.getAttribute("href"), "/tournaments/mine/#invitation-7");
  assert.equal(link?.textContent, "You are invited to replace bob in Spring Cup (game 12)");
  assert.equal((globalThis as unknown as { document: { title: string } }).document.title, "(1) Lobby · RoboRacer");
});
