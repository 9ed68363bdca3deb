// A RAMbots turn in words, one line per instruction: "Red's small blue N: moves 1, RAMs Blue's bot, steals
// small red" (pieces in words, never codes like "S-red"). Pure (no DOM): the turn log and the unit tests use it.
import type { EngineEvent } from "../types";
import { playerById } from "./model";
import { BEAM_NAMES, COLOUR_NAMES, type Colour, dirLabel, isColour, isRDir, pieceLabel, type RamState } from "./types";

export interface LogLine {
  /** The player whose instruction it is (null: the turn's own lines, e.g. precedence). */
  player: string | null;
  /** The instruction's piece and direction ("small blue N"), "" for other lines. */
  instruction: string;
  text: string;
  step: number | null;
  /** The instruction is still playing: its effects are not known yet (describePlayed). */
  pending?: boolean;
}

/** Events that are lines of their own (they end the instruction before them). */
const OWN_LINE = new Set(["goal_stacks_revealed", "precedence_rotated", "won", "removed"]);

/**
 * The turn's lines while it plays, after the first `played` of `events`: every instruction whose events have
 * all played (up to the next `instruction` or a line of its own) in full, the one still playing as a pending
 * line (its piece and direction, no effects: "does nothing" would be wrong before its events have come).
 */
export function describePlayed(state: RamState, events: readonly EngineEvent[], played: number): LogLine[] {
  const n = Math.max(0, Math.min(played, events.length));
  if (n >= events.length) return describeTurn(state, events);
  const next = events[n];
  if (next.type === "instruction" || OWN_LINE.has(next.type)) return describeTurn(state, events.slice(0, n));
  let start = n - 1;
  while (start >= 0 && events[start].type !== "instruction") start--;
  if (start < 0) return describeTurn(state, events.slice(0, n));
  const lines = describeTurn(state, events.slice(0, start + 1));
  const last = lines[lines.length - 1];
  if (last) {
    last.text = "";
    last.pending = true;
  }
  return lines;
}

/** "Red" for player "1" whose bot is red; "Player 1" when unknown. */
export function playerWord(state: RamState, id: unknown): string {
  const p = playerById(state, id);
  return p ? COLOUR_NAMES[p.colour] : `Player ${String(id)}`;
}

/** "Blue's bot", "the red beacon". */
export function objectWord(state: RamState, ref: unknown): string {
  if (typeof ref !== "string") return "something";
  const [kind, id] = ref.split(":");
  if (kind === "bot") return `${playerWord(state, id)}'s bot`;
  if (kind === "beacon" && isColour(id)) return `the ${id} beacon`;
  return ref;
}

/**
 * The turn's lines. `state` is the state before the turn (colours of players never change, so it names
 * everyone); the events are read in order, each clause appended to the current instruction's line.
 */
