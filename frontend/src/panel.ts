// Status panel, shared by every game kind (kinds.ts): the status line, the mode line, notices, timers, and
// the seat list with its clocks, in the order the kind gives (RoboRacer: next turn's priority, 003
// "Priority"), each seat with the kind's line of stats (`SeatView`).
import { h } from "./dom";
import { playerUrl } from "./lobbystate";
import { MyClock } from "./myclock";
import { clockText, localDate, speakDuration, timeLeft, timersText, vacationText, type SeatClock } from "./clock";
import type { Seat, Snapshot } from "./types";
import { priceRows } from "./modules";
import { botBadge, isBotAccount } from "./botaccounts";
import { AUTOPILOT_BANNER, autopilotBadge, computerBadge, freeSeats, isComputer, robotIcon, strengthName, strengthsOf } from "./computers";

export {
  ejectedNotice, expiredNotice, seatBadge, seatName, seatNames, seatsInPriority, stat, winnerName, type SeatsMode, type SeatView,
} from "./seats";
import { seatBadge, seatName, seatsInPriority, stat, type SeatsMode, type SeatView } from "./seats";

export class Panel {
  readonly el: HTMLElement;
  readonly status: HTMLParagraphElement;
  readonly phase: HTMLParagraphElement;
  readonly conn: HTMLParagraphElement;
  readonly notice: HTMLParagraphElement;
  readonly timers: HTMLParagraphElement;
  /** The game's current module prices, for everyone (games with modules): folded to one line, a table inside. */
  readonly prices: HTMLDetailsElement;
  private readonly pricesSummary: HTMLElement;
  private readonly pricesBody: HTMLTableSectionElement;
  readonly rated: HTMLParagraphElement;
  /** The game mode: arena, team play, a puzzle's goal and turns (docs/modes.md). */
  readonly mode: HTMLParagraphElement;
  /** Team play in the lobby: choose a team, or (the creator) balance them. Set by the game screen. */
  onTeam: ((team: string, seat?: number) => void) | null = null;
  onBalance: (() => void) | null = null;
  /** Computer players in the lobby (the creator): add one with a strength, remove one by seat. The game screen
   * sets them; each resolves to an error's words, or null when it worked. */
  onAddComputer: ((strength: string, seat: number) => Promise<string | null>) | null = null;
  onRemoveComputer: ((seat: number) => Promise<string | null>) | null = null;
  /** Under autopilot: take the robot back now; resolves to an error's words, or null. */
  onTakeBack: (() => Promise<string | null>) | null = null;
  /** The owner's banner while a computer plays their robot (their game time ran out). */
  readonly autopilot: HTMLParagraphElement;
  /** A refused add or remove of a computer player. */
  private readonly seatsError: HTMLParagraphElement;
  /** An add or remove is on its way: the seat controls wait for its answer. */
  private computerBusy = false;
  /** The strength last chosen for a new computer player (kept across re-renders). */
  private strength = "normal";
  readonly seatsSection: HTMLElement;
  private readonly seatsTitle: HTMLHeadingElement;
  private readonly seatsEl: HTMLOListElement;
  /** Per seat: the clock as last reported (see clock.ts), and the element that shows it. */
  clocks = new Map<number, SeatClock>();
  /** Server time − local time, ms. */
  clockOffset = 0;
  private clockEls = new Map<number, { el: HTMLElement; name: string }>();
  /** My own clock, beside my Submit (the kind's screen places it: KindScreen.clockSlot). */
  readonly myClock = new MyClock();
  private mySeat: number | null = null;

