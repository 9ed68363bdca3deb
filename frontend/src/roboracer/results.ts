// RoboRacer's results table (results.ts draws it): every robot's final place, check points reached, lives
// and damage (standings.ts), under the mode's standings.
import type { CustomResults } from "../results";
import { resultRows, resultsSummary } from "../standings";
import type { Snapshot } from "../types";

export function robotResults(snap: Snapshot, lastTurn: number): CustomResults {
  const rows = resultRows(snap);
  const mine = snap.me?.bot != null ? String(snap.me.bot) : null;
  return {
    summary: resultsSummary(rows, mine, lastTurn),
    nameHeading: "Robot",
    modeStandings: true,
    columns: [["Check points", "col-cp"], ["Lives", "col-lives"], ["Damage", "col-damage"]],
    rows: rows.map((r) => ({
      bot: r.bot, seat: r.seat, name: r.name, place: r.place, winner: r.winner, note: r.note,
      cells: [r.totalCheckpoints ? `${r.checkpoints} of ${r.totalCheckpoints}` : String(r.checkpoints), String(r.lives), String(r.damage)],
    })),
  };
}
