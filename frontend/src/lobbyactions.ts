// The lobby's actions on the game screen (team play, computer players, taking my robot back): the shared
// panel's buttons, posted to the game's API.
import { gameActionUrl, joinUrl, postJson } from "./net";
import type { Panel } from "./panel";
import type { Snapshot } from "./types";

/** Team play and computer players in the lobby (docs/modes.md, issue 20): the panel's buttons post to the
 * game's API; an answer that is the new snapshot goes to `offer` (true when it was taken). */
export function wireLobbyActions(panel: Panel, api: string, offer: (game: Snapshot) => boolean): void {
  // The answer is the new snapshot.
  const apply = (res: { ok: boolean; data?: unknown; detail?: string }) => {
    const game = res.ok ? (res.data as Snapshot | undefined) : undefined;
    if (game && offer(game)) return;
    if (!res.ok) panel.setNotice(res.detail ?? "That did not work.");
  };
  panel.onTeam = (team, seat) => void postJson(gameActionUrl(api, "team"), seat ? { team, seat } : { team }, "the team").then(apply);
  panel.onBalance = () => void postJson(joinUrl(api, "teams/balance/"), {}, "balancing the teams").then(apply);
  // The creator adds a computer player to a free seat, or removes one. The seat_joined event's sync brings
  // the new seat (and a full game's start); removing answers with the snapshot itself. No extra sync here:
  // the socket allows a few a second, and a refused one would cost the event's own.
  panel.onAddComputer = async (strength, seat) => {
    const res = await postJson(joinUrl(api, "computers/"), { strength, seat }, "the computer player");
    return res.ok ? null : res.detail;
  };
  panel.onTakeBack = async () => {
    const res = await postJson(joinUrl(api, "take-back/"), {}, "taking your robot back");
    if (!res.ok) return res.detail;
    apply(res);
    return null;
  };
  panel.onRemoveComputer = async (seat) => {
    const res = await postJson(joinUrl(api, `computers/${seat}/remove/`), {}, "removing the computer player");
    if (!res.ok) return res.detail;
    apply(res);
    return null;
  };
}
