// The results screen of a finished game, shared by every game kind (kinds.ts): the summary, the mode's
// standings, the table of final places in the kind's own columns (RoboRacer's: check points, lives and
// damage, roboracer/results.ts), the ratings, "Replay the game" and "Play again".
import { h } from "./dom";
import { playerUrl, signedChange } from "./lobbystate";
import { competitionLink, competitionResult, ordinal, resultsSummary } from "./standings";
import { botBadge, isBotAccount } from "./botaccounts";
import { computerBadge, isComputer } from "./computers";
import type { Seat, Snapshot } from "./types";
import css from "./results.css?inline";

function injectStyles(): void {
  if (document.getElementById("roboracer-results-styles")) return;
  const style = document.createElement("style");
  style.id = "roboracer-results-styles";
  style.textContent = css;
  document.head.appendChild(style);
}

/** A kind's results table (kinds.ts): its columns after Place and the name, and its rows. */
export interface CustomResults {
  summary: string;
  /** The name column's heading: "Player" unless the kind says ("Robot"). */
  nameHeading?: string;
  /** Arenas, team games and puzzles show the server's standings (and summary) above the table. */
  modeStandings?: boolean;
  /** [heading, class] of the columns after the name. */
  columns: [string, string][];
  rows: { bot: string; seat: Seat | null; name: string; place: number; winner: boolean; note: string; cells: string[] }[];
}

/** A results row and its name cell, for RoboRacer's table and a kind's own: the swatch, the name linking to the
 * player's page (a computer player has none: plain text with its badge), "(you)" and the row's note. */
function playerRow(r: { bot: string; seat: Seat | null; name: string; place: number; note: string },
                   mine: string | null): [HTMLElement, HTMLElement] {
  const tr = h("tr", { "data-bot": r.bot, "data-place": String(r.place) });
  if (r.bot === mine) tr.classList.add("me");
  const sw = h("span", { class: "swatch small", "aria-hidden": "true" });
  if (r.seat) sw.style.background = r.seat.color;
  const name = h("td", { class: "col-name" });
  const computer = isComputer(r.seat);
  name.append(sw, r.seat && !computer ? h("a", { href: playerUrl(r.seat.user), class: "rr-results-player" }, r.name) : r.name,
    r.bot === mine ? " (you)" : "");
  if (r.seat && computer) {
    tr.classList.add("computer");
    name.append(computerBadge(r.seat));
  }
  if (r.seat && isBotAccount(r.seat.bot_account)) name.append(" ", botBadge());
  if (r.note) name.append(h("span", { class: "rr-results-note" }, r.note));
  return [tr, name];
}

export type PlayAgainResult = { ok: true; url: string } | { ok: false; detail: string };

export interface ResultsActions {
  /** Replay every turn of the game from the start. */
  replay: () => void;
  /** Ask the server for the new game (the same one for every press). */
  playAgain: () => Promise<PlayAgainResult>;
}

/** The results section; shown only while the game is finished. */
export class ResultsScreen {
  readonly el: HTMLElement;
  private readonly title: HTMLHeadingElement;
  private readonly summary: HTMLParagraphElement;
  private readonly ratings: HTMLParagraphElement;
  private readonly body: HTMLTableSectionElement;
  private readonly replayBtn: HTMLButtonElement;
  private readonly againBtn: HTMLButtonElement;
  private readonly openLink: HTMLAnchorElement;
  /** A tournament table's game: back to its tournament (which seats the next game) instead of "Play again". */
  private readonly backLink: HTMLAnchorElement;
  /** What the result did in its competition: "ann advances to round 3", "ann and ben swap places". */
  private readonly competitionResult: HTMLParagraphElement;
  private readonly message: HTMLParagraphElement;
  /** The mode's own standings (arena survival order, teams, puzzle turns): games.selectors.standings. */
  private readonly modeList: HTMLOListElement;
  /** Classic (000) end-of-race awards, as the finished game's snapshot lists them (`awards`). */
  private readonly awardsList: HTMLUListElement;
  private readonly awardsBox: HTMLElement;
  private busy = false;
  private readonly headRow: HTMLTableRowElement;

