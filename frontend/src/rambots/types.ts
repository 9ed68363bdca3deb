// RAMbots (seed 002): the server→browser data of a RAMbots game (games.kinds.rambots; docs/frontend.md
// "RAMbots screens"). Geometry [x, y]: x from the west edge, y from the north edge, 0..7; "N" is up.
import type { Coord } from "../types";

export type Colour = "red" | "yellow" | "green" | "blue";
export const COLOURS: readonly Colour[] = ["red", "yellow", "green", "blue"];
export type Size = "S" | "M" | "L";
/** A piece: size and colour, "S-red", "M-blue", "L-green". */
export type Piece = string;
/** Lying and pointing N/E/S/W, or standing upright. */
export type RDir = "N" | "E" | "S" | "W" | "up";
export const RDIRS: readonly RDir[] = ["N", "E", "S", "W", "up"];

export interface RamBot { at: Coord | null; dir: RDir }
export interface RamPlayer {
  /** The seat's bot id: the seat number as a string. */
  id: string;
  colour: Colour;
  bot: RamBot;
  /** The code pool (every piece the player holds). */
  pool: Piece[];
  /** The whole goal stack, top first: only for its owner (once all are built) and its maker. */
  goals: Piece[] | null;
  goal_top: Piece | null;
  goals_left: number;
  /** Who built this player's goal stack. */
  goal_maker: string | null;
  tagged: number;
  out: boolean;
  goals_built: boolean;
}
export interface Beacon { colour: Colour; at: Coord | null; dir: RDir }
export interface RamState {
  phase: "goals" | "programming" | "over" | string;
  round: number;
  /** Clockwise seat order. */
  players: RamPlayer[];
  beacons: Beacon[];
  /** Top first. */
  precedence: Colour[];
  options: { speedbots?: boolean; [k: string]: unknown };
  winner: string | null;
  /** Every goal stack is built and the tops are shown (`goals_revealed`; before that, `goals_left` counts nothing). */
  goals_revealed: boolean;
}
export interface Instruction { piece: Piece; dir: RDir }
/** `me.rambots`, for a seated player only. */
export interface RamMe {
  goals_for: string | null;
  goals_made: Piece[] | null;
  program: Instruction[] | null;
  compiled: boolean;
  draft: Instruction[] | null;
}

export function isColour(v: unknown): v is Colour {
  return v === "red" || v === "yellow" || v === "green" || v === "blue";
}
export function isRDir(v: unknown): v is RDir {
  return v === "N" || v === "E" || v === "S" || v === "W" || v === "up";
}

/** "S-red" → {size: "S", colour: "red"}; null when unreadable. */
export function parsePiece(p: unknown): { size: Size; colour: Colour } | null {
  if (typeof p !== "string") return null;
  const m = /^([SML])-(\w+)$/.exec(p);
  if (!m || !isColour(m[2])) return null;
  return { size: m[1] as Size, colour: m[2] };
}

/** Squares a piece moves or a beam acts: small 1, medium 2, large 3. */
export function sizeSteps(size: Size): number {
  return size === "S" ? 1 : size === "M" ? 2 : 3;
}

export const SIZE_NAMES: Record<Size, string> = { S: "small", M: "medium", L: "large" };
export const COLOUR_NAMES: Record<Colour, string> = { red: "Red", yellow: "Yellow", green: "Green", blue: "Blue" };
/** What each beam colour does (002 "Colored Energy Beams"). */
export const BEAM_NAMES: Record<Colour, string> = { red: "slide", yellow: "pull", green: "activate", blue: "push" };
/** Piece colours on screen. */
export const COLOUR_HEX: Record<Colour, string> = { red: "#dc2626", yellow: "#eab308", green: "#16a34a", blue: "#2563eb" };

export function pieceLabel(p: Piece): string {
  const parsed = parsePiece(p);
  return parsed ? `${SIZE_NAMES[parsed.size]} ${parsed.colour}` : String(p);
}

export function dirLabel(d: RDir): string {
  return d === "up" ? "upright" : d;
}

/** Arrows for the direction buttons. */
export const DIR_ARROWS: Record<RDir, string> = { N: "↑", E: "→", S: "↓", W: "←", up: "▲" };
