// RoboRacer's words in the shared panel (panel.ts): the status line, the mode line, and each robot's line
// in the seat list (damage or hit points, lives, check points, module, upgrades, notes).
import { h } from "../dom";
import { moduleLabel, moduleStatus } from "../modules";
import { seatBadge, stat, winnerName, type SeatView, type SeatsMode } from "../panel";
import { damageValue, rulesOf, rulesText, upgradeLabel } from "../ruleset";
import { isComputer } from "../computers";
import type { BotState, Seat, Snapshot } from "../types";

export function statusText(snap: Snapshot, moving: boolean): string {
  switch (snap.status) {
    case "lobby": {
      const max = snap.max_seats ?? snap.course?.players?.[1];
      return `Lobby — waiting for players (${snap.seats.length}${max ? ` of ${max}` : ""} seated)`;
    }
    case "programming":
      return moving ? `Turn ${snap.turn} — robots moving` : `Turn ${snap.turn} — programming`;
    case "resolving":
      return `Turn ${snap.turn} — robots moving`;
    case "cancelled":
      return "Cancelled — this game will not be played";
    case "finished": {
      if (snap.mode === "puzzle" && snap.outcome) return `Finished — puzzle ${snap.outcome}`;
      // A team game is won by the team, as the results say (the robot that finished first is its member).
      if (snap.winning_team) return `Finished — the ${snap.winning_team === "blue" ? "Blue" : "Orange"} team wins`;
      const w = winnerName(snap);
      // An aborted game (fewer than two players moved; docs/ratings.md) keeps its places but nobody "wins" it.
      if (snap.aborted) return w ? `Aborted — ${w} takes 1st place` : "Aborted";
      return w ? `Finished — ${w} wins` : "Finished";
    }
    default:
      return `Turn ${snap.turn} — ${String(snap.status)}`;
  }
}

/** How many check points a course has (its highest number), 0 when it has none or is unknown. */
export function checkpointCount(snap: Pick<Snapshot, "course">): number {
  const elements = Array.isArray(snap.course?.elements) ? snap.course.elements : [];
  let count = 0;
  for (const e of elements) {
    const n = (e as { type?: unknown; number?: unknown }).type === "checkpoint" ? (e as { number?: unknown }).number : null;
    if (typeof n === "number" && Number.isFinite(n)) count = Math.max(count, n);
  }
  return count;
}

/** Whether the game scores check points: a race, or a puzzle whose goal is a check point. An arena scores
 * survival and a destroy or survive puzzle its goal, so neither shows "next check point" (issue 37 item 12). */
export function scoresCheckpoints(snap: Pick<Snapshot, "mode" | "puzzle">): boolean {
  if (snap.mode === "arena") return false;
  const goal = snap.mode === "puzzle" ? snap.puzzle?.goal : null;
  return !goal || goal.type === "checkpoint";
}

/** A robot still in play: on the course (or coming back) with lives left. */
function inPlay(bot: BotState): boolean {
  return bot.lives > 0 && !!bot.at;
}

/** What an arena or a destroy puzzle counts on its mode line: "3 of 4 robots left", "1 of 1 target left". */
export function modeScore(snap: Pick<Snapshot, "mode" | "puzzle" | "bots" | "status">): string {
  if (snap.status === "lobby" || !Array.isArray(snap.bots)) return "";
  if (snap.mode === "arena") {
    const robots = snap.bots.filter((b) => !b.target && !b.drone_of);
    return `${robots.filter(inPlay).length} of ${robots.length} robots left`;
  }
  const goal = snap.mode === "puzzle" ? snap.puzzle?.goal : null;
  if (goal?.type === "destroy") {
    const wanted = new Set((goal.targets ?? []).map(String));
    const targets = snap.bots.filter((b) => wanted.has(String(b.id)));
    const left = targets.filter(inPlay).length;
    return `${left} of ${targets.length} target${targets.length === 1 ? "" : "s"} left`;
  }
  if (goal?.type === "survive") {
    const robots = snap.bots.filter((b) => !b.target && !b.drone_of);
    return `${robots.filter(inPlay).length} of ${robots.length} robots intact`;
  }
  return "";
}

/** A robot's progress for the panel: ["next check point", "2 of 3"], or ["all check points", "reached"]
 * once it has touched the last one (its next_checkpoint is then one past it). */
export function checkpointStat(next: number, count: number): [string, string] {
  if (count > 0 && next > count) return ["all check points", "reached"];
  return ["next check point", count > 0 ? `${next} of ${count}` : String(next)];
}

/** A seat's notes in the robot list and its badge ("ready", "thinking", "out", "forfeited", ""). A forfeited
 * robot (resigned, out of time or ejected) has the one badge and no note repeating it; a robot destroyed this
 * turn says how ("fell into a pit"), not "off the course". */