  constructor(parent: HTMLElement) {
    this.el = h("div", { class: "rr-status" });
    this.status = h("p", { id: "game-status", "aria-live": "polite" }, "Loading…");
    this.phase = h("p", { id: "phase-status", class: "rr-phase" });
    this.conn = h("p", { class: "rr-conn", "aria-live": "polite" });
    this.notice = h("p", { id: "game-notice", class: "rr-notice-line", "aria-live": "polite" });
    this.notice.hidden = true;
    this.timers = h("p", { id: "game-timers", class: "rr-timers" });
    this.timers.hidden = true;
    // Folded by default (issue 37, item 4): the 17 prices ran together as one long block that pushed Submit
    // below the fold on phones. Open, they are a compact table.
    this.prices = h("details", { id: "module-prices", class: "rr-prices" });
    this.pricesSummary = h("summary", {});
    this.pricesBody = h("tbody", {});
    const table = h("table", { class: "rr-prices-table" });
    table.append(h("caption", { class: "visually-hidden" }, "The price of one charge of each module now"), this.pricesBody);
    this.prices.append(this.pricesSummary, table);
    this.prices.hidden = true;
    this.rated = h("p", { id: "game-rated", class: "rr-timers" });
    this.rated.hidden = true;
    this.mode = h("p", { id: "game-mode", class: "rr-mode" });
    this.mode.hidden = true;
    this.autopilot = h("p", { id: "autopilot-banner", class: "rr-autopilot-banner", role: "status" });
    this.autopilot.hidden = true;
    this.el.append(this.status, this.mode, this.phase, this.conn, this.autopilot, this.notice, this.timers, this.rated, this.prices);
    parent.appendChild(this.el);

    const seats = h("section", { class: "rr-seats-section", "aria-labelledby": "rr-seats-title" });
    this.seatsTitle = h("h2", { id: "rr-seats-title" }, "Robots in priority order");
    seats.appendChild(this.seatsTitle);
    this.seatsEl = h("ol", { class: "rr-seats" });
    seats.appendChild(this.seatsEl);
    this.seatsError = h("p", { id: "seats-error", class: "rr-error", role: "alert" });
    seats.appendChild(this.seatsError);
    parent.appendChild(seats);
    this.seatsSection = seats;
  }

  /** The mode line (a kind's: "Arena: last bot alive wins", "RAMbots · …"), its tooltip and the seat list's title. */
  setMode(mode: SeatsMode): void {
    if (this.seatsTitle.textContent !== mode.seatsTitle) this.seatsTitle.textContent = mode.seatsTitle;
    if (this.mode.textContent !== mode.text) this.mode.textContent = mode.text;
    this.mode.title = mode.title ?? "";
    this.mode.hidden = !mode.text;
  }

  /** The owner's banner while a computer player plays their robot (`me.autopilot`); gone once they are back.
   * Its button takes the robot back at once (POST take-back/), before the computer's next program. */
  setAutopilot(snap: Snapshot): void {
    const on = snap.me?.autopilot === true && (snap.status === "programming" || snap.status === "resolving");
    if (on && !this.autopilot.textContent) {
      const back = h("button", { type: "button", id: "take-back", class: "rr-take-back" }, "Take my robot back");
      back.addEventListener("click", () => {
        if (!this.onTakeBack) return;
        back.disabled = true;
        void this.onTakeBack().then((error) => {
          back.disabled = false;
          if (error) this.seatsError.textContent = error;
        });
      });
      this.autopilot.replaceChildren(robotIcon(), h("span", {}, AUTOPILOT_BANNER), back);
    }
    this.autopilot.hidden = !on;
  }

