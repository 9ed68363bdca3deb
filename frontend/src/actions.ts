// Game controls in the panel: Leave (or forfeit) and Cancel, each with an inline confirmation; the
// invite link of a private game with a Copy button; the archived note.
import { h } from "./dom";
import type { PostJsonResult } from "./net";
import type { Snapshot } from "./types";

export type GameAction = "leave" | "cancel";

interface Confirm { question: string; yes: string; no: string }

/** A robot still in the race besides mine: its player's name and team (team play), for the forfeit question. */
export interface Rival { name: string; team: string | null }

/** Who is still racing besides me: seats not ejected whose robot is still in the game (on the course, or with a
 * life left to come back with). A kind without robots in `bots` (RAMbots) counts the seats not ejected. */
export function rivalsLeft(snap: Snapshot): Rival[] {
  const mine = snap.me?.seat;
  const bots = Array.isArray(snap.bots) ? snap.bots : [];
  const rivals: Rival[] = [];
  for (const seat of snap.seats ?? []) {
    if (seat.number === mine || seat.ejected) continue;
    const bot = seat.bot != null ? bots.find((b) => String(b.id) === String(seat.bot)) : undefined;
    if (bot && bot.at == null && typeof bot.lives === "number" && bot.lives <= 0) continue;  // out of lives
    rivals.push({ name: seat.display_name?.trim() || seat.user, team: seat.team ?? bot?.team ?? null });
  }
  return rivals;
}

function teamName(team: string): string {
  return `the ${team.charAt(0).toUpperCase()}${team.slice(1)} team`;
}

/** What forfeiting does, given who is left: with one rival the game ends at once and they win; in team play, when
 * only one team is left the game ends and that team wins; otherwise the others race on. */
export function forfeitQuestion(rivals: Rival[], teams = false): string {
  if (rivals.length === 1) {
    return `Forfeit? Your robot leaves the race and the game ends now: ${rivals[0].name} wins by forfeit.`;
  }
  const left = new Set(rivals.map((r) => r.team));
  if (teams && rivals.length > 1 && left.size === 1) {
    const [team] = [...left];
    if (team) return `Forfeit? Your robot leaves the race and the game ends now: ${teamName(team)} wins.`;
  }
  if (rivals.length === 0) return "Forfeit? Your robot leaves the race.";
  return `Forfeit? Your robot leaves the race; the other ${rivals.length} robots race on without you.`;
}

export function confirmText(action: GameAction, status: string, snap: Snapshot | null = null): Confirm {
  if (action === "cancel") {
    return { question: "Cancel this game for everyone? It will not be played.", yes: "Yes, cancel the game", no: "Keep the game" };
  }
  if (status === "lobby") return { question: "Leave this game? Your seat is freed for someone else.", yes: "Yes, leave", no: "Stay" };
  return {
    question: snap ? forfeitQuestion(rivalsLeft(snap), snap.teams === true)
      : "Forfeit? Your robot leaves the race.",
    yes: "Yes, forfeit", no: "Keep playing",
  };
}

/** The question before starting a game with empty seats ("Start now with 1 of 3 players? …"); null when every
 * seat is taken (nothing to ask). Without the numbers (no snapshot yet) it still asks. A rated game started by
 * its creator alone is not rated (docs/ratings.md): the question says so. */
export function startQuestion(seated: number | null, max: number | null, rated = false): string | null {
  if (seated !== null && max !== null && seated >= max) return null;
  if (seated === null || max === null) return "Start now? Any empty seats will be closed.";
  const alone = seated === 1 && rated ? ", and a game with one player is not rated" : "";
  return `Start now with ${seated} of ${max} players? The empty seats will be closed${alone}.`;
}

/** The creator's server-rendered Start form (`#start-game`) asks first, in the same inline way as Leave and
 * Cancel, when seats are still empty: starting closes them for good. */