export function seatState(
  snap: Pick<Snapshot, "status" | "me" | "ruleset">, s: Seat, bot: BotState | undefined, destroyed?: ReadonlyMap<string, string>,
): { notes: string[]; badge: string } {
  const mine = snap.me?.seat === s.number;
  // Without lives (roborace) no robot is ever out: a destroyed one comes back at the end of the round.
  const out = !!bot && bot.lives <= 0 && rulesOf(snap).lives;
  const notes: string[] = [];
  if (bot && snap.status !== "lobby") {
    if (s.ejected) { /* the badge says it */ } else if (out) notes.push("out of the game");
    else if (!bot.at) notes.push(destroyed?.get(String(bot.id)) ?? "destroyed");
    else {
      // Only a robot still racing is virtual, rebooting or asking to reboot.
      if (bot.virtual) notes.push("virtual");
      if (bot.rebooting) notes.push("rebooting this turn");
      if (mine && snap.me?.reboot && snap.status !== "finished") notes.push("reboot requested");
      // classic: powered down this turn (the server plays its program), or last turn.
      if (bot.power_down_next) notes.push("powered down this turn");
      else if (bot.powered_down) notes.push("powered down last turn");
      if (mine && snap.me?.power_down && snap.status !== "finished") notes.push("power down next turn requested");
    }
  }
  return { notes, badge: seatBadge(snap, s, out && snap.status !== "lobby") };
}

/** "Arena: last bot alive wins", "Team play: Blue against Orange", a puzzle's goal and its turns; the seat
 * list's title. */
export function modeText(snap: Snapshot): SeatsMode {
  const parts: string[] = [];
  // A ruleset other than the default names itself first ("RoboRace · the larger card number acts first").
  const rules = rulesOf(snap);
  const named = rulesText(rules);
  if (named) parts.push(named);
  // Numbered cards decide who acts first, phase by phase: there is no priority order to list the robots in.
  const seatsTitle = rules.numbered ? "Robots" : "Robots in priority order";
  if (snap.mode === "arena") parts.push(snap.mode_text || "Arena: last bot alive wins");
  const score = modeScore(snap);
  if (snap.mode === "arena" && score) parts.push(score);
  if (snap.teams) parts.push("Team play: Blue against Orange");
  if (snap.mode === "puzzle" && snap.puzzle) {
    const p = snap.puzzle;
    parts.push(`Puzzle: ${p.goal_text}`);
    if (snap.status === "finished") {
      parts.push(`${snap.outcome ?? "over"} after ${p.turns_used ?? "?"} turn${p.turns_used === 1 ? "" : "s"}`);
    } else if (p.turn_limit && snap.status !== "lobby") parts.push(`turn ${snap.turn} of ${p.turn_limit}`);
    if (score && snap.status !== "finished") parts.push(score);
    if (p.players > 1) parts.push(`cooperative, ${p.players} players`);
  }
  return { text: parts.join(" · "), seatsTitle, title: snap.puzzle?.description ?? "" };
}

/** A robot's line in the seat list (outside the lobby): only what the ruleset has (roborace shows neither
 * damage nor lives). No robot: null. */
export function robotSeatView(
  snap: Snapshot, s: Seat, bots: ReadonlyMap<string, BotState>, destroyed?: ReadonlyMap<string, string>,
): SeatView | null {
  const bot = s.bot != null ? bots.get(String(s.bot)) : undefined;
  if (!bot) return null;
  const rules = rulesOf(snap);
  const { notes } = seatState(snap, s, bot, destroyed);
  const stats: Node[] = [];
  if (rules.hitPoints) {
    // fused: hit points left, "HP 7/10", instead of the damage.
    const hp = stat("HP", damageValue(rules, bot.damage).replace(/^HP /, ""), "stat-hp");
    hp.dataset.damage = String(bot.damage);
    stats.push(hp);
  } else if (rules.damage) stats.push(stat("damage", rules.named ? damageValue(rules, bot.damage) : String(bot.damage), "stat-damage"));
  if (rules.lives) stats.push(stat("lives", String(bot.lives), "stat-lives"));
  // A race's progress is its check points; an arena's is staying in it (a destroy or survive puzzle says its
  // count on the mode line instead).
  if (scoresCheckpoints(snap)) stats.push(stat(...checkpointStat(bot.next_checkpoint, checkpointCount(snap)), "stat-cp"));
  else if (snap.mode === "arena" && snap.status !== "lobby") stats.push(stat("arena", inPlay(bot) ? "still in" : "out", "stat-arena"));
  if (snap.modules?.length) {
    // 003 "Battery": the module, its charges (+n) and the battery, "Turbo +2 250".
    const text = moduleStatus(bot.module ?? null, bot.battery);
    const m = stat("module", text, "stat-module");
    m.dataset.module = bot.module?.type ?? "";
    m.dataset.charges = String(bot.module?.charges ?? 0);
    m.dataset.battery = String(bot.battery ?? "");
    m.title = bot.module
      ? `${moduleLabel(bot.module.type)} installed, ${bot.module.charges} charge(s); battery ${bot.battery ?? "?"}`
      : `No module installed; battery ${bot.battery ?? "?"}`;
    stats.push(m);
    const drone = [...bots.values()].find((b) => b.drone_of === bot.id && b.at);
    if (drone) stats.push(h("span", { class: "stat stat-drone" }, "drone on the course"));
  }
  if (rules.upgrades && Array.isArray(bot.upgrades) && bot.upgrades.length) {
    const up = stat("upgrades", bot.upgrades.map(upgradeLabel).join(", "), "stat-upgrades");
    up.dataset.upgrades = bot.upgrades.join(" ");
    stats.push(up);
  }
  if (typeof s.rating === "number" && !isComputer(s)) stats.push(stat("rating", String(s.rating), "stat-rating"));
  // Without lives (roborace) no robot is ever out: a destroyed one comes back at the end of the round.
  return { stats, notes, out: bot.lives <= 0 && rules.lives };
}
