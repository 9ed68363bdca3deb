// The lobby's lists as data: the whole lobby from the socket's `lobby` message, then each game's
// `lobby_game` summary applied on top (newest version wins). Pure: no DOM, unit-tested.

import { PRESET_NAMES } from "./clock";
import { moduleLabel, MODULE_NAMES } from "./modules";

/** A game's modules as its lobby row shows them (the server template's `module_names`): "" (none),
 * "Modules: Shield, Turbo" (in the game's order), "All 17 modules". */
export function modulesText(modules: unknown): string {
  if (!Array.isArray(modules) || !modules.length) return "";
  if (modules.length === MODULE_NAMES.length && MODULE_NAMES.every((m) => modules.includes(m))) {
    return `All ${modules.length} modules`;
  }
  return `Modules: ${modules.map((m) => moduleLabel(String(m))).join(", ")}`;
}

export interface GameSummary {
  id: number;
  course: string;
  course_id: number;
  course_name: string;
  creator: string;
  /** The creator is a bot account (issue 41): a BOT badge after the name. */
  creator_bot?: boolean;
  status: string;
  turn: number;
  version: number;
  max_seats: number;
  seated: number;
  lives: number;
  visibility: string;
  timer_preset: string;
  move_time: number;
  game_time: number;
  timeout_policy: string;
  winner: string | null;
  /** Whether the game changes ratings when it finishes (absent from older servers). */
  rated?: boolean;
  /** The creator's shown rating (absent from older servers). */
  creator_rating?: number;
  my_move?: boolean;
  archived?: boolean;
  /** The bot modules available (issue 15; absent from older servers). */
  modules?: string[];
  /** The game kind (kinds.ts): "roboracer" (also when absent) or "rambots". */
  kind?: string;
}

/** What a lobby row names after the game number: the course, or "RAMbots" (no course: a chessboard). */
export function boardName(g: Pick<GameSummary, "kind" | "course_name">): string {
  return g.kind === "rambots" ? "RAMbots" : g.course_name;
}

export interface LobbyMessage {
  type: "lobby"; open: GameSummary[]; mine: GameSummary[]; archived: GameSummary[];
  /** How many public games wait for players in all; the next page's number or null (absent from older servers). */
  open_total?: number; open_next?: number | null;
}
/** `mine` absent: from the public lobby group, which also says whether the game is new (created by the
 * transaction announced) and how many public games are open now; true/false: from my own group (false: I left it). */
export interface LobbyGameMessage { type: "lobby_game"; game: GameSummary; mine?: boolean; new?: boolean; open_total?: number }

/** Which page of open games the page shows (`?page=`, from 1) and how many a page holds (LOBBY_PAGE_SIZE). */
export interface OpenView { page: number; size: number }
/** One page that holds every game: what the lists were before pages (and what a caller without a view gets). */
export const ALL_ON_ONE_PAGE: OpenView = { page: 1, size: Number.POSITIVE_INFINITY };

export interface LobbyLists {
  /** Open games: on page 1 the newest ones known, at most two pages' worth (the page shows the first `size`;
   * the others come back when a shown game leaves); on another page, that page's games only. */
  open: Map<number, GameSummary>;
  mine: Map<number, GameSummary>;
  archived: Map<number, GameSummary>;
  /** How many public games wait for players, from the server's last word (or counted, if it says nothing). */
  openTotal: number;
  /** The highest game id known to be open on page 1: a pushed open game above it is new. */
  newest: number;
  /** On a later page: games created since it was read and still open (at most a page of them, by id). */
  fresh: Set<number>;
  /** Whether more new games came than `fresh` keeps. */
  freshMore: boolean;
}

export function isSummary(v: unknown): v is GameSummary {
  if (!v || typeof v !== "object") return false;
  const g = v as Record<string, unknown>;
  return typeof g.id === "number" && typeof g.version === "number" && typeof g.status === "string";
}

export function emptyLists(): LobbyLists {
  return { open: new Map(), mine: new Map(), archived: new Map(), openTotal: 0, newest: 0, fresh: new Set(), freshMore: false };
}

const byId = (games: unknown): Map<number, GameSummary> =>
  new Map((Array.isArray(games) ? games : []).filter(isSummary).map((g) => [g.id, g]));

