// What a RAMbots engine event does to the public state (rambots.* of the snapshot). Pure functions over
// plain data: the animator, the panel and the unit tests use the same ones.
import type { Coord, EngineEvent } from "../types";
import { isCoord } from "../types";
import {
  type Beacon, type Colour, COLOURS, type Instruction, isColour, isRDir, parsePiece, type Piece, type RamBot,
  type RamMe, type RamPlayer, type RamState, type RDir,
} from "./types";

const coord = (v: unknown): Coord | null => (isCoord(v) ? [v[0], v[1]] : null);
const pieces = (v: unknown): Piece[] => (Array.isArray(v) ? v.filter((p): p is string => typeof p === "string") : []);

/** A defensive deep copy of the snapshot's `rambots` (anything unreadable becomes empty, never a crash). */
export function cloneState(raw: unknown): RamState {
  const r = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const players: RamPlayer[] = (Array.isArray(r.players) ? r.players : []).filter((p) => p && typeof p === "object").map((p) => {
    const q = p as Record<string, unknown>;
    const bot = (q.bot && typeof q.bot === "object" ? q.bot : {}) as Record<string, unknown>;
    return {
      id: String(q.id),
      colour: isColour(q.colour) ? q.colour : "red",
      bot: { at: coord(bot.at), dir: isRDir(bot.dir) ? bot.dir : "up" },
      pool: pieces(q.pool),
      goals: Array.isArray(q.goals) ? pieces(q.goals) : null,
      goal_top: typeof q.goal_top === "string" ? q.goal_top : null,
      goals_left: typeof q.goals_left === "number" ? q.goals_left : 4,
      goal_maker: q.goal_maker == null ? null : String(q.goal_maker),
      tagged: typeof q.tagged === "number" ? q.tagged : 0,
      out: q.out === true,
      goals_built: q.goals_built === true,
    };
  });
  const beacons: Beacon[] = (Array.isArray(r.beacons) ? r.beacons : []).filter((b) => b && typeof b === "object").map((b) => {
    const q = b as Record<string, unknown>;
    return { colour: isColour(q.colour) ? q.colour : "red", at: coord(q.at), dir: isRDir(q.dir) ? q.dir : "N" };
  });
  const precedence = (Array.isArray(r.precedence) ? r.precedence : []).filter(isColour);
  const phase = typeof r.phase === "string" ? r.phase : "programming";
  return {
    phase,
    round: typeof r.round === "number" ? r.round : 0,
    players, beacons,
    precedence: precedence.length ? precedence : [...COLOURS],
    options: r.options && typeof r.options === "object" ? { ...(r.options as Record<string, unknown>) } : {},
    winner: r.winner == null ? null : String(r.winner),
    // An older server sends no `goals_revealed`: the stacks are revealed once the goal phase is over.
    goals_revealed: typeof r.goals_revealed === "boolean" ? r.goals_revealed : phase !== "goals",
  };
}

/** Whether the goal stacks are still being built: no goal counts or tops to show yet. */
export function goalsHidden(state: RamState): boolean {
  return !state.goals_revealed || state.phase === "goals";
}

export function readMe(raw: unknown): RamMe | null {
  if (!raw || typeof raw !== "object") return null;
  const r = raw as Record<string, unknown>;
  const program = (v: unknown): Instruction[] | null => Array.isArray(v)
    ? v.filter((i) => i && typeof i === "object" && typeof (i as Instruction).piece === "string")
      .map((i) => ({ piece: String((i as Instruction).piece), dir: isRDir((i as Instruction).dir) ? (i as Instruction).dir : "up" }))
    : null;
  return {
    goals_for: r.goals_for == null ? null : String(r.goals_for),
    goals_made: Array.isArray(r.goals_made) ? pieces(r.goals_made) : null,
    program: program(r.program),
    compiled: r.compiled === true,
    draft: program(r.draft),
  };
}

export function playerById(state: RamState, id: unknown): RamPlayer | undefined {
  return state.players.find((p) => p.id === String(id));
}

/** "bot:1" → player 1's bot; "beacon:red" → the red beacon; null for anything else. */
export function objectOf(state: RamState, ref: unknown): RamBot | Beacon | null {
  if (typeof ref !== "string") return null;
  const [kind, id] = ref.split(":");
  if (kind === "bot") return playerById(state, id)?.bot ?? null;
  if (kind === "beacon") return state.beacons.find((b) => b.colour === id) ?? null;
  return null;
}

/** What is on square `at` ("bot:1", "beacon:red"), or null. */
export function objectAt(state: RamState, at: Coord): string | null {
  for (const p of state.players) if (!p.out && p.bot.at && p.bot.at[0] === at[0] && p.bot.at[1] === at[1]) return `bot:${p.id}`;
  for (const b of state.beacons) if (b.at && b.at[0] === at[0] && b.at[1] === at[1]) return `beacon:${b.colour}`;
  return null;
}