  constructor(parent: HTMLElement, private readonly actions: ResultsActions) {
    injectStyles();
    this.el = h("section", { id: "results", class: "rr-results", "aria-labelledby": "results-title" });
    this.el.hidden = true;
    this.title = h("h2", { id: "results-title" }, "Results");
    this.summary = h("p", { class: "rr-results-summary" });
    const table = h("table", { class: "rr-results-table" });
    table.appendChild(h("caption", { class: "visually-hidden" }, "Final places"));
    const head = h("thead");
    const hr = h("tr");
    head.appendChild(hr);
    this.headRow = hr;
    this.body = h("tbody");
    table.append(head, this.body);
    this.ratings = h("p", { id: "results-ratings", class: "rr-results-ratings" });
    this.ratings.hidden = true;
    const buttons = h("div", { class: "rr-results-actions" });
    this.replayBtn = h("button", { type: "button", id: "results-replay" }, "Replay the game");
    this.replayBtn.addEventListener("click", () => this.actions.replay());
    this.againBtn = h("button", { type: "button", id: "play-again", class: "primary" }, "Play again");
    this.againBtn.addEventListener("click", () => void this.playAgain());
    this.openLink = h("a", { id: "open-rematch", class: "button" }, "Open the new game");
    this.openLink.hidden = true;
    this.backLink = h("a", { id: "results-competition", class: "button" });
    this.backLink.hidden = true;
    buttons.append(this.replayBtn, this.againBtn, this.openLink, this.backLink);
    this.message = h("p", { class: "rr-results-message", "aria-live": "polite" });
    this.message.hidden = true;
    this.modeList = h("ol", { id: "results-standings", class: "rr-results-standings", "aria-label": "Standings" });
    this.modeList.hidden = true;
    this.awardsList = h("ul", { id: "results-awards", class: "rr-results-awards" });
    this.awardsBox = h("section", { class: "rr-results-awards-box", "aria-labelledby": "results-awards-title" });
    this.awardsBox.append(h("h3", { id: "results-awards-title" }, "Awards"), this.awardsList);
    this.awardsBox.hidden = true;
    this.competitionResult = h("p", { id: "results-competition-result", class: "rr-results-competition" });
    this.competitionResult.hidden = true;
    this.el.append(this.title, this.summary, this.competitionResult, this.modeList, table, this.awardsBox, this.ratings,
      buttons, this.message);
    parent.prepend(this.el);
  }

  update(snap: Snapshot, lastTurn: number, table: CustomResults): void {
    const finished = snap.status === "finished";
    this.el.hidden = !finished;
    if (!finished) return;
    const mine = snap.me?.bot != null ? String(snap.me.bot) : null;
    this.summary.textContent = table.summary;
    if (table.modeStandings) this.showModeStandings(snap, lastTurn, mine);
    else this.modeList.hidden = true;
    // An aborted game says so rather than "You win" (its places stand; nobody is rated).
    if (snap.aborted && table.rows.length > 1) this.summary.textContent = resultsSummary(table.rows, mine, lastTurn, true);
    const heads: [string, string][] = [["Place", "col-place"], [table.nameHeading ?? "Player", "col-name"], ...table.columns];
    const shown = [...this.headRow.children].map((th) => `${th.className}|${th.textContent}`).join();
    if (shown !== heads.map(([text, cls]) => `${cls}|${text}`).join()) {
      this.headRow.replaceChildren(...heads.map(([text, cls]) => h("th", { scope: "col", class: cls }, text)));
    }
    this.body.replaceChildren(...table.rows.map((r) => {
      const [tr, name] = playerRow(r, mine);
      tr.append(h("td", { class: "col-place" }, table.rows.length === 1 ? "–" : ordinal(r.place)), name,
        ...r.cells.map((text, i) => h("td", { class: table.columns[i]?.[1] ?? "" }, text)));
      return tr;
    }));
    this.showAwards(snap, mine, table);
    this.showRatings(snap, table.rows.map((r) => r.seat).filter((seat): seat is NonNullable<typeof seat> => !!seat));
    this.showButtons(snap, lastTurn);
  }

  private showButtons(snap: Snapshot, lastTurn: number): void {
    this.replayBtn.disabled = lastTurn === 0;
    const back = competitionLink(snap);
    const result = competitionResult(snap);
    this.competitionResult.textContent = result;
    this.competitionResult.hidden = !result;
    this.backLink.hidden = !back;
    if (back) {
      this.backLink.href = back.url;
      this.backLink.textContent = back.text;
    }
    const rematch = (snap as { rematch?: { id?: unknown; url?: unknown } | null }).rematch;
    const canPlayAgain = (snap as { can_play_again?: unknown }).can_play_again === true;
    if (rematch && typeof rematch.url === "string") {
      this.openLink.href = rematch.url;
      this.openLink.hidden = false;
      this.againBtn.hidden = true;
    } else {
      this.openLink.hidden = true;
      this.againBtn.hidden = !canPlayAgain;
      this.againBtn.disabled = this.busy;
    }
  }