export function confirmStart(snapshot: () => Snapshot | null): void {
  const button = document.getElementById("start-game");
  const form = button?.closest("form");
  if (!button || !form) return;
  const box = h("div", { class: "rr-confirm rr-start-confirm", role: "group", "aria-labelledby": "start-confirm-text" });
  const text = h("p", { id: "start-confirm-text" });
  const yes = h("button", { type: "button", id: "start-confirm-yes" }, "Yes, start now");
  const no = h("button", { type: "button", id: "start-confirm-no" }, "Wait for players");
  const row = h("div", { class: "rr-confirm-buttons" });
  row.append(yes, no);
  box.append(text, row);
  box.hidden = true;
  form.after(box);
  let confirmed = false;
  const close = (): void => { box.hidden = true; button.focus(); };
  form.addEventListener("submit", (ev) => {
    const snap = snapshot();
    const max = snap ? (snap.max_seats ?? snap.course?.players?.[1] ?? null) : null;
    const question = startQuestion(snap ? snap.seats.length : null, max, snap?.rated === true);
    if (confirmed || question === null) return;
    ev.preventDefault();
    text.textContent = question;
    box.hidden = false;
    no.focus();  // the safe choice has the focus
  });
  yes.addEventListener("click", () => {
    confirmed = true;
    box.hidden = true;
    form.requestSubmit();
  });
  no.addEventListener("click", close);
  box.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { ev.preventDefault(); close(); }
  });
  // A hidden form (the game started elsewhere, or seats were left) takes its question with it.
  new MutationObserver(() => { if (form.hidden) box.hidden = true; }).observe(form, { attributes: true, attributeFilter: ["hidden"] });
}

/** An absolute URL for a path the server gives ("/games/7/?invite=…"). */
export function absoluteUrl(url: string, origin: string): string {
  try {
    return new URL(url, origin).href;
  } catch {
    return url;
  }
}

export class GameActions {
  readonly el: HTMLElement;
  private readonly buttons: HTMLDivElement;
  private readonly leaveBtn: HTMLButtonElement;
  private readonly cancelBtn: HTMLButtonElement;
  private readonly confirmBox: HTMLDivElement;
  private readonly confirmText: HTMLParagraphElement;
  private readonly yesBtn: HTMLButtonElement;
  private readonly noBtn: HTMLButtonElement;
  private readonly error: HTMLParagraphElement;
  private readonly invite: HTMLDivElement;
  private readonly inviteInput: HTMLInputElement;
  private readonly copyBtn: HTMLButtonElement;
  private readonly copyStatus: HTMLSpanElement;
  private readonly archived: HTMLParagraphElement;
  private pending: GameAction | null = null;
  private status = "";
  private snap: Snapshot | null = null;
  private busy = false;

