// Move and game time per seat, counted down in the browser between the server's reports.
// Pure functions (no DOM): the server says how much time each seat had at `server_time`; the browser
// keeps the offset between its own clock and the server's and works out what is left now.

/** One seat's clock as the server reported it. Seconds, as of `asOf` (server time, ms since the epoch). */
export interface SeatClock {
  move: number | null;
  game: number | null;
  running: boolean;
  expired: boolean;
  asOf: number;
  /** Seconds after `asOf` before a running clock starts counting (the last turn's animation; 0: at once). */
  startsIn: number;
  /** A tournament organiser holds the game's clocks (the reading's `paused`): stopped, and said so. */
  paused?: boolean;
}

export interface TimeLeft {
  /** Seconds of move time left (null: this game has no move timer). */
  move: number | null;
  /** Seconds of game time left (null: no game timer). */
  game: number | null;
  /** Move time is used up and game time is going down now. */
  onGameTime: boolean;
  running: boolean;
  expired: boolean;
  /** The organiser holds the clocks (SeatClock.paused). */
  paused?: boolean;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Server time in ms since the epoch, from an ISO string (NaN if unreadable). */
export function parseServerTime(iso: unknown): number {
  return typeof iso === "string" ? Date.parse(iso) : NaN;
}

/** offset = server time − local time at the moment a message was received (ms). 0 when unknown. */
export function clockOffset(serverTimeIso: unknown, receivedAtLocalMs: number): number {
  const t = parseServerTime(serverTimeIso);
  return Number.isFinite(t) ? t - receivedAtLocalMs : 0;
}

export function seatClock(
  fields: { move_left?: unknown; game_left?: unknown; clock_running?: unknown; expired?: unknown; starts_in?: unknown; paused?: unknown },
  asOf: number,
): SeatClock {
  return {
    move: num(fields.move_left),
    game: num(fields.game_left),
    running: fields.clock_running === true,
    expired: fields.expired === true,
    asOf,
    startsIn: Math.max(0, num(fields.starts_in) ?? 0),
    paused: fields.paused === true,
  };
}

/** What is left at `now` (server time, ms): a running clock spends move time first, then game time. */
export function timeLeft(c: SeatClock, now: number): TimeLeft {
  let move = c.move;
  let game = c.game;
  let expired = c.expired;
  if (c.running && !expired) {
    let spent = Math.max(0, (now - c.asOf) / 1000 - (c.startsIn ?? 0));
    if (move !== null) {
      const fromMove = Math.min(move, spent);
      move -= fromMove;
      spent -= fromMove;
    }
    if (game !== null && spent > 0) {
      game = Math.max(0, game - spent);
      if (game === 0) expired = true;
    }
  }
  const onGameTime = c.running && !expired && game !== null && (move === null || move <= 0);
  return { move, game, onGameTime, running: c.running && !expired, expired, ...(c.paused ? { paused: true } : {}) };
}

/** "4:07" under an hour (rounded up to whole seconds, so 0:00 means none left); "5h 12m" under a day; "1d 4h". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "–";
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

/** A spoken form for screen readers: "4 minutes 7 seconds", "5 hours 12 minutes", "1 day 4 hours". */
export function speakDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "no limit";
  const s = Math.max(0, Math.ceil(seconds));
  const unit = (n: number, w: string): string => `${n} ${w}${n === 1 ? "" : "s"}`;
  if (s < 60) return unit(s, "second");
  if (s < 3600) return `${unit(Math.floor(s / 60), "minute")} ${unit(s % 60, "second")}`;
  if (s < 86400) return `${unit(Math.floor(s / 3600), "hour")} ${unit(Math.floor((s % 3600) / 60), "minute")}`;
  return `${unit(Math.floor(s / 86400), "day")} ${unit(Math.floor((s % 86400) / 3600), "hour")}`;
}

/** The clock text shown next to a seat: "move 0:42 · game 12:30", "game 11:58" once move time is out, "expired";
 * "· paused" while a tournament's organiser holds the clocks. */
export function clockText(t: TimeLeft): string {
  if (t.expired) return "expired";
  const parts: string[] = [];
  if (t.move !== null && !t.onGameTime) parts.push(`move ${formatDuration(t.move)}`);
  if (t.game !== null) parts.push(`game ${formatDuration(t.game)}`);
  if (t.paused) parts.push("paused");
  return parts.join(" · ");
}

/** Vacation note: "on vacation until 2026-12-24" while it lasts (today inclusive), "vacation 12-24 → 12-31" ahead. */
export function vacationText(v: { from?: unknown; until?: unknown } | null | undefined, today: string): string {
  if (!v || typeof v.from !== "string" || typeof v.until !== "string") return "";
  if (v.until < today) return "";
  if (v.from <= today) return `on vacation until ${v.until}`;
  return `vacation ${v.from} to ${v.until}`;
}

/** Today's date as YYYY-MM-DD in the browser's time zone. */
export function localDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** A whole duration in words for settings: "2 min", "1 h 30 min", "1 day", "15 days". */
export function humanDuration(seconds: unknown): string {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return "";
  const s = Math.round(seconds);
  if (s === 0) return "none";
  const d = Math.floor(s / 86400), hr = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const parts: string[] = [];
  if (d) parts.push(`${d} day${d === 1 ? "" : "s"}`);
  if (hr) parts.push(`${hr} h`);
  if (m) parts.push(`${m} min`);
  if (sec && !d && !hr) parts.push(`${sec} s`);
  return parts.join(" ");
}

/** The timer presets' names as players read them (the same as the site's, games.models.Game.Preset). */
export const PRESET_NAMES: Record<string, string> = { realtime: "Real-time", daily: "Daily", tournament: "Tournament", custom: "Custom" };
const POLICY_TEXT: Record<string, string> = {
  wait: "out of game time: the others may !eject",
  eject: "out of game time: ejected at once",
  random: "out of game time: a random program is played",
  computer: "out of game time: a computer player plays the robot until its player sends a program again",
};

const SOLO_WAIT_TEXT = "out of game time: the game waits for your program";

/** "Real-time timers: 2 min a move, 10 min game time · out of game time: the others may !eject". In a solo game
 * (`solo`: it started with one seat) there is nobody else: under "wait" the game waits for the player. */
export function timersText(
  t: { preset?: unknown; move?: unknown; game?: unknown; policy?: unknown } | null | undefined, solo = false,
): string {
  if (!t || typeof t !== "object") return "";
  const name = PRESET_NAMES[String(t.preset)] ?? "";
  const move = humanDuration(t.move), game = humanDuration(t.game);
  // A preset without game time (0) says so in words, not "none game time".
  const parts = [move && `${move} a move`, game && (t.game === 0 ? "no game time" : `${game} game time`)]
    .filter(Boolean).join(", ");
  if (!parts) return "";
  const policy = (solo && t.policy === "wait" ? SOLO_WAIT_TEXT : POLICY_TEXT[String(t.policy)]) ?? "";
  return `${name ? `${name} timers` : "Timers"}: ${parts}${policy ? ` · ${policy}` : ""}`;
}
