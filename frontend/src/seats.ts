// The seat list's words and parts, for every game kind (panel.ts draws the list): seat names, the notices of
// ejections and expired time, the order of the seats, a seat's badge and line (SeatView), a labelled stat.
import { h } from "./dom";
import type { Seat, Snapshot } from "./types";

/** The name shown for a seat: its display name, else the user name. */
export function seatName(s: Seat): string {
  return typeof s.display_name === "string" && s.display_name.trim() ? s.display_name : s.user;
}

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

/** A seat's line in the seat list, as its game kind words it (outside the lobby). */
export interface SeatView {
  /** Its stats; null: the seat has no piece on the board ("no robot"). */
  stats: Node[] | null;
  /** Notes after the stats ("virtual", "destroyed"). */
  notes: string[];
  /** Out of the game: no clock, the badge "out". */
  out: boolean;
}

/** The mode line, its tooltip and the seat list's title (kinds.ts `modeText`). */
export interface SeatsMode { text: string; seatsTitle: string; title?: string }

/** A seat's badge in the seat list: "ready", "thinking", "seated", "out", "forfeited" or "". A forfeited seat
 * (resigned, out of time or ejected) has that badge whatever else is true. */
export function seatBadge(snap: Pick<Snapshot, "status">, s: Seat, out: boolean): string {
  let badge = snap.status === "programming" ? (s.ready ? "ready" : "thinking") : "";
  if (snap.status === "lobby") badge = "seated";
  else if (out) badge = "out";
  if (s.ejected) badge = "forfeited";
  return badge;
}

/** A labelled figure of a seat's stats ("damage 3"). */
export function stat(label: string, value: string, cls: string): HTMLElement {
  const span = h("span", { class: `stat ${cls}` });
  span.append(h("span", { class: "stat-label" }, label), document.createTextNode(" " + value));
  return span;
}
