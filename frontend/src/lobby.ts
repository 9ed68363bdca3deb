// The lobby page, live: the lobby socket (/ws/lobby/) sends the whole lobby on connect (so a reconnect
// resyncs) and then each changed game's summary; this module keeps "My games", the archive and "Open games"
// in step, rendering the same rows as the server's template (games/templates/games/lobby.html).
// Thumbnails are drawn by the shared board renderer from the page's course-data-<id> scripts.
import { Board, svgEl } from "./board";
import { h } from "./dom";
import { GameSocket, wsUrlFromPath } from "./net";
import {
  applyGame, archivedText, boardName, creatorRating, emptyLists, freshText, fromLobby, type GameSummary,
  type LobbyGameMessage, type LobbyLists, type LobbyMessage, mineText, modulesText, olderPage, openPagesText,
  openText, type OpenView, playerUrl, showCustomTimers, shownOpen, sorted, wonBy,
} from "./lobbystate";
import type { Course } from "./types";
import { botBadge, isBotAccount } from "./botaccounts";
import { fitOpponents, opponentRange } from "./computers";
import { mountPreviewsIn } from "./previews";
import { followKind, mountRulesetFields } from "./createform";

/** Make `parent`'s children exactly `nodes`, in order, moving only what must move: a row that did not change
 * stays where it is (and keeps the keyboard focus, if it had it). */
function syncChildren(parent: Element, nodes: Element[]): void {
  nodes.forEach((node, i) => {
    const at = parent.children[i];
    if (at !== node) parent.insertBefore(node, at ?? null);
  });
  while (parent.children.length > nodes.length) parent.lastElementChild?.remove();
}

function courseData(id: number): Course | null {
  const el = document.getElementById(`course-data-${id}`);
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as Course;
  } catch {
    return null;
  }
}

export class LiveLobby {
  private lists: LobbyLists = emptyLists();
  private socket: GameSocket | null = null;
  /** Thumbnails already drawn, by list and game id ("open-12"), kept across re-renders: redrawing a board
   * is the costly part. */
  private readonly thumbs = new Map<string, HTMLElement>();
  /** Rows drawn by this module, by list and game id, with what they show (data-shown). */
  private readonly rows = new Map<string, HTMLLIElement>();
  /** The page of open games this page shows (`?page=`; the server renders data-page and data-page-size). */
  private readonly view: OpenView;

  constructor(private readonly root: HTMLElement) {
    const page = Number(root.dataset.page), size = Number(root.dataset.pageSize);
    this.view = {
      page: Number.isInteger(page) && page >= 1 ? page : 1,
      size: Number.isInteger(size) && size >= 1 ? size : Number.POSITIVE_INFINITY,
    };
    for (const thumb of root.querySelectorAll<HTMLElement>("ul[id] > li[data-game-id] .thumb")) {
      const li = thumb.closest<HTMLElement>("li");
      const list = li?.parentElement?.id === "my-games" ? "mine" : "open";
      this.thumbs.set(`${list}-${li?.dataset.gameId}`, thumb);
    }
  }

  connect(path: string): void {
    this.socket = new GameSocket(wsUrlFromPath(path), (msg) => this.handle(msg as unknown), (state) => {
      this.root.dataset.socket = state;
    });
    this.socket.connect();
  }

  handle(msg: unknown): void {
    if (!msg || typeof msg !== "object") return;
    const m = msg as { type?: unknown };
    if (m.type === "lobby") {
      this.lists = fromLobby(msg as LobbyMessage, this.view);
      this.render();
    } else if (m.type === "lobby_game") {
      const message = msg as LobbyGameMessage;
      if (applyGame(this.lists, message, this.view)) this.render();
      // A public game started, ended or was cancelled: the featured game and the watch list may change.
      if (!message.mine && message.game?.status !== "lobby") this.refreshLive();
    }
  }

  private liveTimer: number | null = null;