  setStatus(text: string): void {
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  setPhase(text: string): void {
    this.phase.textContent = text;
  }

  /** The game's timer settings, under the status line. */
  setTimers(snap: Snapshot): void {
    // A game of one seat (made so, or started alone: starting closes the empty seats) has no others to !eject.
    const text = timersText(snap.timers, snap.max_seats === 1);
    if (this.timers.textContent !== text) this.timers.textContent = text;
    this.timers.hidden = !text || snap.status === "finished" || snap.status === "cancelled";
  }

  /** The game's current prices of one charge: "Module prices (3): a charge now", and inside, one row a module. */
  setPrices(modules: readonly string[] | undefined, prices: Readonly<Record<string, number>> | undefined): void {
    const rows = modules?.length ? priceRows(prices) : [];
    const key = JSON.stringify(rows);
    this.prices.hidden = !rows.length;
    this.prices.dataset.prices = JSON.stringify(prices ?? {});
    if (this.prices.dataset.shown === key) return;
    this.prices.dataset.shown = key;
    this.pricesSummary.textContent = `Module prices (${rows.length}): one charge now`;
    this.pricesBody.replaceChildren(...rows.map(([name, price]) => {
      const tr = h("tr", {});
      tr.append(h("th", { scope: "row" }, name), h("td", {}, String(price)));
      return tr;
    }));
  }

  /** "Rated game", "Unrated game" or "Aborted: not rated" (docs/ratings.md), when the server says. */
  setRated(snap: Snapshot): void {
    const text = snap.aborted ? "Aborted: not rated"
      : snap.rated === undefined ? "" : snap.rated ? "Rated game" : "Unrated game";
    if (this.rated.textContent !== text) this.rated.textContent = text;
    this.rated.hidden = !text;
  }

  /** A lasting note about what happened (ejections, cancellation) until the next one. */
  setNotice(text: string): void {
    this.notice.textContent = text;
    this.notice.hidden = !text;
  }

  setConnection(text: string): void {
    this.conn.textContent = text;
    this.conn.hidden = !text;
  }

  /** Count the clocks down: called once a second, and after every render. */
  tickClocks(): void {
    const now = Date.now() + this.clockOffset;
    this.myClock.tick(this.mySeat === null ? undefined : this.clocks.get(this.mySeat), now);
    for (const [seat, { el, name }] of this.clockEls) {
      const c = this.clocks.get(seat);
      if (!c) continue;
      const t = timeLeft(c, now);
      const text = clockText(t);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("running", t.running);
      el.classList.toggle("on-game-time", t.onGameTime);
      el.classList.toggle("expired", t.expired);
      el.classList.toggle("low", t.running && (t.onGameTime ? (t.game ?? 1e9) : (t.move ?? 1e9)) < 30);
      const spoken = `${name}: ${t.expired ? "game time expired" : [
        t.move !== null && !t.onGameTime ? `move time ${speakDuration(t.move)}` : "",
        t.game !== null ? `game time ${speakDuration(t.game)}` : "",
      ].filter(Boolean).join(", ") + (t.running ? " left, running" : t.paused ? " left, paused" : " left")}`;
      if (el.getAttribute("aria-label") !== spoken) el.setAttribute("aria-label", spoken);
    }
  }

  /** The seat list: seats in `order` (bot ids; the others after them by number), each with the kind's line of
   * stats (`seatView`, outside the lobby). */
  renderSeats(snap: Snapshot, order: string[], seatView: (seat: Seat) => SeatView | null): void {
    const inLobby = snap.status === "lobby";
    const timed = snap.status === "programming" || snap.status === "resolving";
    this.mySeat = timed && typeof snap.me?.seat === "number" ? snap.me.seat : null;
    const today = localDate(new Date(Date.now() + this.clockOffset));
    this.clockEls.clear();
    const items = seatsInPriority(snap, order).map((s) => {
      const view = inLobby ? null : seatView(s);
      const mine = snap.me?.seat === s.number;
      const li = h("li", { class: "rr-seat", "data-seat": String(s.number) });
      if (mine) li.classList.add("me");
      if (s.ejected) li.classList.add("ejected");
      const sw = h("span", { class: "swatch", "aria-hidden": "true" }, String(s.number));
      sw.style.background = s.color;
      const shown = seatName(s);
      // The name links to the player's page (roboracer/ratings); the text stays the name.
      const name = h("span", { class: "seat-name" });
      const computer = isComputer(s);
      // A computer player has no player page: its name is plain text, with its badge.
      name.append(computer ? h("span", { class: "seat-player" }, shown) : h("a", { href: playerUrl(s.user), class: "seat-player" }, shown),
        mine ? " (you)" : "");
      if (computer) {
        li.classList.add("computer");
        li.dataset.computer = String(s.computer);
        name.append(computerBadge(s));
      } else if (shown !== s.user) name.title = s.user;
      if (isBotAccount(s.bot_account)) name.append(" ", botBadge());
      if (s.team) name.append(h("span", { class: `seat-team team-${s.team}` }, s.team === "blue" ? "Blue" : "Orange"));
      const stats = h("span", { class: "seat-stats" });
      const extra = h("span", { class: "seat-extra" });
      const vac = vacationText(s.vacation, today);
      if (vac) extra.append(h("span", { class: "seat-vacation" }, vac));
      // A person's robot that a computer plays while their time is out (timeout policy "computer").
      if (s.autopilot && !computer && !s.ejected && snap.status !== "lobby" && snap.status !== "finished") {
        li.classList.add("autopilot");
        extra.append(autopilotBadge());
      }
      const clock = this.clocks.get(s.number);
      const out = !!view?.out;
      // A computer decides in a second or two: no clock to watch (nor a rating: games with computers are unrated).
      if (timed && !computer && !s.ejected && !out && clock && (clock.move !== null || clock.game !== null || clock.expired)) {
        const el = h("span", { class: "seat-clock", role: "timer", "data-seat": String(s.number) });
        this.clockEls.set(s.number, { el, name: shown });
        extra.append(el);
      }
      const readyText = seatBadge(snap, s, out);
      if (inLobby && snap.teams && (mine || snap.can_balance)) {
        // Team play: my own team, or (the creator) any seat's; the server checks who may.
        const pick = h("span", { class: "seat-team-pick", role: "group", "aria-label": `Team of ${shown}` });
        for (const team of ["blue", "orange"]) {
          const b = h("button", { type: "button", class: `team-button team-${team}`, "data-team": team,
            "aria-pressed": String(s.team === team) }, team === "blue" ? "Blue" : "Orange");
          b.addEventListener("click", () => this.onTeam?.(team, mine ? undefined : s.number));
          pick.append(b);
        }
        extra.append(pick);
      }
      if (inLobby && computer && snap.can_cancel && this.onRemoveComputer) {
        // The creator may take a computer player out again before the start.
        const remove = h("button", { type: "button", class: "rr-remove-computer", "data-seat": String(s.number),
          "aria-label": `Remove ${shown} from seat ${s.number}` }, "Remove");
        remove.disabled = this.computerBusy;
        remove.addEventListener("click", () => void this.computerAction(() => this.onRemoveComputer?.(s.number)));
        extra.append(remove);
      }
      if (inLobby) {
        stats.textContent = computer ? "ready for the start" : "waiting for the start";
        if (typeof s.rating === "number" && !computer) stats.append(" · ", stat("rating", String(s.rating), "stat-rating"));
      } else if (view?.stats) {
        stats.append(...view.stats);
        if (view.notes.length) stats.append(h("span", { class: "stat stat-notes" }, view.notes.join(" · ")));
      } else {
        stats.textContent = "no robot";
      }
      const ready = h("span", {
        class: `seat-ready ${readyText === "thinking" ? "is-thinking" : readyText === "forfeited" || readyText === "out" ? "is-out" : "is-ready"}`,
      }, readyText);
      li.append(sw, name, ready, stats);
      if (extra.childNodes.length) li.append(extra);
      if (!readyText) ready.remove();
      return li;
    });
    if (!items.length && !freeSeats(snap).length) items.push(h("li", { class: "rr-seat empty" }, "No players yet."));
    for (const n of freeSeats(snap)) items.push(this.freeSeat(snap, n));
    if (inLobby && snap.can_balance) {
      const b = h("button", { type: "button", id: "balance-teams" }, "Balance the teams by rating");
      b.addEventListener("click", () => this.onBalance?.());
      const li = h("li", { class: "rr-seat rr-balance" });
      li.append(b);
      items.push(li);
    }
    // The focus stays on the control it was on when the list is redrawn (a re-render of the same lobby).
    const focused = document.activeElement instanceof HTMLElement && this.seatsEl.contains(document.activeElement)
      ? focusKey(document.activeElement) : null;
    this.seatsEl.replaceChildren(...items);
    if (focused) (this.seatsEl.querySelector(focused) as HTMLElement | null)?.focus();
    if (!inLobby && this.seatsError.textContent) this.seatsError.textContent = "";
    this.tickClocks();
  }

  /** An open seat of a lobby: "Open seat", and for the creator a strength choice and "Add computer player". */
  private freeSeat(snap: Snapshot, n: number): HTMLLIElement {
    // Not an `li.rr-seat[data-seat]` (those are the seats taken): `li.rr-open-seat[data-open-seat]`.
    const li = h("li", { class: "rr-open-seat", "data-open-seat": String(n) });
    li.append(h("span", { class: "swatch open", "aria-hidden": "true" }, String(n)),
      h("span", { class: "seat-name" }, "Open seat"));
    // A game with a computer player is unrated (docs/ratings.md): the creator of a rated game reads it first.
    const stats = h("span", { class: "seat-stats" }, !snap.can_add_computer ? "waiting for a player"
      : `waiting for a player, or add a computer player${snap.rated ? " (the game becomes unrated)" : ""}`);
    li.append(stats);
    if (!snap.can_add_computer || !this.onAddComputer) return li;
    const extra = h("span", { class: "seat-extra seat-add-computer", role: "group", "aria-label": `Add a computer player to seat ${n}` });
    const select = h("select", { class: "rr-computer-strength", id: `computer-strength-${n}`, "data-seat": String(n),
      "aria-label": `Strength of the computer player for seat ${n}` });
    for (const strength of strengthsOf(snap)) select.append(h("option", { value: strength }, strengthName(strength)));
    select.value = strengthsOf(snap).includes(this.strength) ? this.strength : (select.options[0]?.value ?? "normal");
    select.addEventListener("change", () => { this.strength = select.value; });
    const add = h("button", { type: "button", class: "rr-add-computer", "data-seat": String(n) }, "Add computer player");
    add.disabled = this.computerBusy;
    select.disabled = this.computerBusy;
    add.addEventListener("click", () => {
      this.strength = select.value;
      void this.computerAction(() => this.onAddComputer?.(select.value, n));
    });
    extra.append(select, add);
    li.append(extra);
    return li;
  }

  /** Run an add or remove: its buttons wait for the answer; a refusal shows under the seats. */
  private async computerAction(run: () => Promise<string | null> | undefined): Promise<void> {
    if (this.computerBusy) return;
    this.computerBusy = true;
    this.seatsError.textContent = "";
    for (const b of this.seatsEl.querySelectorAll<HTMLButtonElement | HTMLSelectElement>(".rr-add-computer, .rr-remove-computer, .rr-computer-strength")) b.disabled = true;
    let error: string | null | undefined = null;
    try {
      error = await run();
    } finally {
      this.computerBusy = false;
      for (const b of this.seatsEl.querySelectorAll<HTMLButtonElement | HTMLSelectElement>(".rr-add-computer, .rr-remove-computer, .rr-computer-strength")) b.disabled = false;
    }
    if (error) this.seatsError.textContent = error;
  }
}

/** A selector that finds a seat control again after the list is redrawn. */
function focusKey(el: HTMLElement): string | null {
  const seat = el.dataset.seat;
  if (!seat) return null;
  for (const cls of ["rr-add-computer", "rr-remove-computer", "rr-computer-strength"]) {
    if (el.classList.contains(cls)) return `.${cls}[data-seat="${seat}"]`;
  }
  return null;
}
