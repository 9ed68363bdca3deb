// The game's chat: the message list (from the snapshot, then `chat` events), and for seated players an
// input that posts to /api/games/<id>/chat/. Chat text is plain text: it only ever goes in as
// textContent (h() in dom.ts), never as markup.
import { botBadge, isBotAccount } from "./botaccounts";
import { h } from "./dom";
import type { PostJsonResult } from "./net";
import type { ChatMessage } from "./types";

export const CHAT_MAX = 500;
/** The snapshot carries the last 100 messages; older ones come a page at a time. */
const PAGE = 100;
/** Messages kept on screen. */
const KEEP = 1000;

export interface Viewer { seat: number | null; user: string | null }

/** "14:05" in the browser's time zone ("" if the time is unreadable). */
export function chatTime(iso: unknown): string {
  const t = typeof iso === "string" ? new Date(iso) : null;
  if (!t || Number.isNaN(t.getTime())) return "";
  return `${String(t.getHours()).padStart(2, "0")}:${String(t.getMinutes()).padStart(2, "0")}`;
}

export function isOwn(msg: ChatMessage, viewer: Viewer): boolean {
  if (msg.system) return false;
  if (viewer.seat !== null && msg.seat !== null && msg.seat !== undefined) return msg.seat === viewer.seat;
  return viewer.user !== null && msg.user === viewer.user;
}

/** A message is shaped well enough to show (anything else from the wire is dropped). */
export function isChatMessage(v: unknown): v is ChatMessage {
  if (!v || typeof v !== "object") return false;
  const m = v as Record<string, unknown>;
  return typeof m.id === "number" && typeof m.text === "string";
}

/** One line of the list: who, when, what. Text only, never markup. */
export function renderChatMessage(msg: ChatMessage, viewer: Viewer): HTMLLIElement {
  const own = isOwn(msg, viewer);
  const li = h("li", { class: "chat-msg", "data-id": String(msg.id) });
  if (msg.system) li.classList.add("system");
  if (own) li.classList.add("own");
  if (typeof msg.seat === "number") li.dataset.seat = String(msg.seat);
  if (msg.team) {
    li.classList.add("team-only");
    li.dataset.team = msg.team;
  }
  const who = msg.system ? "RoboRacer" : (msg.display_name || msg.user || "?") + (own ? " (you)" : "");
  const time = chatTime(msg.at);
  const head = h("span", { class: "chat-head" });
  head.append(h("span", { class: "chat-who" }, who));
  if (!msg.system && isBotAccount(msg.bot_account)) head.append(botBadge());
  if (msg.team) head.append(h("span", { class: `chat-team team-${msg.team}`, title: "Only your team sees this" }, "team"));
  if (time) head.append(h("time", { class: "chat-time", datetime: String(msg.at) }, time));
  li.append(head, h("span", { class: "chat-text" }, String(msg.text)));
  return li;
}

function seatNumbers(seats: unknown[]): string {
  return `seat${seats.length > 1 ? "s" : ""} ${seats.join(", ")}`;
}

/** What a command's answer means, in a sentence; `names` turns seat numbers into the players' names. */
export function commandText(data: unknown, names: (seats: unknown[]) => string = seatNumbers): string {
  if (!data || typeof data !== "object") return "";
  const d = data as Record<string, unknown>;
  if (d.command === "eject") {
    const seats = Array.isArray(d.ejected) ? d.ejected : [];
    return seats.length
      ? `Ejected ${names(seats)}: out of game time, ${seats.length > 1 ? "they forfeit" : "a forfeit"}.`
      : "Nobody to eject: no player's game time has run out.";
  }
  if (d.command === "archive") {
    return d.archived
      ? "Archived: this game no longer shows under My games. Send !archive again to bring it back."
      : "Unarchived: this game shows under My games again.";
  }
  return typeof d.command === "string" ? `Done: ${d.command}.` : "";
}

export class ChatPanel {
  readonly el: HTMLElement;
  readonly list: HTMLOListElement;
  private readonly form: HTMLFormElement;
  private readonly input: HTMLInputElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly error: HTMLParagraphElement;
  private readonly info: HTMLParagraphElement;
  private readonly readOnly: HTMLParagraphElement;
  private readonly counter: HTMLSpanElement;
  private readonly empty: HTMLParagraphElement;
  private readonly olderBtn: HTMLButtonElement;
  private readonly ids = new Set<number>();
  private viewer: Viewer = { seat: null, user: null };
  private sending = false;
  private readonly toAll: HTMLInputElement;
  private readonly teamHelp: HTMLSpanElement;
  private readonly audience: HTMLLabelElement;