function takePiece(pool: Piece[], piece: Piece): boolean {
  const i = pool.indexOf(piece);
  if (i < 0) return false;
  pool.splice(i, 1);
  return true;
}

/** Apply one engine event to `state` (in place). Returns true when anything the panel shows changed
 * (pools, goals, precedence, winner), false for a board-only change or an event it does not know. */
export function applyRamEvent(state: RamState, e: EngineEvent): boolean {
  const r = e as Record<string, unknown>;
  switch (e.type) {
    case "goal_stacks_revealed": {
      const tops = r.tops && typeof r.tops === "object" ? (r.tops as Record<string, unknown>) : {};
      for (const [id, top] of Object.entries(tops)) {
        const p = playerById(state, id);
        if (p && typeof top === "string") {
          p.goal_top = top;
          p.goals_built = true;
          // Nothing is tagged yet: the whole stack is left (the server counted nothing while it was hidden).
          if (!state.goals_revealed) p.goals_left = Math.max(p.goals_left, p.goals?.length || 4);
        }
      }
      state.goals_revealed = true;
      if (state.phase === "goals") state.phase = "programming";
      return true;
    }
    case "reoriented":
    case "tipped": {
      const o = objectOf(state, r.object);
      if (o && isRDir(r.to)) o.dir = r.to;
      return false;
    }
    case "set_upright": {
      const o = objectOf(state, r.object);
      if (o) o.dir = "up";
      return false;
    }
    case "moved": {
      const o = objectOf(state, r.object);
      if (o && isCoord(r.to)) o.at = [r.to[0], r.to[1]];
      return false;
    }
    case "stolen": {
      const from = playerById(state, r.from), to = playerById(state, r.to);
      if (typeof r.piece !== "string" || !to) return false;
      if (from) takePiece(from.pool, r.piece);
      to.pool.push(r.piece);
      return true;
    }
    case "tagged": {
      const p = playerById(state, r.player);
      if (!p) return false;
      const piece = typeof r.piece === "string" ? r.piece : p.goal_top;
      p.tagged += 1;
      p.goals_left = Math.max(0, p.goals_left - 1);
      if (piece) p.pool.push(piece);
      // The next goal shows once the top is taken: from the whole stack when this browser knows it, from the
      // event's `next_top` if the server sends it, else unknown until the next snapshot.
      if (p.goals && p.goals.length && (!piece || p.goals[0] === piece)) p.goals = p.goals.slice(1);
      const next = typeof r.next_top === "string" ? r.next_top : p.goals ? (p.goals[0] ?? null) : null;
      p.goal_top = p.goals_left > 0 ? next : null;
      return true;
    }
    case "precedence_rotated": {
      const order = Array.isArray(r.precedence) ? r.precedence.filter(isColour) : [];
      if (order.length) state.precedence = order;
      else if (state.precedence.length) state.precedence = [...state.precedence.slice(1), state.precedence[0]];
      return true;
    }
    case "won":
      state.winner = r.player == null ? null : String(r.player);
      state.phase = "over";
      return true;
    case "removed": {
      const p = playerById(state, r.player);
      if (!p) return false;
      p.out = true;
      p.bot.at = null;
      return true;
    }
    default:
      // instruction, blocked, rammed, beam: nothing lasting (their effects come as their own events);
      // unknown types: ignored.
      return false;
  }
}

/** Player ids by their bot colour's place in the precedence stack (ties of identical pieces go this way). */
export function precedenceOrder(state: RamState): string[] {
  const rank = (c: Colour): number => {
    const i = state.precedence.indexOf(c);
    return i < 0 ? 99 : i;
  };
  return [...state.players].sort((a, b) => rank(a.colour) - rank(b.colour)).map((p) => p.id);
}

/** Pieces sorted as the rules rank them: smaller first, then the colour higher on the precedence stack. */
export function sortPieces(list: readonly Piece[], precedence: readonly Colour[]): Piece[] {
  const key = (p: Piece): number => {
    const parsed = parsePiece(p);
    if (!parsed) return 999;
    const c = precedence.indexOf(parsed.colour);
    return ({ S: 0, M: 1, L: 2 })[parsed.size] * 10 + (c < 0 ? 9 : c);
  };
  return [...list].sort((a, b) => key(a) - key(b));
}

/** The square one step from `at` in `dir` (null for upright). */
export function stepFrom(at: Coord, dir: RDir): Coord | null {
  switch (dir) {
    case "N": return [at[0], at[1] - 1];
    case "S": return [at[0], at[1] + 1];
    case "E": return [at[0] + 1, at[1]];
    case "W": return [at[0] - 1, at[1]];
    default: return null;
  }
}

export const BOARD_SIZE = 8;
export function onBoard(c: Coord): boolean {
  return c[0] >= 0 && c[1] >= 0 && c[0] < BOARD_SIZE && c[1] < BOARD_SIZE;
}
