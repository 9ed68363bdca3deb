// "Your move" notices from the per-user socket /ws/notifications/: a notice with a link to the game,
// a count in the tab title, and on the lobby the game's "your move" badge. The game page ignores
// notices about its own game (its own socket already deals the hand).
import { formatDuration } from "./clock";
import { h } from "./dom";
import { GameSocket, wsUrlFromPath } from "./net";
import type { YourTurnNotice } from "./types";

export function isYourTurn(v: unknown): v is YourTurnNotice {
  if (!v || typeof v !== "object") return false;
  const m = v as Record<string, unknown>;
  return m.type === "your_turn" && typeof m.game === "number";
}

/** "play again" from a finished game: `{type: "rematch", game, from_game, course, by, url}`. */
export interface RematchNotice { type: "rematch"; game: number; from_game?: number; course?: string; by?: string; url?: string }

export function isRematch(v: unknown): v is RematchNotice {
  if (!v || typeof v !== "object") return false;
  const m = v as Record<string, unknown>;
  return m.type === "rematch" && typeof m.game === "number";
}

/** "alice wants to play again: game 13 (Tiny Yard)". */
export function rematchText(n: RematchNotice): string {
  const course = typeof n.course === "string" && n.course ? ` (${n.course})` : "";
  return `${typeof n.by === "string" && n.by ? n.by : "A player"} wants to play again: game ${n.game}${course}`;
}

/** An organiser invites me to replace a tournament player (docs/tournaments.md "Replace"):
 * `{type: "tournament_invitation", invitation, tournament, tournament_name, replacing, game, url}`. */
export interface InvitationNotice {
  type: "tournament_invitation"; invitation: number; tournament?: number; tournament_name?: string;
  replacing?: string; game?: number; url?: string;
}

export function isInvitation(v: unknown): v is InvitationNotice {
  if (!v || typeof v !== "object") return false;
  const m = v as Record<string, unknown>;
  return m.type === "tournament_invitation" && typeof m.invitation === "number";
}

/** "You are invited to replace bob in Spring Cup (game 12)". */
export function invitationText(n: InvitationNotice): string {
  const who = typeof n.replacing === "string" && n.replacing ? n.replacing : "a player";
  const where = typeof n.tournament_name === "string" && n.tournament_name ? ` in ${n.tournament_name}` : " in a tournament";
  const game = typeof n.game === "number" ? ` (game ${n.game})` : "";
  return `You are invited to replace ${who}${where}${game}`;
}

/** Where the invitation's notice leads: the server's path ("My tournaments", where it is answered), never
 * another site. */
export function invitationUrl(n: InvitationNotice): string {
  return typeof n.url === "string" && n.url.startsWith("/") && !n.url.startsWith("//") ? n.url : "/tournaments/mine/";
}

/** A notice kept for the bell carries `notice: {id, ...}` (games/services/notices.py): its id, else null. */
export function keptNotice(v: unknown): number | null {
  if (!v || typeof v !== "object") return null;
  const notice = (v as { notice?: unknown }).notice;
  if (!notice || typeof notice !== "object") return null;
  const id = (notice as { id?: unknown }).id;
  return typeof id === "number" && Number.isInteger(id) && id > 0 ? id : null;
}

/** A link the server sent, if it is a path on this site ("/games/5/"), else `fallback`: never another site. */
export function sitePath(link: unknown, fallback: string): string {
  return typeof link === "string" && link.startsWith("/") && !link.startsWith("//") && !link.includes("\\") ? link : fallback;
}

/** `{type: "game_over", game}`: a game of mine ended. */
export function isGameOver(v: unknown): v is { type: "game_over"; game: number } {
  if (!v || typeof v !== "object") return false;
  const m = v as Record<string, unknown>;
  return m.type === "game_over" && typeof m.game === "number";
}

