// Status panel: the game status line, and the robots in next turn's priority order (003 "Priority":
// the status panel shows bots in priority order for the upcoming turn).
import { h } from "./dom";
import { playerUrl } from "./lobbystate";
import { nameOf } from "./log";
import { clockText, localDate, speakDuration, timeLeft, timersText, vacationText, type SeatClock } from "./clock";
import type { BotState, Seat, Snapshot } from "./types";
import { moduleLabel, moduleStatus, pricesText } from "./modules";
import { damageValue, rulesOf, rulesText, upgradeLabel } from "./ruleset";

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
    (policy === "wait" ? " Any player may now send !eject." : "");
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
    this.el.append(this.status, this.mode, this.phase, this.conn, this.notice, this.timers, this.rated, this.prices);
    parent.appendChild(this.el);

    const seats = h("section", { class: "rr-seats-section", "aria-labelledby": "rr-seats-title" });
    this.seatsTitle = h("h2", { id: "rr-seats-title" }, "Robots in priority order");
    seats.appendChild(this.seatsTitle);
    this.seatsEl = h("ol", { class: "rr-seats" });
    seats.appendChild(this.seatsEl);
    parent.appendChild(seats);
    this.seatsSection = seats;
  }

  /** "Arena: last bot alive wins", "Team play: Blue against Orange", a puzzle's goal and its turns. */
  setMode(snap: Snapshot): void {
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

  setStatus(text: string): void {
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  setPhase(text: string): void {
    this.phase.textContent = text;
  }

  /** The game's timer settings, under the status line. */
  setTimers(snap: Snapshot): void {
    const text = timersText(snap.timers);
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

  /** "Rated game" or "Unrated game" (docs/ratings.md), when the server says. */
  setRated(snap: Snapshot): void {
    const text = snap.rated === undefined ? "" : snap.rated ? "Rated game" : "Unrated game";
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
      name.append(h("a", { href: playerUrl(s.user), class: "seat-player" }, shown), mine ? " (you)" : "");
      if (shown !== s.user) name.title = s.user;
      if (s.team) name.append(h("span", { class: `seat-team team-${s.team}` }, s.team === "blue" ? "Blue" : "Orange"));
      const stats = h("span", { class: "seat-stats" });
      const extra = h("span", { class: "seat-extra" });
      const vac = vacationText(s.vacation, today);
      if (vac) extra.append(h("span", { class: "seat-vacation" }, vac));
      const clock = this.clocks.get(s.number);
      const rules = rulesOf(snap);
      const out = !!bot && bot.lives <= 0 && rules.lives;
      if (timed && !s.ejected && !out && clock && (clock.move !== null || clock.game !== null || clock.expired)) {
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
      if (inLobby) {
        stats.textContent = "waiting for the start";
        if (typeof s.rating === "number") stats.append(" · ", stat("rating", String(s.rating), "stat-rating"));
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
        if (typeof s.rating === "number") stats.append(stat("rating", String(s.rating), "stat-rating"));
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
    if (!items.length) items.push(h("li", { class: "rr-seat empty" }, "No players yet."));
    if (inLobby && snap.can_balance) {
      const b = h("button", { type: "button", id: "balance-teams" }, "Balance the teams by rating");
      b.addEventListener("click", () => this.onBalance?.());
      const li = h("li", { class: "rr-seat rr-balance" });
      li.append(b);
      items.push(li);
    }
    this.seatsEl.replaceChildren(...items);
    this.tickClocks();
  }
}