/** The whole lobby, as the server read it (on connect and after a sync): the page of open games `view` shows. */
export function fromLobby(msg: LobbyMessage, view: OpenView = ALL_ON_ONE_PAGE): LobbyLists {
  const open = byId(msg.open);
  const total = typeof msg.open_total === "number" ? msg.open_total : open.size;
  return {
    ...emptyLists(), open, mine: byId(msg.mine), archived: byId(msg.archived), openTotal: total,
    newest: view.page === 1 ? Math.max(0, ...open.keys()) : 0,
  };
}

/** Forget the oldest entries beyond `keep` (ids: newer games have higher ones). */
function trimOldest(ids: { size: number; keys(): Iterable<number>; delete(id: number): boolean }, keep: number): boolean {
  if (ids.size <= keep) return false;
  const oldest = [...ids.keys()].sort((a, b) => a - b).slice(0, ids.size - keep);
  for (const id of oldest) ids.delete(id);
  return true;
}

/** A public message about a game that is not among the page's open games: page 1 puts a new open game in (and
 * forgets the oldest beyond two pages), a later page only counts it for its "new games on page 1" note. */
function elsewhere(lists: LobbyLists, g: GameSummary, msg: LobbyGameMessage, view: OpenView, counted: boolean): boolean {
  const open = g.status === "lobby" && g.visibility === "public";
  if (!open) {
    const was = lists.fresh.delete(g.id);
    if (was && !counted) lists.openTotal = Math.max(0, lists.openTotal - 1);
    return was;
  }
  if (view.page === 1) {
    if (!(msg.new === true || g.id > lists.newest)) return false; // an older game, of a later page
    lists.open.set(g.id, g);
    lists.newest = Math.max(lists.newest, g.id);
    trimOldest(lists.open, 2 * view.size);
  } else {
    if (msg.new !== true || lists.fresh.has(g.id)) return false;
    lists.fresh.add(g.id);
    if (trimOldest(lists.fresh, view.size)) lists.freshMore = true;
  }
  if (!counted) lists.openTotal += 1;
  return true;
}

/** One game's new summary applied to the lists (in place); false if it changed nothing they show (an older
 * summary than theirs, or a game of another page). `view`: the page of open games shown. */
export function applyGame(lists: LobbyLists, msg: LobbyGameMessage, view: OpenView = ALL_ON_ONE_PAGE): boolean {
  const g = msg.game;
  if (!isSummary(g)) return false;
  const known = [lists.open.get(g.id), lists.mine.get(g.id), lists.archived.get(g.id)]
    .filter((x): x is GameSummary => x !== undefined);
  if (msg.mine === undefined) {
    // The public group: only the open list. A game of mine is kept up to date by my own group.
    const shown = lists.open.get(g.id);
    if (shown && shown.version > g.version) return false;
    const counted = typeof msg.open_total === "number";
    const total = lists.openTotal;
    if (counted) lists.openTotal = msg.open_total as number;
    if (!shown) return elsewhere(lists, g, msg, view, counted) || lists.openTotal !== total;
    if (g.status === "lobby" && g.visibility === "public") lists.open.set(g.id, g);
    else {
      lists.open.delete(g.id);
      if (!counted) lists.openTotal = Math.max(0, lists.openTotal - 1);
    }
    return true;
  }
  if (known.some((k) => k.version > g.version)) return false;
  if (g.status !== "lobby") lists.open.delete(g.id);
  else if (lists.open.has(g.id)) lists.open.set(g.id, { ...g, my_move: undefined, archived: undefined });
  lists.mine.delete(g.id);
  lists.archived.delete(g.id);
  if (msg.mine && g.status !== "cancelled") (g.archived ? lists.archived : lists.mine).set(g.id, g);
  return true;
}

/** The open games the page shows, newest first: on page 1 the newest `size` known, on another page its own. */
export function shownOpen(lists: LobbyLists, view: OpenView): GameSummary[] {
  const games = sorted(lists.open);
  return view.page === 1 ? games.slice(0, view.size) : games;
}

/** The line under the open games, as the server's template says it (games/views.py open_pages_text): "Showing the
 * newest 3 of 10 open games." on page 1 (nothing when all are shown), "Showing open games 4–6 of 10 (page 2 of
 * 4)." or "Showing open game 10 of 10 (page 4 of 4)." on another (nothing when the page has none). */