  /** Arenas, team games and puzzles: the server's summary ("Blue team wins", "Solved in 4 of 6 turns") and
   * its standings, each row with its detail ("last bot alive", "out in turn 3"). Races keep the table alone. */
  private showModeStandings(snap: Snapshot, lastTurn: number, mine: string | null): void {
    const rows = Array.isArray(snap.standings) ? snap.standings : [];
    const special = snap.mode === "arena" || snap.mode === "puzzle" || snap.teams === true;
    this.modeList.hidden = !special || rows.length === 0;
    this.el.dataset.mode = snap.mode ?? "race";
    if (!special) return;
    if (snap.standings_summary) {
      this.summary.textContent = `${snap.standings_summary}${snap.mode === "puzzle" ? "" : ` after ${lastTurn} turn${lastTurn === 1 ? "" : "s"}`}.`;
    }
    this.modeList.replaceChildren(...rows.map((r) => {
      const li = h("li", { "data-bot": r.bot, class: r.team ? `team-${r.team}` : "" });
      if (r.bot === mine) li.classList.add("me");
      const seat = r.seat != null ? snap.seats.find((s) => s.number === r.seat) : undefined;
      const computer = isComputer(seat);
      // A computer seat by its display name ("Normal Computer 1"), not its user name.
      const who = computer && seat ? (seat.display_name?.trim() || seat.user) : (r.user ?? `Robot ${r.bot}`);
      const team = r.team ? ` (${r.team === "blue" ? "Blue" : "Orange"})` : "";
      li.append(h("strong", {}, r.place ? `${ordinal(r.place)} ` : ""), `${who}${team}${r.bot === mine ? " (you)" : ""}`);
      if (computer && seat) li.append(computerBadge(seat));
      if (seat && isBotAccount(seat.bot_account)) li.append(" ", botBadge());
      li.append(h("span", { class: "rr-results-note" }, ` — ${r.detail}`));
      return li;
    }));
  }

  /** Classic's awards: "Pacifist robot: dealt the least damage — alice, bob (0)". */
  private showAwards(snap: Snapshot, mine: string | null, table: CustomResults): void {
    const awards = awardLines((snap as { awards?: unknown }).awards, table.rows.map((r) => [r.bot, r.name] as [string, string]));
    this.awardsBox.hidden = awards.length === 0;
    this.awardsList.replaceChildren(...awards.map((a) => {
      const li = h("li", { "data-award": a.award });
      if (mine && a.bots.includes(mine)) li.classList.add("me");
      li.append(h("strong", { class: "rr-award-title" }, a.title), h("span", { class: "rr-award-who" }, ` — ${a.who}`));
      return li;
    }));
  }

  /** "Rated game. Ratings now: alice 1012 (+12), bob 988 (−12)" (names link to the players' pages), "Unrated game.",
   * "Aborted: not rated ..." (fewer than two players moved; docs/ratings.md "Aborted games"), or nothing when the server does not say. */
  private showRatings(
    snap: Snapshot,
    seats: { user: string; display_name?: string; rating?: number; rating_change?: number | null; computer?: Seat["computer"] }[],
  ): void {
    if (snap.rated === undefined) {
      this.ratings.hidden = true;
      return;
    }
    this.ratings.hidden = false;
    if (snap.aborted) {
      this.ratings.replaceChildren("Aborted: not rated (fewer than two players moved).");
      return;
    }
    if (!snap.rated) {
      this.ratings.replaceChildren("Unrated game.");
      return;
    }
    const parts: (string | HTMLElement)[] = ["Rated game. Ratings now: "];
    seats.filter((s) => typeof s.rating === "number" && !isComputer(s)).forEach((s, i) => {
      if (i) parts.push(", ");
      const name = s.display_name && s.display_name.trim() ? s.display_name : s.user;
      parts.push(h("a", { href: playerUrl(s.user) }, name), ` ${s.rating}${signedChange(s.rating_change)}`);
    });
    this.ratings.replaceChildren(...parts);
  }

  private async playAgain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.againBtn.disabled = true;
    this.message.hidden = true;
    const res = await this.actions.playAgain();
    this.busy = false;
    if (res.ok) {
      location.assign(res.url);
      return;
    }
    this.againBtn.disabled = false;
    this.message.textContent = res.detail;
    this.message.hidden = false;
  }
}

export interface AwardLine { award: string; title: string; bots: string[]; who: string }

/** The snapshot's `awards` (docs/formats.md) as lines to show: each title with its winners' names and the figure
 * ("alice, bob (3)"); names from the results table's rows, else the award's `players`, else "Robot N". */
export function awardLines(raw: unknown, names: [string, string][]): AwardLine[] {
  if (!Array.isArray(raw)) return [];
  const byBot = new Map(names);
  // An award every robot of the race shares singles nobody out ("Terminator: both, 0" next to "Pacifist: both,
  // 0" in a two-robot race that ended early): it is not shown (docs/frontend.md).
  const sharedByAll = (a: Record<string, unknown>): boolean =>
    byBot.size > 0 && Array.isArray(a.bots) && new Set(a.bots.map(String)).size >= byBot.size;
  return raw.filter((a): a is Record<string, unknown> => !!a && typeof a === "object" && typeof (a as { award?: unknown }).award === "string")
    .filter((a) => !sharedByAll(a))
    .map((a) => {
      const bots = Array.isArray(a.bots) ? a.bots.map(String) : [];
      const players = Array.isArray(a.players) ? a.players.map(String) : [];
      const who = bots.map((bot, i) => byBot.get(bot) ?? players[i] ?? `Robot ${bot}`).join(", ") || "nobody";
      const value = typeof a.value === "number" ? ` (${a.value})` : "";
      return { award: String(a.award), title: typeof a.title === "string" ? a.title : String(a.award), bots, who: `${who}${value}` };
    });
}
