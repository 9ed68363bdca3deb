// Computer players (issue 20): how a computer seat, a seat under autopilot and their events read, and the
// small badge that marks a computer wherever a seat is shown (robot list, lobby seats, results). The words
// are pure functions (unit-tested); the badge is a few DOM nodes built with textContent only.
import { h } from "./dom";
import type { ComputerStrength, Seat, Snapshot } from "./types";

export const STRENGTHS: readonly ComputerStrength[] = ["easy", "normal", "hard"];
const STRENGTH_NAMES: Record<string, string> = { easy: "Easy", normal: "Normal", hard: "Hard" };

/** "Easy", "Normal", "Hard"; an unknown strength as the server spells it, capitalised. */
export function strengthName(strength: unknown): string {
  const s = String(strength ?? "");
  return STRENGTH_NAMES[s] ?? (s ? s[0].toUpperCase() + s.slice(1) : "");
}

/** The strengths the creator may choose from: the snapshot's, else the three known ones. */
export function strengthsOf(snap: Pick<Snapshot, "computer_strengths">): string[] {
  const list = Array.isArray(snap.computer_strengths) ? snap.computer_strengths.filter((s) => typeof s === "string" && s) : [];
  return list.length ? list : [...STRENGTHS];
}

/** The seat is a computer player's (not a person's under autopilot). */
export function isComputer(seat: Pick<Seat, "computer"> | null | undefined): boolean {
  const computer: unknown = seat?.computer;
  return typeof computer === "string" && computer !== "";
}

/** "Computer · Normal". */
export function computerLabel(seat: Pick<Seat, "computer">): string {
  return `Computer · ${strengthName(seat.computer)}`;
}

/** The note on a person's seat played by a computer because their game time ran out. */
export const AUTOPILOT_NOTE = "computer playing (time ran out)";

/** What the owner of a seat under autopilot reads, until they send a program again. */
export const AUTOPILOT_BANNER = "Your time ran out: a computer player is playing your robot. Send a program, or take it back now.";

/** The words of a `seat_autopilot` event ({seat, on}) for the game's notice line, with the seat's name; "" for
 * my own seat going on autopilot (the banner says it, `AUTOPILOT_BANNER`). */
export function autopilotNotice(
  snap: Pick<Snapshot, "seats" | "me">, data: { seat?: unknown; on?: unknown } | null | undefined,
): string {
  const seat = snap.seats.find((s) => s.number === data?.seat);
  if (!seat && typeof data?.seat !== "number") return "";
  const mine = snap.me?.seat === data?.seat;
  const name = seat ? (seat.display_name?.trim() || seat.user) : `Seat ${String(data?.seat)}`;
  if (data?.on === true) {
    return mine ? ""
      : `${name} ran out of time: a computer player plays their robot until they send a program again.`;
  }
  return mine ? "You are back in control of your robot." : `${name} is back: they play their own robot again.`;
}

/** The numbers of the seats still free in a lobby (1…max_seats not taken), lowest first. */
export function freeSeats(snap: Pick<Snapshot, "status" | "seats" | "max_seats">): number[] {
  if (snap.status !== "lobby" || typeof snap.max_seats !== "number") return [];
  const taken = new Set(snap.seats.map((s) => s.number));
  const free: number[] = [];
  for (let n = 1; n <= snap.max_seats; n++) if (!taken.has(n)) free.push(n);
  return free;
}

const SVG = "http://www.w3.org/2000/svg";

/** A small robot head (an antenna, a head with two eyes), drawn in the text colour. */
export function robotIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "computer-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const parts: [string, Record<string, string>][] = [
    ["line", { x1: "8", y1: "1.5", x2: "8", y2: "4", stroke: "currentColor", "stroke-width": "1.5", "stroke-linecap": "round" }],
    ["circle", { cx: "8", cy: "1.6", r: "1.2", fill: "currentColor" }],
    ["rect", { x: "2.5", y: "4", width: "11", height: "9", rx: "2.2", fill: "none", stroke: "currentColor", "stroke-width": "1.5" }],
    ["circle", { cx: "6", cy: "8", r: "1.3", fill: "currentColor" }],
    ["circle", { cx: "10", cy: "8", r: "1.3", fill: "currentColor" }],
    ["line", { x1: "5.5", y1: "11", x2: "10.5", y2: "11", stroke: "currentColor", "stroke-width": "1.2", "stroke-linecap": "round" }],
  ];
  for (const [tag, attrs] of parts) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.appendChild(el);
  }
  return svg;
}

/** `span.seat-computer[data-computer=<strength>]`: a robot icon and "Computer · Normal". */
export function computerBadge(seat: Pick<Seat, "computer">): HTMLSpanElement {
  const badge = h("span", { class: "seat-computer", "data-computer": String(seat.computer ?? "") });
  badge.append(robotIcon(), h("span", { class: "seat-computer-text" }, computerLabel(seat)));
  badge.title = `A computer player (${strengthName(seat.computer)})`;
  return badge;
}

/** `span.seat-autopilot`: a person's seat that a computer plays because their time ran out. */
export function autopilotBadge(): HTMLSpanElement {
  const badge = h("span", { class: "seat-autopilot" });
  badge.append(robotIcon(), h("span", {}, AUTOPILOT_NOTE));
  return badge;
}

/** The numbers of computer opponents a course has room for (the caller takes one seat): from its least
 * players − 1 (at least 1) to its most players − 1. Null when the course's range is unknown. */
export function opponentRange(minPlayers: unknown, maxPlayers: unknown): [number, number] | null {
  const low = Number(minPlayers), high = Number(maxPlayers);
  if (!Number.isInteger(low) || !Number.isInteger(high) || high < 2) return null;
  return [Math.max(1, low - 1), Math.max(1, high - 1)];
}

/** The number of opponents to keep when the course changes: the chosen one if the course has room for it,
 * else the nearest it has. */
export function fitOpponents(chosen: number, range: [number, number]): number {
  return Math.min(range[1], Math.max(range[0], chosen));
}
