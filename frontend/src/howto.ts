// The how-to-play page: every [data-howto-board="<name>"] gets its example board (from the page's
// #howto-examples JSON, games/how_to_play.py) drawn by the game's own board renderer: the course fragment,
// the robots, a dashed path to where robot 1 ends up (a faded robot there) and any shots; and every
// [data-chip] sample gets the chip's icon, as on the game screen.
import { Board, DIR_ANGLE, svgEl, TILE } from "./board";
import { chipIcon, chipLabel } from "./chips";
import type { Coord, Course, Dir } from "./types";
import { isCoord, isDir } from "./types";
import { RamAnimator } from "./rambots/animate";
import { RamBoard } from "./rambots/board";
import { cloneState } from "./rambots/model";
import { isColour, isRDir } from "./rambots/types";
import ramCss from "./rambots/rambots.css?inline";

/** Seat colours (the site's palette, roboracer/accounts/models.py PALETTE). */
const SEAT_COLORS = ["#d62828", "#1d4ed8", "#15803d", "#ca8a04", "#7c3aed", "#db2777", "#0891b2", "#ea580c"];

export interface ExampleBot { at: Coord; dir: Dir; seat: number; damage?: number; virtual?: boolean }
export interface Example extends Course {
  bots: ExampleBot[];
  path: Coord[];
  end: Dir | null;
  shots: [Coord, Coord][];
}

const centre = (c: Coord): [number, number] => [c[0] * TILE + TILE / 2, c[1] * TILE + TILE / 2];
/** Robots a little smaller than on the game screen, so the element under them shows. */
const BOT_SCALE = 0.72;

/** Where robot 1 ends up: the last square of the path, facing `end` (or as it started). */
export function endPose(ex: Example): { at: Coord; dir: Dir } | null {
  const first = ex.bots[0];
  if (!first || ex.path.length < 2 && !ex.end) return null;
  const at = ex.path.length ? ex.path[ex.path.length - 1] : first.at;
  return { at, dir: ex.end && isDir(ex.end) ? ex.end : first.dir };
}

export function drawExample(el: HTMLElement, ex: Example, label: string): Board {
  el.replaceChildren();
  const board = new Board(el);
  board.drawCourse(ex);
  board.describe(label);
  board.wrap.style.maxWidth = ""; // the page's CSS sizes example boards
  const bots = Array.isArray(ex.bots) ? ex.bots.filter((b) => isCoord(b.at) && isDir(b.dir)) : [];
  const path = Array.isArray(ex.path) ? ex.path.filter(isCoord) : [];
  if (path.length > 1) {
    const points = path.map((c) => centre(c).map((v) => v.toFixed(0)).join(",")).join(" ");
    const g = svgEl("g", { class: "howto-path" }, board.fx);
    svgEl("polyline", { points, fill: "none", stroke: "#111827", "stroke-width": 6, "stroke-dasharray": "14 10", "stroke-linecap": "round", opacity: ".75" }, g);
  }
  const end = endPose({ ...ex, bots, path });
  if (end && bots[0]) {
    const ghost = board.createBot("howto-end", SEAT_COLORS[0], String(bots[0].seat), `Robot ${bots[0].seat} ends here`);
    ghost.g.classList.add("howto-ghost");
    ghost.g.setAttribute("opacity", "0.35");
    board.poseBot(ghost, end.at[0], end.at[1], DIR_ANGLE[end.dir], BOT_SCALE);
    board.botStats(ghost, 3, 0);
    ghost.lives.parentElement?.setAttribute("visibility", "hidden");
  }
  bots.forEach((b, i) => {
    const color = SEAT_COLORS[(b.seat - 1) % SEAT_COLORS.length] ?? SEAT_COLORS[0];
    const shape = board.createBot(`howto-${i}`, color, String(b.seat), `Robot ${b.seat}`);
    if (b.virtual) {
      shape.g.classList.add("virtual");
      shape.g.setAttribute("opacity", "0.5");
    }
    board.poseBot(shape, b.at[0], b.at[1], DIR_ANGLE[b.dir], BOT_SCALE);
    board.botStats(shape, 3, b.damage ?? 0);
    shape.lives.parentElement?.setAttribute("visibility", "hidden"); // lives are not the point here
  });
  for (const shot of Array.isArray(ex.shots) ? ex.shots : []) {
    const [from, to] = shot;
    if (!isCoord(from) || !isCoord(to)) continue;
    const dir: Dir = to[0] > from[0] ? "E" : to[0] < from[0] ? "W" : to[1] > from[1] ? "S" : "N";
    // From the shooter's front to the target: the beam starts in the square ahead.
    const [dx, dy] = dir === "E" ? [1, 0] : dir === "W" ? [-1, 0] : dir === "S" ? [0, 1] : [0, -1];
    board.shot([from[0] + dx, from[1] + dy] as Coord, to, dir, 1, "bot", true);
  }
  return board;
}