  /** Fetch the featured game and the watch list again (/games/live/), once for a burst of changes. */
  private refreshLive(): void {
    const current = document.getElementById("live-games");
    if (!current || this.liveTimer !== null) return;
    this.liveTimer = window.setTimeout(async () => {
      this.liveTimer = null;
      try {
        const res = await fetch("/games/live/", { credentials: "same-origin", headers: { Accept: "text/html" } });
        if (!res.ok) return;
        const html = new DOMParser().parseFromString(await res.text(), "text/html");
        const fresh = html.getElementById("live-games");
        if (!fresh) return;
        // The featured course's data comes with it, for the thumbnail.
        for (const script of html.querySelectorAll<HTMLScriptElement>("script[type='application/json'][id]")) {
          if (!document.getElementById(script.id)) document.body.appendChild(document.importNode(script, true));
        }
        const node = document.importNode(fresh, true);
        document.getElementById("live-games")?.replaceWith(node);
        mountPreviewsIn(node);
      } catch { /* offline: the next change tries again */ }
    }, 1000);
  }

  private thumb(g: GameSummary, list: string): HTMLElement {
    const key = `${list}-${g.id}`;
    const old = this.thumbs.get(key);
    if (old && old.dataset.courseJson === `course-data-${g.course_id}`) return old;
    const el = h("div", { class: "thumb", "data-course-json": `course-data-${g.course_id}`, "data-label": boardName(g) });
    const course = g.kind === "rambots" ? null : courseData(g.course_id);
    if (g.kind === "rambots") el.appendChild(chessboardThumb());
    else if (course) {
      const board = new Board(el);
      board.drawCourse(course);
      board.describe(g.course_name);
    }
    this.thumbs.set(key, el);
    return el;
  }

  /** A row, the one already shown if its game's text is the same. */
  private row(g: GameSummary, text: string, mine: boolean): HTMLLIElement {
    const key = `${mine ? "mine" : "open"}-${g.id}`;
    const shown = `${text}|${wonBy(g)}|${mine && g.my_move ? 1 : 0}|${modulesText(g.modules)}|${mine ? "" : `${g.creator}${g.creator_bot ? "+bot" : ""}${creatorRating(g)}`}`;
    const old = this.rows.get(key);
    if (old && old.dataset.shown === shown && old.isConnected) return old;
    const li = h("li", { "data-game-id": String(g.id), "data-shown": shown });
    this.rows.set(key, li);
    const info = h("div", { class: "game-info" });
    info.append(h("a", { href: `/games/${g.id}/` }, `Game ${g.id} · ${boardName(g)}`));
    const status = h("span", mine ? { class: "status" } : {}, text);
    const won = wonBy(g);
    if (won) status.append(" · ", h("span", { class: "winner" }, won));
    if (!mine) {
      status.append(" · created by ", h("a", { href: playerUrl(g.creator) }, g.creator));
      if (isBotAccount(g.creator_bot)) status.append(" ", botBadge());
      status.append(creatorRating(g));
    }
    info.append(status);
    const modules = modulesText(g.modules);
    if (modules) info.append(h("span", { class: "modules" }, modules)); // as the template's row
    if (mine && g.my_move) {
      li.classList.add("my-move");
      info.append(h("span", { class: "badge" }, "your move"));
    }
    li.append(this.thumb(g, mine ? "mine" : "open"), info);
    return li;
  }

  /** The list `id`, made in front of its "none" line if the page had no games for it yet; with no games
   * (`wanted` false) the list is taken out, as the server leaves an empty list out of the page, so that
   * only its "none" line shows. Null where there is no list: none wanted, or no such list on the page (My
   * games for a visitor). */
  private list(id: string, wanted: boolean): HTMLElement | null {
    const found = this.root.querySelector<HTMLElement>(`#${id}`);
    if (!wanted) {
      found?.remove();
      return null;
    }
    if (found) return found;
    const empty = this.root.querySelector<HTMLElement>(`#${id}-empty`);
    if (!empty) return null;
    const ul = h("ul", { class: "game-list", id });
    empty.before(ul);
    return ul;
  }

