// The RAMbots status line and seat lookups, pure (no DOM): the screen and the unit tests use them.
import type { Seat, Snapshot } from "../types";
import { cloneState, goalsHidden } from "./model";
import type { RamPlayer, RamState } from "./types";

/** Players still to act in this step (seats neither ready nor forfeited). */
export function waitingFor(snap: Pick<Snapshot, "seats">): number {
  return snap.seats.filter((s) => !s.ready && !s.ejected).length;
}

/** A seat's shown name. */
export function nameOfSeat(s: Seat | undefined, id: string): string {
  if (!s) return `Player ${id}`;
  return typeof s.display_name === "string" && s.display_name.trim() ? s.display_name : s.user;
}

export function seatFor(snap: Pick<Snapshot, "seats">, id: string): Seat | undefined {
  return snap.seats.find((s) => String(s.bot ?? "") === id) ?? snap.seats.find((s) => String(s.number) === id);
}

/** The state a snapshot carries (`rambots`), empty when it has none yet (a lobby). */
export function stateOf(snap: Snapshot): RamState {
  return cloneState((snap as { rambots?: unknown }).rambots);
}

/** The status line: "Goal stacks — waiting for 2 players", "Round 3 — programming", "Finished — Bo wins". */
export function ramStatusText(snap: Snapshot, state: RamState, moving: boolean): string {
  const name = (id: string): string => nameOfSeat(seatFor(snap, id), id);
  switch (snap.status) {
    case "lobby":
      return `Lobby — waiting for players (${snap.seats.length}${snap.max_seats ? ` of ${snap.max_seats}` : ""} seated)`;
    case "cancelled":
      return "Cancelled — this game will not be played";
    case "finished": {
      const w = state.winner ?? (snap.winner == null ? null : String(snap.winner));
      return w ? `Finished — ${name(w)} wins` : "Finished";
    }
    case "resolving":
      return snap.turn === 0 ? "Goal stacks — revealing" : `Round ${snap.turn} — bots running`;
    default:
      if (moving) return snap.turn === 0 ? "Goal stacks — revealing" : `Round ${snap.turn} — bots running`;
      if (snap.turn === 0 || state.phase === "goals") {
        const n = waitingFor(snap);
        return `Goal stacks — ${n ? `waiting for ${n} player${n === 1 ? "" : "s"}` : "all built"}`;
      }
      return `Round ${snap.turn} — programming`;
  }
}


/**
 * A seat's goal in the seat list: null when its next goal shows as a piece (`goal_top`), else the words.
 * While the goal stacks are being built nothing is counted yet (`goals_left` is 0): never "all goals tagged" then.
 */
export function seatGoalText(state: RamState, p: RamPlayer, ready: boolean): string | null {
  if (goalsHidden(state)) return p.goals_built || ready ? "has built a goal stack" : "building a goal stack";
  if (p.goals_left <= 0) return "all goals tagged";
  return p.goal_top ? null : "next goal hidden";
}
