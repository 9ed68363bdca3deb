// Unit checks of the live lobby's lists: the whole lobby, then game summaries applied on top (the newest
// version wins; public messages move games in and out of Open games; my own group moves them in and out of
// My games and the archive), and the rows' texts.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  applyGame, creatorRating, duration, emptyLists, fromLobby, type GameSummary, mineText, openText, playerUrl,
  showCustomTimers, signedChange, sorted, wonBy,
} from "../src/lobbystate";

const game = (extra: Partial<GameSummary> = {}): GameSummary => ({
  id: 5, course: "tiny-yard", course_id: 1, course_name: "Tiny Yard", creator: "alice", status: "lobby", turn: 0,
  version: 1, max_seats: 3, seated: 1, lives: 3, visibility: "public", timer_preset: "realtime", move_time: 120,
  game_time: 600, timeout_policy: "wait", winner: null, ...extra,
});

test("a new public game appears under Open games, its seats update, and it leaves when it starts", () => {
  const lists = emptyLists();
  assert.ok(applyGame(lists, { type: "lobby_game", game: game() }));
  assert.deepEqual(sorted(lists.open).map((g) => g.seated), [1]);
  applyGame(lists, { type: "lobby_game", game: game({ version: 2, seated: 2 }) });
  assert.equal(lists.open.get(5)?.seated, 2);
  applyGame(lists, { type: "lobby_game", game: game({ version: 4, seated: 2, status: "programming", turn: 1 }) });
  assert.equal(lists.open.size, 0);
});

test("an older summary never overwrites a newer one", () => {
  const lists = fromLobby({ type: "lobby", open: [game({ version: 3, seated: 2 })], mine: [], archived: [] });
  assert.equal(applyGame(lists, { type: "lobby_game", game: game({ version: 2, seated: 1 }) }), false);
  assert.equal(lists.open.get(5)?.seated, 2);
  const mine = fromLobby({ type: "lobby", open: [], mine: [game({ version: 7, status: "programming" })], archived: [] });
  assert.equal(applyGame(mine, { type: "lobby_game", game: game({ version: 6 }), mine: true }), false);
  assert.equal(mine.mine.get(5)?.status, "programming");
});

test("my own group: a game joins My games (or the archive), leaves it when I leave or it is cancelled", () => {
  const lists = emptyLists();
  applyGame(lists, { type: "lobby_game", game: game({ visibility: "private" }), mine: true });
  assert.deepEqual([...lists.mine.keys()], [5]);
  assert.equal(lists.open.size, 0); // a private game never goes under Open games
  applyGame(lists, { type: "lobby_game", game: game({ version: 2, visibility: "private" }), mine: false });
  assert.equal(lists.mine.size, 0);
  applyGame(lists, { type: "lobby_game", game: game({ id: 6, status: "finished", archived: true, winner: "Bob" }), mine: true });
  assert.deepEqual([...lists.archived.keys()], [6]);
  applyGame(lists, { type: "lobby_game", game: game({ id: 7 }), mine: true });
  applyGame(lists, { type: "lobby_game", game: game({ id: 7, version: 2, status: "cancelled" }), mine: true });
  assert.equal(lists.mine.has(7), false);
  // A public message about a game of mine only touches Open games.
  applyGame(lists, { type: "lobby_game", game: game({ id: 8 }), mine: true });
  applyGame(lists, { type: "lobby_game", game: game({ id: 8, version: 2, status: "programming", turn: 1 }) });
  assert.equal(lists.mine.get(8)?.status, "lobby");
});

test("rows read like the server's: seats, timers, and who won a finished game", () => {
  assert.equal(openText(game()), "1/3 seats · 3 lives · Real-time (2 min a move, 10 min game time)");
  assert.equal(openText(game({ rated: true })), "1/3 seats · 3 lives · Real-time (2 min a move, 10 min game time) · rated");
  assert.equal(openText(game({ rated: false })).endsWith("game time) · unrated"), true);
  assert.equal(mineText(game({ status: "programming", turn: 3, seated: 2, max_seats: 2, visibility: "private", rated: false })),
    "Programming, turn 3 · 2/2 seats · Real-time · unrated · private");
  assert.equal(mineText(game({ status: "programming", turn: 3, seated: 2, max_seats: 2, visibility: "private" })),
    "Programming, turn 3 · 2/2 seats · Real-time · private");
  assert.equal(wonBy(game({ status: "finished", winner: "Bob the Builder" })), "won by Bob the Builder");
  assert.equal(wonBy(game({ status: "programming", winner: "Bob" })), "");
  assert.equal(creatorRating(game({ creator_rating: 1012 })), " (1012)");
  assert.equal(creatorRating(game()), "");
  assert.equal(signedChange(138), " (+138)");
  assert.equal(signedChange(-73), " (\u221273)");
  assert.equal(signedChange(0), " (\u00b10)");
  assert.equal(signedChange(null), "");
  assert.equal(playerUrl("ana maría/x"), "/players/ana%20mar%C3%ADa%2Fx/");
  assert.equal(duration(90), "1 min 30 s");
  assert.equal(duration(86400 * 3), "3 days");
  assert.equal(duration(0), "0 s");
});

test("the custom timer fields show only for the custom preset", () => {
  const fields = [{ hidden: false }, { hidden: false }];
  showCustomTimers({ value: "realtime" }, fields);
  assert.deepEqual(fields, [{ hidden: true }, { hidden: true }]);
  showCustomTimers({ value: "custom" }, fields);
  assert.deepEqual(fields, [{ hidden: false }, { hidden: false }]);
});