export function describeTurn(state: RamState, events: readonly EngineEvent[]): LogLine[] {
  const lines: LogLine[] = [];
  let current: { line: LogLine; clauses: string[]; bot: string; counts: Map<string, number> } | null = null;
  const flush = (): void => {
    if (!current) return;
    current.line.text = current.clauses.length ? current.clauses.join(", ") : "does nothing";
    current = null;
  };
  const own = (text: string): void => {
    flush();
    lines.push({ player: null, instruction: "", text, step: null });
  };
  /** Moves of one object in one clause ("moves 2"), counted square by square. */
  const count = (key: string, make: (n: number) => string): void => {
    if (!current) return;
    const n = (current.counts.get(key) ?? 0) + 1;
    current.counts.set(key, n);
    const text = make(n), prev = make(n - 1);
    const i = current.clauses.lastIndexOf(prev);
    if (n > 1 && i >= 0) current.clauses[i] = text;
    else current.clauses.push(text);
  };
  for (const e of events) {
    const r = e as Record<string, unknown>;
    switch (e.type) {
      case "goal_stacks_revealed": {
        const tops = r.tops && typeof r.tops === "object" ? Object.entries(r.tops as Record<string, unknown>) : [];
        own(tops.length
          ? `Goal stacks revealed: ${tops.map(([id, top]) => `${playerWord(state, id)} must tag ${pieceLabel(String(top))} first`).join("; ")}`
          : "Goal stacks revealed");
        break;
      }
      case "instruction": {
        flush();
        const dir = isRDir(r.dir) ? dirLabel(r.dir) : String(r.dir);
        const line: LogLine = {
          player: r.player == null ? null : String(r.player), instruction: `${pieceLabel(String(r.piece))} ${dir}`, text: "",
          step: typeof r.step === "number" ? r.step : null,
        };
        lines.push(line);
        current = { line, clauses: [], bot: `bot:${String(r.player)}`, counts: new Map() };
        break;
      }
      case "reoriented": {
        const to = isRDir(r.to) ? dirLabel(r.to) : String(r.to);
        const text = r.from === "up" ? `tips down facing ${to}` : `turns ${to}`;
        if (current && r.object === current.bot) current.clauses.push(text);
        else if (current) current.clauses.push(`${objectWord(state, r.object)} ${text}`);
        break;
      }
      case "moved": {
        if (!current) break;
        const cause = String(r.cause ?? "move");
        if (r.object === current.bot && (cause === "move" || cause === "reverse")) {
          count(`${cause}`, (n) => `${cause === "reverse" ? "backs up" : "moves"} ${n}`);
        } else if (cause === "push" && r.object !== current.bot) {
          count(`push:${String(r.object)}`, (n) => `pushes ${objectWord(state, r.object)}${n > 1 ? ` ${n}` : ""}`);
        } else if (cause === "beam") {
          count(`beam:${String(r.object)}`, (n) => `${objectWord(state, r.object)} moves ${n}`);
        } else {
          count(`${cause}:${String(r.object)}`, (n) => `${objectWord(state, r.object)} moves ${n} (${cause})`);
        }
        break;
      }
      case "blocked":
        if (current) current.clauses.push(r.object === current.bot ? "blocked" : `${objectWord(state, r.object)} blocked`);
        break;
      case "rammed":
        if (current) current.clauses.push(`RAMs ${objectWord(state, r.object)}`);
        else own(`${playerWord(state, r.by)} RAMs ${objectWord(state, r.object)}`);
        break;
      case "stolen": {
        const text = current && String(r.to) === current.line.player
          ? `steals ${pieceLabel(String(r.piece))}` : `${playerWord(state, r.to)} steals ${pieceLabel(String(r.piece))} from ${playerWord(state, r.from)}`;
        if (current) current.clauses.push(text);
        else own(text);
        break;
      }
      case "tipped":
        if (current) current.clauses.push(`tips ${objectWord(state, r.object)} over${isRDir(r.to) ? ` (${r.to})` : ""}`);
        break;
      case "tagged": {
        const text = current && String(r.player) === current.line.player
          ? `tags the ${goalColour(r.piece)} goal` : `${playerWord(state, r.player)} tags the ${goalColour(r.piece)} goal`;
        if (current) current.clauses.push(text);
        else own(text);
        break;
      }
      case "beam": {
        if (!current) break;
        const colour = isColour(r.colour) ? r.colour : null;
        const what = colour ? `${colour} beam (${BEAM_NAMES[colour]})` : "beam";
        current.clauses.push(r.hit ? `fires a ${what} at ${objectWord(state, r.hit)}` : `fires a ${what}: no hit`);
        break;
      }
      case "set_upright":
        if (current) current.clauses.push(`sets ${objectWord(state, r.object)} upright`);
        break;
      case "precedence_rotated": {
        const order = Array.isArray(r.precedence) ? r.precedence.filter(isColour) : [];
        own(`Round over: the precedence stack is now ${order.map((c: Colour) => c).join(", ")}`);
        break;
      }
      case "won":
        own(`${playerWord(state, r.player)} wins: all four goals tagged!`);
        break;
      case "removed":
        own(`${playerWord(state, r.player)} is out of the game`);
        break;
      default:
        break; // an event this screen does not know: left out
    }
  }
  flush();
  return lines;
}

function goalColour(piece: unknown): string {
  const m = typeof piece === "string" ? /-(\w+)$/.exec(piece) : null;
  return m ? m[1] : "next";
}