  render(): void {
    const mine = this.list("my-games", this.lists.mine.size > 0);
    if (mine) {
      // A row whose text is unchanged stays as it is (with a "your move" badge a notice may have added).
      syncChildren(mine, sorted(this.lists.mine).map((g) => this.row(g, mineText(g), true)));
    }
    this.showEmpty("#my-games-empty", this.lists.mine.size === 0);
    const archive = this.root.querySelector<HTMLDetailsElement>("#archived-games");
    if (archive) {
      const games = sorted(this.lists.archived);
      archive.hidden = games.length === 0;
      const count = archive.querySelector(".count");
      if (count) count.textContent = String(games.length);
      archive.querySelector("ul")?.replaceChildren(...games.map((g) => {
        const li = h("li", { "data-game-id": String(g.id) });
        li.append(h("a", { href: `/games/${g.id}/` }, `Game ${g.id} · ${boardName(g)}`), archivedText(g));
        const won = wonBy(g);
        if (won) li.append(" · ", h("span", { class: "winner" }, won));
        return li;
      }));
    }
    const openGames = shownOpen(this.lists, this.view);
    const open = this.list("open-games", openGames.length > 0);
    if (open) syncChildren(open, openGames.map((g) => this.row(g, openText(g), false)));
    this.showEmpty("#open-games-empty", openGames.length === 0);
    // A visitor's "Sign up or log in to create and join games" below the page, unless "No open games" says it.
    const signup = document.getElementById("lobby-signup");
    if (signup) signup.hidden = openGames.length === 0;
    this.renderPages(openGames.length);
    const shown = new Set([...[...this.lists.mine.keys()].map((id) => `mine-${id}`),
      ...openGames.map((g) => `open-${g.id}`)]);
    for (const key of [...this.thumbs.keys()]) if (!shown.has(key)) this.thumbs.delete(key);
    for (const key of [...this.rows.keys()]) if (!shown.has(key)) this.rows.delete(key);
    this.root.dataset.synced = "1";
  }

  /** The line under the open games ("Showing the newest 50 of 73 open games."), the Older link while there are
   * older games than this page's, and a later page's note of new games on page 1. */
  private renderPages(shown: number): void {
    const more = this.root.querySelector<HTMLElement>("#open-games-more");
    if (more) {
      const text = openPagesText(this.view, shown, this.lists.openTotal);
      if (more.textContent !== text) more.textContent = text;
      more.hidden = !text;
    }
    const fresh = this.root.querySelector<HTMLElement>("#open-games-new");
    if (fresh) {
      const text = freshText(this.lists);
      const link = fresh.querySelector("a");
      if (!text) fresh.replaceChildren();
      else if (link?.textContent !== text) fresh.replaceChildren(h("a", { href: "/" }, text));
    }
    const nav = this.root.querySelector<HTMLElement>("#open-games-pages");
    if (!nav) return;
    const next = olderPage(this.view, this.lists.openTotal);
    let older = nav.querySelector<HTMLAnchorElement>("#open-games-older");
    if (next === null) older?.remove();
    else if (!older) {
      older = h("a", { id: "open-games-older", rel: "next", href: `?page=${next}` }, "Older games \u2192");
      nav.append(older);
    }
    nav.hidden = !nav.querySelector("a");
  }

  private showEmpty(selector: string, empty: boolean): void {
    const p = this.root.querySelector<HTMLElement>(selector);
    if (p) p.hidden = !empty;
  }
}

/** A RAMbots game's thumbnail: an 8x8 chessboard. */
function chessboardThumb(): SVGSVGElement {
  const svg = svgEl("svg", { viewBox: "0 0 8 8", class: "rr-board ram-thumb", role: "img", "aria-label": "RAMbots: an 8 by 8 chessboard" });
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) {
    svgEl("rect", { x, y, width: 1, height: 1, fill: (x + y) % 2 ? "#b58863" : "#f0dcb4" }, svg);
  }
  return svg;
}

