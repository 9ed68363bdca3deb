// The live lobby's open list, a page at a time (docs/site.md "The live lobby"): on page 1 it shows at most a
// page of the newest open games (a new game pushes the oldest out), on other pages it never inserts a pushed game
// (it counts them for a "new games on page 1" link), the "Showing ..." line follows the number of open games,
// and what the client keeps stays bounded however many games come.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  applyGame, freshText, fromLobby, type GameSummary, olderPage, openPagesText, shownOpen,
} from "../src/lobbystate";

const game = (id: number, extra: Partial<GameSummary> = {}): GameSummary => ({
  id, course: "tiny-yard", course_id: 1, course_name: "Tiny Yard", creator: "alice", status: "lobby", turn: 0,
  version: 1, max_seats: 3, seated: 1, lives: 3, visibility: "public", timer_preset: "realtime", move_time: 120,
  game_time: 600, timeout_policy: "wait", winner: null, ...extra,
});
const ids = (games: GameSummary[]): number[] => games.map((g) => g.id);
const PAGE1 = { page: 1, size: 3 };
const PAGE2 = { page: 2, size: 3 };

test("page 1 shows at most a page of the newest games: a new game pushes the oldest out", () => {
  const lists = fromLobby({ type: "lobby", open: [game(10), game(9), game(8)], open_total: 10, open_next: 2, mine: [], archived: [] }, PAGE1);
  assert.equal(openPagesText(PAGE1, shownOpen(lists, PAGE1).length, lists.openTotal), "Showing the newest 3 of 10 open games.");
  assert.ok(applyGame(lists, { type: "lobby_game", game: game(11), new: true, open_total: 11 }, PAGE1));
  assert.deepEqual(ids(shownOpen(lists, PAGE1)), [11, 10, 9]);
  assert.equal(openPagesText(PAGE1, 3, lists.openTotal), "Showing the newest 3 of 11 open games.");
  // A game that started leaves; the newest one pushed out comes back in its place.
  applyGame(lists, { type: "lobby_game", game: game(10, { version: 3, status: "programming", turn: 1 }), new: false, open_total: 10 }, PAGE1);
  assert.deepEqual(ids(shownOpen(lists, PAGE1)), [11, 9, 8]);
  assert.equal(lists.openTotal, 10);
  // A seat taken in an older game of a later page is not shown here.
  assert.equal(applyGame(lists, { type: "lobby_game", game: game(4, { version: 2, seated: 2 }), new: false, open_total: 10 }, PAGE1), false);
  assert.deepEqual(ids(shownOpen(lists, PAGE1)), [11, 9, 8]);
  assert.equal(olderPage(PAGE1, lists.openTotal), 2);
});

test("page 1's list stays bounded however many games are created, and the count follows the server's", () => {
  const lists = fromLobby({ type: "lobby", open: [game(3), game(2), game(1)], open_total: 3, open_next: null, mine: [], archived: [] }, PAGE1);
  assert.equal(openPagesText(PAGE1, 3, lists.openTotal), "");  // all of them shown: nothing to say
  assert.equal(olderPage(PAGE1, lists.openTotal), null);
  for (let id = 4; id < 1004; id++) applyGame(lists, { type: "lobby_game", game: game(id), new: true, open_total: id }, PAGE1);
  assert.deepEqual(ids(shownOpen(lists, PAGE1)), [1003, 1002, 1001]);
  assert.ok(lists.open.size <= 2 * PAGE1.size, `kept ${lists.open.size} games`);
  assert.equal(openPagesText(PAGE1, 3, lists.openTotal), "Showing the newest 3 of 1003 open games.");
});

test("without the server's count the client counts new games and the removals it sees", () => {
  const lists = fromLobby({ type: "lobby", open: [game(10), game(9), game(8)], open_total: 10, open_next: 2, mine: [], archived: [] }, PAGE1);
  applyGame(lists, { type: "lobby_game", game: game(11) }, PAGE1);  // newer than any game shown: new
  assert.equal(lists.openTotal, 11);
  applyGame(lists, { type: "lobby_game", game: game(9, { version: 2, status: "cancelled" }) }, PAGE1);
  assert.equal(lists.openTotal, 10);
  assert.deepEqual(ids(shownOpen(lists, PAGE1)), [11, 10, 8]);
  applyGame(lists, { type: "lobby_game", game: game(5, { version: 2, seated: 2 }) }, PAGE1);  // older: not new
  assert.equal(lists.openTotal, 10);
});

test("a later page keeps its games: pushed games are counted for page 1, never inserted", () => {
  const lists = fromLobby({ type: "lobby", open: [game(7), game(6), game(5)], open_total: 10, open_next: 3, mine: [], archived: [] }, PAGE2);
  assert.equal(openPagesText(PAGE2, 3, lists.openTotal), "Showing open games 4–6 of 10 (page 2 of 4).");
  assert.equal(freshText(lists), "");
  applyGame(lists, { type: "lobby_game", game: game(11), new: true, open_total: 11 }, PAGE2);
  assert.deepEqual(ids(shownOpen(lists, PAGE2)), [7, 6, 5]);
  assert.equal(freshText(lists), "1 new open game on page 1");
  applyGame(lists, { type: "lobby_game", game: game(10, { version: 2, seated: 2 }), new: false, open_total: 11 }, PAGE2);
  assert.equal(freshText(lists), "1 new open game on page 1");  // a game of page 1 that changed is not new
  applyGame(lists, { type: "lobby_game", game: game(6, { version: 2, seated: 2 }), new: false, open_total: 11 }, PAGE2);
  assert.equal(lists.open.get(6)?.seated, 2);  // the page's own games follow their seats
  applyGame(lists, { type: "lobby_game", game: game(6, { version: 3, status: "programming", turn: 1 }), new: false, open_total: 10 }, PAGE2);
  assert.deepEqual(ids(shownOpen(lists, PAGE2)), [7, 5]);
  assert.equal(openPagesText(PAGE2, 2, lists.openTotal), "Showing open games 4–5 of 10 (page 2 of 4).");
  applyGame(lists, { type: "lobby_game", game: game(12), new: true, open_total: 11 }, PAGE2);
  assert.equal(freshText(lists), "2 new open games on page 1");
  applyGame(lists, { type: "lobby_game", game: game(12, { version: 2, status: "cancelled" }), new: false, open_total: 10 }, PAGE2);
  assert.equal(freshText(lists), "1 new open game on page 1");
  // However many come, it keeps at most a page of them and says "or more".
  for (let id = 13; id < 500; id++) applyGame(lists, { type: "lobby_game", game: game(id), new: true, open_total: id }, PAGE2);
  assert.ok(lists.fresh.size <= PAGE2.size, `kept ${lists.fresh.size} new games`);
  assert.equal(freshText(lists), "3 or more new open games on page 1");
  assert.deepEqual(ids(shownOpen(lists, PAGE2)), [7, 5]);
  assert.equal(olderPage(PAGE2, 10), 3);
  assert.equal(olderPage(PAGE2, 6), null);
});

test("a later page past the end says nothing about games shown", () => {
  assert.equal(openPagesText({ page: 5, size: 3 }, 0, 10), "");
  assert.equal(openPagesText({ page: 4, size: 3 }, 1, 10), "Showing open game 10 of 10 (page 4 of 4).");
});