export function openPagesText(view: OpenView, shown: number, total: number): string {
  if (view.page === 1) return total > shown ? `Showing the newest ${shown} of ${total} open games.` : "";
  if (!shown) return "";
  const first = (view.page - 1) * view.size + 1;
  const pages = Math.max(1, Math.ceil(total / view.size));
  const games = shown > 1 ? `games ${first}\u2013${first + shown - 1}` : `game ${first}`;
  return `Showing open ${games} of ${total} (page ${view.page} of ${pages}).`;
}

/** The next page's number while there are older games beyond this page, else null (no Older link). */
export function olderPage(view: OpenView, total: number): number | null {
  return total > view.page * view.size ? view.page + 1 : null;
}

/** A later page's note of the games created since it was read: "1 new open game on page 1", "3 or more new
 * open games on page 1" (when more came than it keeps), "" for none. */
export function freshText(lists: LobbyLists): string {
  const n = lists.fresh.size;
  if (!n) return "";
  return `${n}${lists.freshMore ? " or more" : ""} new open game${n === 1 && !lists.freshMore ? "" : "s"} on page 1`;
}

/** Newest first, as the server lists them (by id). */
export function sorted(map: Map<number, GameSummary>): GameSummary[] {
  return [...map.values()].sort((a, b) => b.id - a.id);
}

const capital = (s: string): string => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** Like the server's `duration` filter: 90 -> "1 min 30 s", 86400 -> "1 day". */
export function duration(seconds: number): string {
  let s = Math.max(0, Math.floor(seconds || 0));
  const parts: string[] = [];
  for (const [unit, size] of [["day", 86400], ["h", 3600], ["min", 60], ["s", 1]] as [string, number][]) {
    const count = Math.floor(s / size);
    s -= count * size;
    if (count) parts.push(`${count} ${unit}${unit === "day" && count > 1 ? "s" : ""}`);
  }
  return parts.slice(0, 2).join(" ") || "0 s";
}

/** " · rated" or " · unrated" (nothing when the server does not say). */
export function ratedText(g: GameSummary): string {
  return g.rated === undefined ? "" : g.rated ? " · rated" : " · unrated";
}

/** A row of My games: "Programming, turn 3 · 2/2 seats · Real-time · rated · private" (+ "won by" separately). */
export function mineText(g: GameSummary): string {
  return `${capital(g.status)}${g.turn ? `, turn ${g.turn}` : ""} · ${g.seated}/${g.max_seats} seats · ` +
    `${PRESET_NAMES[g.timer_preset] ?? capital(g.timer_preset)}${ratedText(g)}${g.visibility === "private" ? " · private" : ""}`;
}

/** A row of Open games: "1/3 seats · 3 lives · Real-time (2 min a move, 10 min game time) · rated", then
 * " · created by " and the creator's name, a link to their player page, with their rating (`creatorRating`). */
export function openText(g: GameSummary): string {
  return `${g.seated}/${g.max_seats} seats · ${g.kind === "rambots" ? "" : `${g.lives} lives · `}${PRESET_NAMES[g.timer_preset] ?? capital(g.timer_preset)} ` +
    `(${duration(g.move_time)} a move, ${duration(g.game_time)} game time)${ratedText(g)}`;
}

/** " (1012)" after the creator's name, or "" when the server does not say. */
export function creatorRating(g: GameSummary): string {
  return typeof g.creator_rating === "number" ? ` (${g.creator_rating})` : "";
}

/** " (+12)", " (−7)", " (±0)" after a rating, for a game's change; "" when there is none. */
export function signedChange(change: number | null | undefined): string {
  if (typeof change !== "number") return "";
  return ` (${change > 0 ? "+" : change < 0 ? "\u2212" : "\u00b1"}${Math.abs(change)})`;
}

/** A player's page (roboracer/ratings): /players/<username>/. */
export function playerUrl(username: string): string {
  return `/players/${encodeURIComponent(username)}/`;
}

export function archivedText(g: GameSummary): string {
  return ` · ${capital(g.status)}`;
}

/** "won by NAME" for a finished game with a winner, else "". */
export function wonBy(g: GameSummary): string {
  return g.status === "finished" && g.winner ? `won by ${g.winner}` : "";
}

/** The create form's custom move and game time fields show only while the "custom" preset is chosen (the page
 * shows them without JavaScript; lobby.ts hides them). */
export function showCustomTimers(preset: { value: string }, fields: { hidden: boolean }[]): void {
  for (const field of fields) field.hidden = preset.value !== "custom";
}