/** The lobby's game kind choice (radios named "create-kind"): RoboRacer's create form (#create-game: course,
 * ruleset, modules, lives, teams) or another kind's own (form[data-create-kind]: RAMbots' 2 to 4 players,
 * Speedbots), one shown at a time. */
export function mountKindChoice(): void {
  const radios = [...document.querySelectorAll<HTMLInputElement>("input[name=create-kind]")];
  const forms: Record<string, HTMLElement | null> = { roboracer: document.getElementById("create-game") };
  for (const form of document.querySelectorAll<HTMLElement>("form[data-create-kind]")) {
    forms[form.dataset.createKind ?? ""] = form;
  }
  if (radios.length < 2) return;
  const apply = (): void => {
    const chosen = radios.find((r) => r.checked)?.value ?? "roboracer";
    for (const [kind, form] of Object.entries(forms)) if (form) form.hidden = kind !== chosen;
    followKind(chosen);
  };
  for (const r of radios) r.addEventListener("change", apply);
  apply();
}

/** Hide the create form's custom timer fields unless the custom preset is chosen. */
function mountCustomTimers(): void {
  const kinds = [...document.querySelectorAll<HTMLElement>("form[data-create-kind]")].map((f) => f.dataset.createKind);
  for (const prefix of ["id_", ...kinds.map((kind) => `id_${kind}-`)]) {
    const preset = document.getElementById(`${prefix}timer_preset`) as HTMLSelectElement | null;
    const fields = [`${prefix}move_minutes`, `${prefix}game_minutes`]
      .map((id) => document.getElementById(id)?.closest("p"))
      .filter((p): p is HTMLParagraphElement => !!p);
    if (!preset || !fields.length) continue;
    const update = (): void => showCustomTimers(preset, fields);
    preset.addEventListener("change", update);
    update();
  }
}

/** "Play against the computer": only the numbers of opponents the chosen course has room for are offered (its
 * options carry data-min and data-max); the server checks it again. */
function mountPractice(): void {
  const course = document.getElementById("practice_course") as HTMLSelectElement | null;
  const opponents = document.getElementById("practice_opponents") as HTMLSelectElement | null;
  if (!course || !opponents) return;
  const apply = (): void => {
    const chosen = course.selectedOptions[0];
    const range = opponentRange(chosen?.dataset.min, chosen?.dataset.max);
    if (!range) return;
    for (const option of Array.from(opponents.options)) {
      const n = Number(option.value);
      option.disabled = n < range[0] || n > range[1];
    }
    const keep = fitOpponents(Number(opponents.value) || 1, range);
    if (String(keep) !== opponents.value) opponents.value = String(keep);
  };
  course.addEventListener("change", apply);
  apply();
}

/** A refused create is summed up at the top of the page (games/views.py create_errors), with `autofocus`. The
 * summary is focused and scrolled to now and again once the page has loaded: the browser's own autofocus may have
 * come first, and the page may have been laid out again since (the POST came back to the URL the player was
 * scrolled down on). Not if the player has already moved the focus elsewhere. */
function focusCreateErrors(): void {
  const summary = document.getElementById("create-errors");
  if (!summary) return;
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  const show = (): void => {
    const active = document.activeElement;
    if (active && active !== summary && active !== document.body) return;
    if (active !== summary) summary.focus({ preventScroll: true });
    summary.scrollIntoView({ block: "nearest" });
  };
  show();
  if (document.readyState !== "complete") window.addEventListener("load", show, { once: true });
}

function mount(): void {
  focusCreateErrors();
  mountCustomTimers();
  mountKindChoice();
  mountRulesetFields();
  mountPractice();
  const root = document.getElementById("lobby-root");
  if (!root || root.dataset.live === "1") return;
  root.dataset.live = "1";
  const lobby = new LiveLobby(root);
  lobby.connect(root.dataset.wsPath || "/ws/lobby/");
  (window as unknown as { roboracerLobby?: unknown }).roboracerLobby = lobby;
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount, { once: true });
else mount();