/** On the lobby: the game's row loses its "your move" badge. */
function unmarkLobby(game: number): void {
  const li = document.querySelector<HTMLElement>(`#my-games li[data-game-id="${game}"]`);
  if (!li) return;
  li.classList.remove("my-move");
  for (const badge of li.querySelectorAll(".badge")) if (badge.textContent === "your move") badge.remove();
}

/** One more unread notice on the header's bell: its count and its label. */
export function bumpBell(doc: Document): void {
  const bell = doc.getElementById("rr-bell");
  const count = doc.getElementById("rr-bell-count");
  if (!bell || !count) return;
  const n = (Number(count.textContent) || 0) + 1;
  count.textContent = String(n);
  count.hidden = false;
  bell.classList.add("rr-bell-unread");
  bell.setAttribute("aria-label", `Notices (${n} unread)`);
}

/** "Your move in game 12 (Tiny Yard), turn 3"; a RAMbots game's "round 3" (the notice's `turn_noun`). */
export function noticeText(n: YourTurnNotice): string {
  const course = typeof n.course === "string" && n.course ? ` (${n.course})` : "";
  const noun = n.turn_noun === "round" ? "round" : "turn";
  const turn = typeof n.turn === "number" ? `, ${noun} ${n.turn}` : "";
  return `Your move in game ${n.game}${course}${turn}`;
}

/** "5h 12m left" before a deadline, "" without one. */
export function deadlineText(deadline: string | null | undefined, nowMs: number): string {
  const t = typeof deadline === "string" ? Date.parse(deadline) : NaN;
  if (!Number.isFinite(t)) return "";
  return `${formatDuration(Math.max(0, (t - nowMs) / 1000))} left`;
}

/** The tab title with the count of waiting games in front: "(2) Lobby · RoboRacer". */
export function titleWithCount(title: string, count: number): string {
  const bare = title.replace(/^\(\d+\) /, "");
  return count > 0 ? `(${count}) ${bare}` : bare;
}

export class Notifications {
  readonly el: HTMLElement;
  private readonly pending = new Map<number, HTMLElement>();
  /** The kept notices counted on the bell already (a message delivered twice counts once). */
  private readonly belled = new Set<number>();
  private socket: GameSocket | null = null;

  constructor(private readonly currentGame: number | null, parent: HTMLElement = document.body) {
    this.el = h("section", { id: "rr-notices", class: "rr-notices", "aria-label": "Notifications", role: "status", "aria-live": "polite" });
    this.el.hidden = true;
    // On a game's page the notices float over it (issue 37, item 6): one that arrives mid-turn never pushes
    // the board down or hides my robot.
    if (currentGame !== null) this.el.classList.add("rr-notices-overlay");
    parent.prepend(this.el);
  }

  connect(path: string): void {
    // Notices are a convenience: a server that keeps refusing the socket is not asked forever.
    this.socket = new GameSocket(wsUrlFromPath(path), (m) => this.handle(m), () => undefined, 3);
    this.socket.connect();
  }

  handle(msg: unknown): void {
    const kept = keptNotice(msg);
    if (kept !== null && !this.belled.has(kept)) {
      this.belled.add(kept);
      bumpBell(document);
    }
    if (isRematch(msg)) {
      this.invite(msg);
      return;
    }
    if (isInvitation(msg)) {
      this.tournamentInvitation(msg);
      return;
    }
    if (kept !== null) {
      this.keptNotice(kept, msg as { type?: unknown; text?: unknown; link?: unknown });
      return;
    }
    if (isGameOver(msg)) {
      // The game ended: its "your move" notice and lobby badge no longer hold.
      if (this.pending.get(msg.game)?.dataset.kind === undefined) this.dismiss(msg.game);
      unmarkLobby(msg.game);
      return;
    }
    if (!isYourTurn(msg) || msg.game === this.currentGame) return;
    this.pending.get(msg.game)?.remove();
    const box = h("div", { class: "rr-notice", "data-game": String(msg.game) });
    const link = h("a", { href: `/games/${msg.game}/` }, noticeText(msg));
    box.append(link);
    const left = deadlineText(msg.deadline, Date.now());
    if (left) box.append(h("span", { class: "rr-notice-deadline" }, ` · ${left}`));
    const close = h("button", { type: "button", class: "rr-notice-close", "aria-label": `Dismiss: ${noticeText(msg)}` }, "×");
    close.addEventListener("click", () => this.dismiss(msg.game));
    box.append(close);
    this.pending.set(msg.game, box);
    this.el.append(box);
    this.el.hidden = false;
    this.markLobby(msg.game);
    this.updateTitle();
  }

