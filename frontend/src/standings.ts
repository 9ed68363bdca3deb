// The final standings of a finished game, as plain data (no DOM): every robot's place, check points
// reached, lives and damage. The places are the engine's (`places` in the snapshot, 1 = winner, ties
// share a place) when the server sends them; until then the winner comes first and the others follow by
// check points reached (the same number shares a place).
import type { BotState, Seat, Snapshot } from "./types";

export interface ResultRow {
  place: number;
  bot: string;
  seat: Seat | null;
  name: string;
  checkpoints: number;
  totalCheckpoints: number;
  lives: number;
  damage: number;
  winner: boolean;
  /** "forfeited" (resigned, out of time or ejected: docs/rules.md "Final places"), "out of lives", "". */
  note: string;
}

/** The snapshot's places ({bot id: place}), if the server sends them. */
export function placesOf(snap: Snapshot): Map<string, number> | null {
  const raw = (snap as { places?: unknown }).places;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const out = new Map<string, number>();
  for (const [bot, place] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof place === "number" && Number.isFinite(place)) out.set(String(bot), place);
  }
  return out.size ? out : null;
}

export function checkpointCount(snap: Snapshot): number {
  const elements = Array.isArray(snap.course?.elements) ? snap.course.elements : [];
  return elements.filter((e) => e?.type === "checkpoint").length;
}

function seatName(s: Seat): string {
  return typeof s.display_name === "string" && s.display_name.trim() ? s.display_name : s.user;
}

/** The results table's rows, best place first (seat number breaks ties in the listing). */
export function resultRows(snap: Snapshot): ResultRow[] {
  const total = checkpointCount(snap);
  const places = placesOf(snap);
  const winner = snap.winner == null ? null : String(snap.winner);
  // A drone is not ranked (docs/rules.md "Drone: winning, places"): its owner is.
  // A puzzle's target bots belong to nobody and are not ranked either.
  const bots: BotState[] = (Array.isArray(snap.bots) ? snap.bots : []).filter((b) => !b.drone_of && !b.target);
  const rows: ResultRow[] = bots.map((b) => {
    const id = String(b.id);
    const seat = snap.seats.find((s) => s.bot != null && String(s.bot) === id) ?? null;
    const reached = Math.max(0, (Number(b.next_checkpoint) || 1) - 1);
    return {
      place: 0,
      bot: id,
      seat,
      name: seat ? seatName(seat) : `Robot ${id}`,
      checkpoints: total ? Math.min(reached, total) : reached,
      totalCheckpoints: total,
      lives: Math.max(0, Number(b.lives) || 0),
      damage: Math.max(0, Number(b.damage) || 0),
      winner: id === winner,
      note: seat?.ejected ? "forfeited" : (Number(b.lives) || 0) <= 0 ? "out of lives" : "",
    };
  });
  if (places) {
    for (const r of rows) r.place = places.get(r.bot) ?? rows.length;
  } else {
    // Fallback until the engine's places arrive: the winner, then by check points reached (ties share).
    const key = (r: ResultRow): number[] => [r.winner ? 1 : 0, r.checkpoints];
    const better = (a: ResultRow, b: ResultRow): number => {
      const ka = key(a), kb = key(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
      return 0;
    };
    const sorted = [...rows].sort(better);
    sorted.forEach((r, i) => {
      r.place = i > 0 && better(sorted[i - 1], r) === 0 ? sorted[i - 1].place : i + 1;
    });
  }
  return rows.sort((a, b) => a.place - b.place || (a.seat?.number ?? 99) - (b.seat?.number ?? 99));
}

/** "1st", "2nd", "3rd", "4th"… */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

function turns(n: number): string {
  return `${n} turn${n === 1 ? "" : "s"}`;
}

/** The results' first line. A race: "You win after 4 turns.", "alice wins after 4 turns.", or "The race is over
 * after 4 turns." when nobody won outright. An aborted game (fewer than two players moved, so nobody is rated;
 * docs/ratings.md "Aborted games") never says anyone "wins": "Game aborted after 0 turns: fewer than two players
 * moved. You take 1st place." (the place stands: a tournament table records it). */
export function resultsSummary(rows: Pick<ResultRow, "bot" | "name" | "place" | "winner">[], mine: string | null,
  lastTurn: number, aborted = false): string {
  const won = rows.filter((r) => r.place === 1);
  const single = won.length === 1 ? won[0] : null;
  if (rows.length === 1) {
    // A robot alone (a solo test drive or practice): no place to take and nobody to beat (issue 38: a lost solo
    // test drive said "1st"). Did it complete the course?
    const solo = rows[0];
    const who = solo.bot === mine ? "You" : solo.name;
    return solo.winner ? `${who} completed the course in ${turns(lastTurn)}.`
      : `Over after ${turns(lastTurn)}: ${solo.bot === mine ? "your robot" : solo.name} did not complete the course.`;
  }
  if (aborted) {
    const first = single ? ` ${single.bot === mine ? "You take" : `${single.name} takes`} 1st place.` : "";
    return `Game aborted after ${turns(lastTurn)}: fewer than two players moved.${first}`;
  }
  return single && single.winner
    ? `${single.bot === mine ? "You win" : `${single.name} wins`} after ${turns(lastTurn)}.`
    : `The race is over after ${turns(lastTurn)}.`;
}

/** What a finished game did in its competition, in the server's words, with its name first ("Spring Cup, round
 * 2, table 1: ann advances to round 3"); "" when there is nothing to say. */
export function competitionResult(snap: Snapshot): string {
  const c = snap.competition;
  if (!c || typeof c.result !== "string" || !c.result || typeof c.name !== "string") return "";
  const where = typeof c.context === "string" && c.context ? `${c.name}, ${c.context}` : c.name;
  return `${where}: ${c.result}.`;
}

/** A finished game of a competition (a tournament's table; `snap.competition`): the link back to it, or null. */
export function competitionLink(snap: Snapshot): { url: string; text: string } | null {
  const c = snap.competition;
  if (!c || typeof c.url !== "string" || !c.url.startsWith("/") || typeof c.name !== "string") return null;
  return { url: c.url, text: `Back to the ${typeof c.kind === "string" && c.kind ? c.kind : "tournament"}: ${c.name}` };
}