  constructor(
    parent: HTMLElement,
    private readonly send: ((text: string) => Promise<PostJsonResult<unknown>>) | null,
    /** Called with a command's answer (e.g. to re-sync after !archive). */
    private readonly onCommand: (data: Record<string, unknown>) => void = () => undefined,
    /** Older messages (before a message id), oldest first; null when they could not be loaded. */
    private readonly loadOlder: ((before: number) => Promise<unknown[] | null>) | null = null,
  ) {
    this.el = h("section", { class: "rr-chat", "aria-labelledby": "rr-chat-title" });
    this.el.append(h("h2", { id: "rr-chat-title" }, "Chat"));
    // role=log: new lines are read out politely as they arrive.
    this.list = h("ol", {
      id: "chat-log", class: "chat-log", role: "log", "aria-live": "polite", "aria-relevant": "additions",
      "aria-label": "Chat messages", tabindex: "0",
    });
    this.empty = h("p", { class: "chat-empty" }, "No messages yet.");
    this.olderBtn = h("button", { type: "button", id: "chat-older", class: "chat-older" }, "Show older messages");
    this.olderBtn.hidden = true;
    this.olderBtn.addEventListener("click", () => void this.older());
    this.form = h("form", { id: "chat-form", class: "chat-form", novalidate: "" });
    const label = h("label", { for: "chat-input", class: "visually-hidden" }, "Chat message");
    this.input = h("input", {
      id: "chat-input", type: "text", autocomplete: "off", enterkeyhint: "send", placeholder: "Say something…",
      "aria-describedby": "chat-help chat-error",
    });
    this.sendBtn = h("button", { type: "submit", id: "chat-send" }, "Send");
    this.counter = h("span", { class: "chat-counter", "aria-hidden": "true" });
    const row = h("div", { class: "chat-row" });
    row.append(label, this.input, this.sendBtn);
    // Team play: lines go to the own team unless "everyone" is ticked (it prefixes @all).
    this.toAll = h("input", { type: "checkbox", id: "chat-to-all" });
    this.audience = h("label", { for: "chat-to-all", class: "chat-audience" });
    this.audience.append(this.toAll, " To everyone (otherwise your team only)");
    this.audience.hidden = true;
    this.error = h("p", { id: "chat-error", class: "rr-error", role: "alert" });
    this.info = h("p", { id: "chat-info", class: "chat-info", "aria-live": "polite" });
    const help = h("p", { id: "chat-help", class: "rr-hint" });
    // "@all" means something only in a team game (the tick box above does it): said there alone.
    this.teamHelp = h("span", { class: "chat-help-team" });
    this.teamHelp.append(" ", h("code", {}, "@all"), " at the start writes to everyone.");
    this.teamHelp.hidden = true;
    help.append(
      "Enter sends. Commands: ", h("code", {}, "!eject"), " removes players whose game time has run out; ",
      h("code", {}, "!archive"), " hides this game from your lobby (again to bring it back).", this.teamHelp,
      " At most 500 characters.",
    );
    // The box sits on its own line under the input: beside it, it squeezed the input to "Say someth".
    this.form.append(row, this.audience, this.counter, this.error, this.info, help);
    this.readOnly = h("p", { class: "chat-readonly rr-hint" }, "You are watching: only the players can write here.");
    this.el.append(this.olderBtn, this.list, this.empty, this.form, this.readOnly);
    parent.appendChild(this.el);

    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.submit();
    });
    this.input.addEventListener("input", () => this.updateCounter());
    this.setViewer({ seat: null, user: null }, false);
  }

  /** Seat numbers as the players' names (the game screen sets it from its snapshot). */
  nameSeats: ((seats: unknown[]) => string) | undefined = undefined;

  /** Team play: show the Team / everyone choice (a player on a team). */
  setTeamChat(on: boolean): void {
    this.audience.hidden = !on;
    this.teamHelp.hidden = !on;
    this.input.placeholder = on ? (this.toAll.checked ? "Say something to everyone…" : "Say something to your team…") : "Say something…";
    this.toAll.onchange = () => this.setTeamChat(on);
  }

  /** Who reads (to mark own messages) and whether they may write. */
  setViewer(viewer: Viewer, canWrite: boolean): void {
    const changed = viewer.seat !== this.viewer.seat || viewer.user !== this.viewer.user;
    this.viewer = viewer;
    const writable = canWrite && this.send !== null;
    this.form.hidden = !writable;
    this.readOnly.hidden = writable;
    if (changed) {
      for (const li of this.list.children) {
        const seat = (li as HTMLElement).dataset.seat;
        li.classList.toggle("own", !li.classList.contains("system") && seat !== undefined && Number(seat) === viewer.seat);
      }
    }
  }

  /** Replace the list (a snapshot). */
  setMessages(messages: unknown): void {
    const list = (Array.isArray(messages) ? messages : []).filter(isChatMessage);
    // Usually nothing is new (the events brought every line): keep the list, and where the reader is.
    if (this.ids.size && list.every((m) => this.ids.has(m.id))) return;
    this.ids.clear();
    const items = list
      .sort((a, b) => a.id - b.id)
      .map((m) => { this.ids.add(m.id); return renderChatMessage(m, this.viewer); });
    const stick = this.atBottom();
    this.list.replaceChildren(...items.slice(-KEEP));
    this.empty.hidden = items.length > 0;
    this.olderBtn.hidden = !this.loadOlder || items.length < PAGE;
    if (stick) this.scrollToEnd();
  }

  /** One more message (an event, or our own answer); a message already shown is ignored. The event's
   * data is the message itself; `{message: {...}}` is accepted too. */
  add(raw: unknown): void {
    const inner = raw && typeof raw === "object" ? (raw as { message?: unknown }).message : undefined;
    const msg = isChatMessage(inner) ? inner : raw;
    if (!isChatMessage(msg) || this.ids.has(msg.id)) return;
    this.ids.add(msg.id);
    const stick = this.atBottom() || isOwn(msg, this.viewer);
    const li = renderChatMessage(msg, this.viewer);
    // Keep id order even if messages arrive out of order.
    let before: Element | null = null;
    for (let n = this.list.lastElementChild; n; n = n.previousElementSibling) {
      if (Number((n as HTMLElement).dataset.id) < msg.id) break;
      before = n;
    }
    this.list.insertBefore(li, before);
    while (this.list.children.length > KEEP) this.list.firstElementChild?.remove();
    this.empty.hidden = true;
    if (stick) this.scrollToEnd();
  }

  /** Put a page of older messages above the first one shown. */
  private async older(): Promise<void> {
    const first = Number((this.list.firstElementChild as HTMLElement | null)?.dataset.id);
    if (!this.loadOlder || !Number.isFinite(first)) return;
    this.olderBtn.disabled = true;
    const page = await this.loadOlder(first);
    this.olderBtn.disabled = false;
    if (page === null) {
      this.error.textContent = "Could not load older messages.";
      return;
    }
    const items = page.filter(isChatMessage).filter((m) => m.id < first && !this.ids.has(m.id))
      .sort((a, b) => a.id - b.id);
    const height = this.list.scrollHeight;
    const top = this.list.scrollTop;
    for (const m of items) this.ids.add(m.id);
    this.list.prepend(...items.map((m) => renderChatMessage(m, this.viewer)));
    this.list.scrollTop = top + (this.list.scrollHeight - height); // the reader stays on the same line
    this.olderBtn.hidden = page.length < PAGE;
  }

  private atBottom(): boolean {
    const l = this.list;
    return l.scrollHeight - l.scrollTop - l.clientHeight < 40;
  }

  private scrollToEnd(): void {
    this.list.scrollTop = this.list.scrollHeight;
  }

  private updateCounter(): void {
    const n = this.input.value.length;
    this.counter.textContent = n > CHAT_MAX - 100 ? `${n}/${CHAT_MAX}` : "";
    this.counter.classList.toggle("over", n > CHAT_MAX);
    if (n <= CHAT_MAX && this.error.textContent?.startsWith("Too long")) this.error.textContent = "";
  }

  private async submit(): Promise<void> {
    if (!this.send || this.sending) return;
    const text = this.input.value.trim();
    this.info.textContent = "";
    if (!text) {
      this.error.textContent = "Type a message first.";
      return;
    }
    if (text.length > CHAT_MAX) {
      this.error.textContent = `Too long: ${text.length} characters, at most ${CHAT_MAX}.`;
      return;
    }
    this.sending = true;
    this.sendBtn.disabled = true;
    this.error.textContent = "";
    const everyone = !this.audience.hidden && this.toAll.checked && !/^[!@]/.test(text);
    const res = await this.send(everyone ? `@all ${text}` : text);
    this.sending = false;
    this.sendBtn.disabled = false;
    if (!res.ok) {
      this.error.textContent = res.status === 403 ? "Only the players of this game can write here." : res.detail;
      return;
    }
    this.input.value = "";
    // Each line to everyone is chosen anew: the box does not stay ticked for the next one.
    this.toAll.checked = false;
    if (!this.audience.hidden) this.setTeamChat(true);
    this.updateCounter();
    const data = (res.data ?? {}) as Record<string, unknown>;
    if (data.message) this.add(data.message);
    if (typeof data.command === "string") {
      this.info.textContent = commandText(data, this.nameSeats);
      this.onCommand(data);
    }
    this.input.focus();
  }
}