  /** An invitation to a "play again" game: a notice linking to it (its invite link if private). */
  private invite(msg: RematchNotice): void {
    this.pending.get(msg.game)?.remove();
    const url = typeof msg.url === "string" && msg.url.startsWith("/") ? msg.url : `/games/${msg.game}/`;
    const box = h("div", { class: "rr-notice", "data-game": String(msg.game), "data-kind": "rematch" });
    box.append(h("a", { href: url }, rematchText(msg)));
    const close = h("button", { type: "button", class: "rr-notice-close", "aria-label": `Dismiss: ${rematchText(msg)}` }, "×");
    close.addEventListener("click", () => this.dismiss(msg.game));
    box.append(close);
    this.pending.set(msg.game, box);
    this.el.append(box);
    this.el.hidden = false;
    this.updateTitle();
  }

  /** An invitation to replace a tournament player: a notice linking to "My tournaments", where it is answered. */
  private tournamentInvitation(msg: InvitationNotice): void {
    const key = -msg.invitation;  // keyed apart from games (ids are positive)
    this.pending.get(key)?.remove();
    const text = invitationText(msg);
    const box = h("div", { class: "rr-notice", "data-invitation": String(msg.invitation), "data-kind": "tournament-invitation" });
    box.append(h("a", { href: invitationUrl(msg) }, text));
    const close = h("button", { type: "button", class: "rr-notice-close", "aria-label": `Dismiss: ${text}` }, "×");
    close.addEventListener("click", () => this.dismiss(key));
    box.append(close);
    this.pending.set(key, box);
    this.el.append(box);
    this.el.hidden = false;
    this.updateTitle();
  }

  /** Any other kept notice ("your tournament game is ready", "you were challenged"): its words and its link, as
   * the server wrote them (a path on this site only). Keyed by the notice's id, apart from games. */
  private keptNotice(id: number, msg: { type?: unknown; text?: unknown; link?: unknown }): void {
    const text = typeof msg.text === "string" && msg.text ? msg.text : "You have a new notice";
    const key = -1_000_000_000 - id;
    this.pending.get(key)?.remove();
    const box = h("div", { class: "rr-notice", "data-kind": String(msg.type ?? "notice").replace(/_/g, "-"), "data-notice": String(id) });
    box.append(h("a", { href: sitePath(msg.link, "/notices/") }, text));
    const close = h("button", { type: "button", class: "rr-notice-close", "aria-label": `Dismiss: ${text}` }, "×");
    close.addEventListener("click", () => this.dismiss(key));
    box.append(close);
    this.pending.set(key, box);
    this.el.append(box);
    this.el.hidden = false;
    this.updateTitle();
  }

  dismiss(game: number): void {
    this.pending.get(game)?.remove();
    this.pending.delete(game);
    this.el.hidden = this.pending.size === 0;
    this.updateTitle();
  }

  private updateTitle(): void {
    document.title = titleWithCount(document.title, this.pending.size);
  }

  /** On the lobby: the game's row under My games gets its "your move" badge. */
  private markLobby(game: number): void {
    const li = document.querySelector<HTMLElement>(`#my-games li[data-game-id="${game}"]`);
    if (!li) return;
    li.classList.add("my-move");
    const info = li.querySelector(".game-info") ?? li;
    if (!info.querySelector(".badge")) info.append(h("span", { class: "badge" }, "your move"));
  }
}