function mount(): void {
  const data = document.getElementById("howto-examples");
  let examples: Record<string, Example> = {};
  try {
    examples = JSON.parse(data?.textContent ?? "{}") as Record<string, Example>;
  } catch {
    examples = {};
  }
  for (const el of document.querySelectorAll<HTMLElement>("[data-howto-board]")) {
    const ex = examples[el.dataset.howtoBoard ?? ""];
    if (ex) drawExample(el, ex, el.dataset.label ?? ex.name);
  }
  for (const el of document.querySelectorAll<HTMLElement>("[data-chip]")) {
    const chip = el.dataset.chip ?? "";
    el.replaceChildren(chipIcon(chip));
    el.setAttribute("title", chipLabel(chip));
  }
  document.getElementById("howto-root")?.setAttribute("data-drawn", "1");
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount, { once: true });
else mount();

// ---- RAMbots (kinds.ts): [data-rambots-board="<name>"] from the page's #howto-rambots JSON, drawn by the
// RAMbots board itself: the pieces, the stacks beside the board and a beam.

function mountRambots(): void {
  const data = document.getElementById("howto-rambots");
  let examples: Record<string, Record<string, unknown>> = {};
  try {
    examples = JSON.parse(data?.textContent ?? "{}") as Record<string, Record<string, unknown>>;
  } catch {
    examples = {};
  }
  const boards = document.querySelectorAll<HTMLElement>("[data-rambots-board]");
  if (!boards.length) return;
  if (!document.getElementById("rambots-styles")) {
    const style = document.createElement("style");
    style.id = "rambots-styles";
    style.textContent = ramCss;
    document.head.appendChild(style);
  }
  for (const el of boards) {
    const raw = examples[el.dataset.rambotsBoard ?? ""];
    if (!raw) continue;
    el.replaceChildren();
    const state = cloneState(raw);
    const players = (Array.isArray(raw.players) ? raw.players : []) as { id?: unknown; name?: unknown; seat_color?: unknown }[];
    const board = new RamBoard(el);
    const animator = new RamAnimator(board);
    const seats = players.map((p, i) => ({ number: i + 1, user: String(p.name ?? p.id), bot: String(p.id), color: String(p.seat_color ?? "#6b7280"), ready: false }));
    void animator.animate({ kind: "reset", state, seats, names: (id) => String(players.find((p) => String(p.id) === id)?.name ?? id) }, 0);
    board.renderStacks(state, (id) => String(players.find((p) => String(p.id) === id)?.name ?? id),
      (id) => String(players.find((p) => String(p.id) === id)?.seat_color ?? "#6b7280"), { id: null, rambots: null });
    const beam = raw.beam as { from?: unknown; dir?: unknown; at?: unknown; colour?: unknown } | undefined;
    if (beam && isCoord(beam.from) && isRDir(beam.dir) && isColour(beam.colour)) {
      board.beam(beam.from, beam.dir, isCoord(beam.at) ? beam.at : null, beam.colour);
    }
    board.describe(el.dataset.label ?? "RAMbots example");
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountRambots, { once: true });
else mountRambots();
