// Status panel: the game status line, and the robots in next turn's priority order (003 "Priority":
// the status panel shows bots in priority order for the upcoming turn).
import { h } from "./dom";
import { playerUrl } from "./lobbystate";
import { nameOf } from "./log";
import { clockText, localDate, speakDuration, timeLeft, timersText, vacationText, type SeatClock } from "./clock";
import type { BotState, Seat, Snapshot } from "./types";
import { moduleLabel, moduleStatus, pricesText } from "./modules";
import { damageValue, rulesOf, rulesText, upgradeLabel } from "./ruleset";
import { AUTOPILOT_BANNER, autopilotBadge, computerBadge, freeSeats, isComputer, robotIcon, strengthName, strengthsOf } from "./computers";

/** The name shown for a seat: its display name, else the user name. */
export function seatName(s: Seat): string {
  return typeof s.display_name === "string" && s.display_name.trim() ? s.display_name : s.user;
}

export const botName = nameOf;

export function winnerName(snap: Snapshot): string | null {
  if (snap.winner == null) return null;
  const w = String(snap.winner);
  const seat = snap.seats.find((s) => String(s.bot) === w) ?? snap.seats.find((s) => s.user === w);
  return seat ? seatName(seat) : w;
}

/** Seats by the names players see: "ada", "ada and Bo", "ada, Bo and cy" (a seat not in the snapshot: "seat 4"). */
export function seatNames(snap: Pick<Snapshot, "seats">, numbers: unknown[]): string {
  const names = numbers.map((n) => {
    const seat = snap.seats.find((s) => s.number === n);
    return seat ? seatName(seat) : `seat ${String(n)}`;
  });
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The notice of a `seats_ejected` event, in the words of the system chat line: leaving a race is a forfeit. */
export function ejectedNotice(
  snap: Pick<Snapshot, "seats">, data: { seats?: unknown; by?: unknown; reason?: unknown } | null | undefined,
): string {
  const seats = Array.isArray(data?.seats) ? data.seats : [];
  if (!seats.length) return "";
  const who = seatNames(snap, seats);
  const forfeits = seats.length > 1 ? "forfeit" : "forfeits";
  if (data?.reason === "resigned") return `${who} forfeited (resigned).`;
  if (data?.by === "timer") return `${who} ${forfeits}: out of game time, ejected automatically.`;
  if (data?.by === "staff") return `${who} ${forfeits}: ejected by a moderator.`;
  const by = snap.seats.find((s) => s.user === data?.by);
  const byName = by ? seatName(by) : String(data?.by ?? "");
  return `${who} ${forfeits}: out of game time${byName ? `, ejected by ${byName}` : ""}.`;
}

/** The notice of a `timer_expired` event. */
export function expiredNotice(snap: Pick<Snapshot, "seats">, seats: unknown[], policy: unknown): string {
  if (!seats.length) return "";
  return `${seatNames(snap, seats)} ${seats.length > 1 ? "have" : "has"} run out of game time.` +
    (policy === "wait" ? " Any player may now send !eject."
      : policy === "computer" ? " A computer player plays for them until they send a program again." : "");
}

export function statusText(snap: Snapshot, moving: boolean): string {
  switch (snap.status) {
    case "lobby": {
      const max = snap.max_seats ?? snap.course?.players?.[1];
      return `Lobby — waiting for players (${snap.seats.length}${max ? ` of ${max}` : ""} seated)`;
    }
    case "programming":
      return moving ? `Turn ${snap.turn} — robots moving` : `Turn ${snap.turn} — programming`;
    case "resolving":
      return `Turn ${snap.turn} — robots moving`;
    case "cancelled":
      return "Cancelled — this game will not be played";
    case "finished": {
      if (snap.mode === "puzzle" && snap.outcome) return `Finished — puzzle ${snap.outcome}`;
      if (snap.winning_team && !snap.winner) return `Finished — the ${snap.winning_team === "blue" ? "Blue" : "Orange"} team wins`;
      const w = winnerName(snap);
      // An aborted game (fewer than two players moved; docs/ratings.md) keeps its places but nobody "wins" it.
      if (snap.aborted) return w ? `Aborted — ${w} takes 1st place` : "Aborted";
      return w ? `Finished — ${w} wins` : "Finished";
    }
    default:
      return `Turn ${snap.turn} — ${String(snap.status)}`;
  }
}

/** Seats in the order of `priority` (bot ids), then any others by seat number. */
export function seatsInPriority(snap: Snapshot, priority: string[]): Seat[] {
  const order: Seat[] = [];
  const seen = new Set<Seat>();
  for (const id of priority) {
    const s = snap.seats.find((x) => x.bot != null && String(x.bot) === String(id));
    if (s && !seen.has(s)) { order.push(s); seen.add(s); }
  }
  for (const s of [...snap.seats].sort((a, b) => a.number - b.number)) if (!seen.has(s)) order.push(s);
  return order;
}

/** How many check points a course has (its highest number), 0 when it has none or is unknown. */
export function checkpointCount(snap: Pick<Snapshot, "course">): number {
  const elements = Array.isArray(snap.course?.elements) ? snap.course.elements : [];
  let count = 0;
  for (const e of elements) {
    const n = (e as { type?: unknown; number?: unknown }).type === "checkpoint" ? (e as { number?: unknown }).number : null;
    if (typeof n === "number" && Number.isFinite(n)) count = Math.max(count, n);
  }
  return count;
}

/** A robot's progress for the panel: ["next check point", "2 of 3"], or ["all check points", "reached"]
 * once it has touched the last one (its next_checkpoint is then one past it). */
export function checkpointStat(next: number, count: number): [string, string] {
  if (count > 0 && next > count) return ["all check points", "reached"];
  return ["next check point", count > 0 ? `${next} of ${count}` : String(next)];
}

/** A seat's notes in the robot list and its badge ("ready", "thinking", "out", "forfeited", ""). A forfeited
 * robot (resigned, out of time or ejected) has the one badge and no note repeating it; a robot destroyed this
 * turn says how ("fell into a pit"), not "off the course". */
export function seatState(
  snap: Pick<Snapshot, "status" | "me" | "ruleset">, s: Seat, bot: BotState | undefined, destroyed?: ReadonlyMap<string, string>,
): { notes: string[]; badge: string } {
  const mine = snap.me?.seat === s.number;
  // Without lives (roborace) no robot is ever out: a destroyed one comes back at the end of the round.
  const out = !!bot && bot.lives <= 0 && rulesOf(snap).lives;
  let badge = snap.status === "programming" ? (s.ready ? "ready" : "thinking") : "";
  if (snap.status === "lobby") badge = "seated";
  const notes: string[] = [];
  if (bot && snap.status !== "lobby") {
    if (s.ejected) { /* the badge says it */ } else if (out) notes.push("out of the game");
    else if (!bot.at) notes.push(destroyed?.get(String(bot.id)) ?? "destroyed");
    else {
      // Only a robot still racing is virtual, rebooting or asking to reboot.
      if (bot.virtual) notes.push("virtual");
      if (bot.rebooting) notes.push("rebooting this turn");
      if (mine && snap.me?.reboot && snap.status !== "finished") notes.push("reboot requested");
      // classic: powered down this turn (the server plays its program), or last turn.
      if (bot.power_down_next) notes.push("powered down this turn");
      else if (bot.powered_down) notes.push("powered down last turn");
      if (mine && snap.me?.power_down && snap.status !== "finished") notes.push("power down next turn requested");
    }
    if (out) badge = "out";
  }
  if (s.ejected) badge = "forfeited";
  return { notes, badge };
}

function stat(label: string, value: string, cls: string): HTMLElement {
  const span = h("span", { class: `stat ${cls}` });
  span.append(h("span", { class: "stat-label" }, label), document.createTextNode(" " + value));
  return span;
}

export class Panel {
  readonly el: HTMLElement;
  readonly status: HTMLParagraphElement;
  readonly phase: HTMLParagraphElement;
  readonly conn: HTMLParagraphElement;
  readonly notice: HTMLParagraphElement;
  readonly timers: HTMLParagraphElement;
  /** The game's current module prices, for everyone (games with modules). */
  readonly prices: HTMLParagraphElement;
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
  /** Another game kind's (kinds.ts) line of stats for a seat, and its mode line and seat list title; null for
   * RoboRacer (the robots' own stats). */
  kindStats: ((snap: Snapshot, seat: Seat) => HTMLElement | null) | null = null;
  kindMode: ((snap: Snapshot) => { text: string; seatsTitle: string }) | null = null;
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

  constructor(parent: HTMLElement) {
    this.el = h("div", { class: "rr-status" });
    this.status = h("p", { id: "game-status", "aria-live": "polite" }, "Loading…");
    this.phase = h("p", { id: "phase-status", class: "rr-phase" });
    this.conn = h("p", { class: "rr-conn", "aria-live": "polite" });
    this.notice = h("p", { id: "game-notice", class: "rr-notice-line", "aria-live": "polite" });
    this.notice.hidden = true;
    this.timers = h("p", { id: "game-timers", class: "rr-timers" });
    this.timers.hidden = true;
    this.prices = h("p", { id: "module-prices", class: "rr-prices" });
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

  /** "Arena: last bot alive wins", "Team play: Blue against Orange", a puzzle's goal and its turns. */
  setMode(snap: Snapshot): void {
    if (this.kindMode) {
      const { text, seatsTitle } = this.kindMode(snap);
      if (this.seatsTitle.textContent !== seatsTitle) this.seatsTitle.textContent = seatsTitle;
      if (this.mode.textContent !== text) this.mode.textContent = text;
      this.mode.title = "";
      this.mode.hidden = !text;
      return;
    }
    const parts: string[] = [];
    // A ruleset other than the default names itself first ("RoboRace · the larger card number acts first").
    const rules = rulesOf(snap);
    const named = rulesText(rules);
    if (named) parts.push(named);
    // Numbered cards decide who acts first, phase by phase: there is no priority order to list the robots in.
    const seatsTitle = rules.numbered ? "Robots" : "Robots in priority order";
    if (this.seatsTitle.textContent !== seatsTitle) this.seatsTitle.textContent = seatsTitle;
    if (snap.mode === "arena") parts.push(snap.mode_text || "Arena: last bot alive wins");
    if (snap.teams) parts.push("Team play: Blue against Orange");
    if (snap.mode === "puzzle" && snap.puzzle) {
      const p = snap.puzzle;
      parts.push(`Puzzle: ${p.goal_text}`);
      if (snap.status === "finished") {
        parts.push(`${snap.outcome ?? "over"} after ${p.turns_used ?? "?"} turn${p.turns_used === 1 ? "" : "s"}`);
      } else if (p.turn_limit && snap.status !== "lobby") parts.push(`turn ${snap.turn} of ${p.turn_limit}`);
      if (p.players > 1) parts.push(`cooperative, ${p.players} players`);
    }
    const text = parts.join(" · ");
    if (this.mode.textContent !== text) this.mode.textContent = text;
    this.mode.title = snap.puzzle?.description ?? "";
    this.mode.hidden = !text;
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

  /** The game's current prices of one charge ("Module prices: Shield 200 · Turbo 250"). */
  setPrices(modules: readonly string[] | undefined, prices: Readonly<Record<string, number>> | undefined): void {
    const text = modules?.length ? pricesText(prices) : "";
    const shown = text ? `Module prices: ${text}` : "";
    if (this.prices.textContent !== shown) this.prices.textContent = shown;
    this.prices.hidden = !shown;
    this.prices.dataset.prices = JSON.stringify(prices ?? {});
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
      ].filter(Boolean).join(", ") + (t.running ? " left, running" : " left")}`;
      if (el.getAttribute("aria-label") !== spoken) el.setAttribute("aria-label", spoken);
    }
  }

  renderSeats(snap: Snapshot, bots: Map<string, BotState>, priority: string[], destroyed?: ReadonlyMap<string, string>): void {
    const inLobby = snap.status === "lobby";
    const timed = snap.status === "programming" || snap.status === "resolving";
    const today = localDate(new Date(Date.now() + this.clockOffset));
    const checkpoints = checkpointCount(snap);
    this.clockEls.clear();
    const items = seatsInPriority(snap, priority).map((s) => {
      const bot = s.bot != null ? bots.get(String(s.bot)) : undefined;
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
      const rules = rulesOf(snap);
      const out = !!bot && bot.lives <= 0 && rules.lives;
      // A computer decides in a second or two: no clock to watch (nor a rating: games with computers are unrated).
      if (timed && !computer && !s.ejected && !out && clock && (clock.move !== null || clock.game !== null || clock.expired)) {
        const el = h("span", { class: "seat-clock", role: "timer", "data-seat": String(s.number) });
        this.clockEls.set(s.number, { el, name: shown });
        extra.append(el);
      }
      const { notes, badge: readyText } = seatState(snap, s, bot, destroyed);
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
      } else if (bot) {
        // Only what the ruleset has: roborace shows neither damage nor lives.
        if (rules.hitPoints) {
          // fused: hit points left, "HP 7/10", instead of the damage.
          const hp = stat("HP", damageValue(rules, bot.damage).replace(/^HP /, ""), "stat-hp");
          hp.dataset.damage = String(bot.damage);
          stats.append(hp);
        } else if (rules.damage) stats.append(stat("damage", rules.named ? damageValue(rules, bot.damage) : String(bot.damage), "stat-damage"));
        if (rules.lives) stats.append(stat("lives", String(bot.lives), "stat-lives"));
        stats.append(stat(...checkpointStat(bot.next_checkpoint, checkpoints), "stat-cp"));
        if (snap.modules?.length) {
          // 003 "Battery": the module, its charges (+n) and the battery, "Turbo +2 250".
          const text = moduleStatus(bot.module ?? null, bot.battery);
          const m = stat("module", text, "stat-module");
          m.dataset.module = bot.module?.type ?? "";
          m.dataset.charges = String(bot.module?.charges ?? 0);
          m.dataset.battery = String(bot.battery ?? "");
          m.title = bot.module
            ? `${moduleLabel(bot.module.type)} installed, ${bot.module.charges} charge(s); battery ${bot.battery ?? "?"}`
            : `No module installed; battery ${bot.battery ?? "?"}`;
          stats.append(m);
          const drone = [...bots.values()].find((b) => b.drone_of === bot.id && b.at);
          if (drone) stats.append(h("span", { class: "stat stat-drone" }, "drone on the course"));
        }
        if (rules.upgrades && Array.isArray(bot.upgrades) && bot.upgrades.length) {
          const up = stat("upgrades", bot.upgrades.map(upgradeLabel).join(", "), "stat-upgrades");
          up.dataset.upgrades = bot.upgrades.join(" ");
          stats.append(up);
        }
        if (typeof s.rating === "number" && !computer) stats.append(stat("rating", String(s.rating), "stat-rating"));
        if (notes.length) stats.append(h("span", { class: "stat stat-notes" }, notes.join(" · ")));
      } else if (this.kindStats) {
        const kindStats = this.kindStats(snap, s);
        if (kindStats) stats.append(kindStats);
        if (notes.length) stats.append(h("span", { class: "stat stat-notes" }, notes.join(" · ")));
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
