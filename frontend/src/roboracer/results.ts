// RoboRacer's results table (results.ts draws it): every robot's final place, check points reached, lives
// and damage (standings.ts), under the mode's standings.
import type { CustomResults } from "../results";
import { resultRows, resultsSummary } from "../standings";
import type { Snapshot } from "../types";
import { scoresCheckpoints } from "./seats";

export function robotResults(snap: Snapshot, lastTurn: number): CustomResults {
  const rows = resultRows(snap);
  const mine = snap.me?.bot != null ? String(snap.me.bot) : null;
  // An arena scores survival and a destroy or survive puzzle its goal: their first column is the mode's own
  // result for the robot (the standings' detail, "out in turn 3"), not check points (issue 37 item 12).
  const checkpoints = scoresCheckpoints(snap);
  const detail = new Map((Array.isArray(snap.standings) ? snap.standings : []).map((s) => [String(s.bot), s.detail]));
  const first: [string, string] = checkpoints ? ["Check points", "col-cp"]
    : [snap.mode === "arena" ? "Survival" : "Goal", "col-score"];
  return {
    summary: resultsSummary(rows, mine, lastTurn),
    nameHeading: "Robot",
    modeStandings: true,
    columns: [first, ["Lives", "col-lives"], ["Damage", "col-damage"]],
    rows: rows.map((r) => ({
      bot: r.bot, seat: r.seat, name: r.name, place: r.place, winner: r.winner, note: r.note,
      cells: [
        checkpoints ? (r.totalCheckpoints ? `${r.checkpoints} of ${r.totalCheckpoints}` : String(r.checkpoints))
          : detail.get(String(r.bot)) ?? "–",
        String(r.lives), String(r.damage)],
    })),
  };
}