  constructor(
    parent: HTMLElement,
    private readonly post: (action: GameAction) => Promise<PostJsonResult<unknown>>,
    private readonly done: (action: GameAction, status: string) => void,
  ) {
    this.el = h("section", { class: "rr-actions", "aria-label": "Game controls" });
    this.buttons = h("div", { class: "rr-actions-buttons" });
    this.leaveBtn = h("button", { type: "button", id: "leave-game", class: "rr-danger-outline" }, "Leave game");
    this.cancelBtn = h("button", { type: "button", id: "cancel-game", class: "rr-danger-outline" }, "Cancel game");
    this.buttons.append(this.leaveBtn, this.cancelBtn);
    this.confirmBox = h("div", { class: "rr-confirm", role: "group", "aria-labelledby": "rr-confirm-text" });
    this.confirmText = h("p", { id: "rr-confirm-text" });
    this.yesBtn = h("button", { type: "button", id: "confirm-yes", class: "rr-danger" });
    this.noBtn = h("button", { type: "button", id: "confirm-no" });
    const row = h("div", { class: "rr-confirm-buttons" });
    row.append(this.yesBtn, this.noBtn);
    this.confirmBox.append(this.confirmText, row);
    this.confirmBox.hidden = true;
    this.error = h("p", { id: "actions-error", class: "rr-error", role: "alert" });

    this.invite = h("div", { class: "rr-invite" });
    const label = h("label", { for: "invite-url" }, "Invite link (private game: only people with this link can join)");
    this.inviteInput = h("input", { id: "invite-url", type: "text", readonly: "" });
    this.copyBtn = h("button", { type: "button", id: "copy-invite" }, "Copy link");
    this.copyStatus = h("span", { class: "rr-copy-status", "aria-live": "polite" });
    const inviteRow = h("div", { class: "rr-invite-row" });
    inviteRow.append(this.inviteInput, this.copyBtn);
    this.invite.append(label, inviteRow, this.copyStatus);
    this.invite.hidden = true;

    this.archived = h("p", { class: "rr-archived rr-hint", id: "archived-note" },
      "Archived: this game does not show under My games in the lobby. Send !archive in the chat to bring it back.");
    this.archived.hidden = true;

    this.el.append(this.invite, this.buttons, this.confirmBox, this.error, this.archived);
    parent.appendChild(this.el);

    this.leaveBtn.addEventListener("click", () => this.ask("leave"));
    this.cancelBtn.addEventListener("click", () => this.ask("cancel"));
    this.noBtn.addEventListener("click", () => this.closeConfirm(true));
    this.yesBtn.addEventListener("click", () => void this.confirm());
    this.confirmBox.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") { ev.preventDefault(); this.closeConfirm(true); }
    });
    this.inviteInput.addEventListener("focus", () => this.inviteInput.select());
    this.copyBtn.addEventListener("click", () => void this.copy());
  }

  update(snap: Snapshot): void {
    this.status = snap.status;
    this.snap = snap;
    const running = snap.status !== "lobby";
    this.leaveBtn.hidden = !snap.can_leave || !snap.me;
    this.leaveBtn.textContent = running ? "Forfeit" : "Leave game";
    this.leaveBtn.setAttribute("aria-label", running ? "Forfeit: leave the race (asks first)" : "Leave this game (asks first)");
    this.cancelBtn.hidden = !snap.can_cancel;
    this.cancelBtn.setAttribute("aria-label", "Cancel this game for everyone (asks first)");
    this.buttons.hidden = this.leaveBtn.hidden && this.cancelBtn.hidden;
    if (this.pending && (this.pending === "leave" ? !snap.can_leave : !snap.can_cancel)) this.closeConfirm(false);
    // Someone else forfeited while I was asked: say what my forfeit does now.
    if (this.pending === "leave") this.confirmText.textContent = confirmText("leave", this.status, snap).question;

    const url = typeof snap.invite_url === "string" && snap.invite_url ? absoluteUrl(snap.invite_url, location.origin) : "";
    this.invite.hidden = !url;
    if (this.inviteInput.value !== url) this.inviteInput.value = url;
    this.archived.hidden = !snap.me?.archived;
    this.el.hidden = this.buttons.hidden && this.invite.hidden && this.archived.hidden && !this.error.textContent;
  }

  private ask(action: GameAction): void {
    const t = confirmText(action, this.status, this.snap);
    this.pending = action;
    this.confirmText.textContent = t.question;
    this.yesBtn.textContent = t.yes;
    this.noBtn.textContent = t.no;
    this.confirmBox.hidden = false;
    this.error.textContent = "";
    this.noBtn.focus();  // the safe choice has the focus
  }

  private closeConfirm(refocus: boolean): void {
    const was = this.pending;
    this.pending = null;
    this.confirmBox.hidden = true;
    if (refocus && was) (was === "leave" ? this.leaveBtn : this.cancelBtn).focus();
  }

  private async confirm(): Promise<void> {
    const action = this.pending;
    if (!action || this.busy) return;
    this.busy = true;
    this.yesBtn.disabled = true;
    const status = this.status;
    const res = await this.post(action);
    this.busy = false;
    this.yesBtn.disabled = false;
    this.closeConfirm(false);
    if (!res.ok) {
      this.error.textContent = res.detail;
      this.el.hidden = false;
      return;
    }
    this.done(action, status);
  }

  private async copy(): Promise<void> {
    const url = this.inviteInput.value;
    let ok = false;
    try {
      await navigator.clipboard.writeText(url);
      ok = true;
    } catch {
      this.inviteInput.focus();
      this.inviteInput.select();
      try { ok = document.execCommand("copy"); } catch { ok = false; }
    }
    this.copyStatus.textContent = ok ? "Copied." : "Select the link and copy it (Ctrl+C).";
    this.copyBtn.focus();
  }
}
