// How each course element is drawn. One small function per element type, registered in
// ELEMENTS: a new element type is one function and one line in that table. Each function draws
// into the layer it picks (floor under everything, beams, walls, fixtures on top) in tile-local
// coordinates (0..100 per square) through the DrawContext.
import type {
  BeltElement, CheckpointElement, Coord, CourseElement, CrusherElement, Dir, LaserElement,
  PusherElement, RepairElement, StartElement, TurntableElement, WallElement,
} from "./types";
import { isCoord, isDir } from "./types";

export const TILE = 100;
const SVG_NS = "http://www.w3.org/2000/svg";

type Attrs = Record<string, string | number>;

export function svgEl<K extends keyof SVGElementTagNameMap>(
  tag: K, attrs: Attrs = {}, parent?: Element, text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

export const DIR_ANGLE: Record<Dir, number> = { N: 0, E: 90, S: 180, W: 270 };
export const DIR_STEP: Record<Dir, [number, number]> = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
export const OPPOSITE: Record<Dir, Dir> = { N: "S", E: "W", S: "N", W: "E" };
export const DIR_NAME: Record<Dir, string> = { N: "north", E: "east", S: "south", W: "west" };
/** Midpoint of a tile side, in tile-local coordinates. */
export const SIDE_MID: Record<Dir, [number, number]> = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };

export type Layer = "floor" | "beams" | "walls" | "fixtures";

export interface DrawContext {
  /** A <g> translated to square `at` in `layer`, with a <title> "`title` at (x,y)" for screen readers and hover. */
  tile(layer: Layer, at: Coord, cls: string, title: string): SVGGElement;
  /** The raw layer, in board coordinates (for things spanning squares, like beams). */
  layer(layer: Layer): SVGGElement;
  hasWall(x: number, y: number, side: Dir): boolean;
  inside(x: number, y: number): boolean;
}

export type ElementDrawer = (ctx: DrawContext, e: CourseElement & { at: Coord }) => void;

function phasesText(phases: unknown): string {
  return Array.isArray(phases) ? phases.join("·") : "";
}

function need<T>(ok: boolean, value: T): T {
  if (!ok) throw new Error("malformed element");
  return value;
}

const floor: ElementDrawer = () => undefined; // plain floor: the checkered tile is already there

const wall: ElementDrawer = (ctx, raw) => {
  const e = need(isDir((raw as WallElement).side), raw as WallElement);
  const g = ctx.tile("walls", e.at, "el-wall", `Wall on the ${DIR_NAME[e.side]} side`);
  const lines: Record<Dir, [number, number, number, number]> = {
    N: [0, 0, 100, 0], E: [100, 0, 100, 100], S: [0, 100, 100, 100], W: [0, 0, 0, 100],
  };
  const [x1, y1, x2, y2] = lines[e.side];
  svgEl("line", { x1, y1, x2, y2, class: "wall-outer" }, g);
  svgEl("line", { x1, y1, x2, y2, class: "wall-inner" }, g);
};

const pit: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-pit", "Pit");
  svgEl("rect", { x: 5, y: 5, width: 90, height: 90, rx: 6, class: "pit-rim" }, g);
  svgEl("rect", { x: 14, y: 14, width: 72, height: 72, rx: 4, class: "pit-hole" }, g);
};

const start: ElementDrawer = (ctx, raw) => {
  const e = raw as StartElement;
  const g = ctx.tile("floor", e.at, "el-start", `Start ${e.number}${isDir(e.dir) ? `, facing ${DIR_NAME[e.dir]}` : ""}`);
  svgEl("rect", { x: 12, y: 12, width: 76, height: 76, rx: 10, class: "start-pad" }, g);
  if (isDir(e.dir)) {
    svgEl("path", { d: "M50 16l10 12H40z", class: "start-arrow", transform: `rotate(${DIR_ANGLE[e.dir]} 50 50)` }, g);
  }
  svgEl("text", { x: 50, y: 66, "text-anchor": "middle", class: "start-num" }, g, String(e.number));
};

// Check points: the number sits in the upper right corner on a badge whose colour the board sets
// (class cp-mine / cp-leader / cp-other, see Board.markCheckpoints).
const checkpoint: ElementDrawer = (ctx, raw) => {
  const e = raw as CheckpointElement;
  const g = ctx.tile("floor", e.at, "el-checkpoint cp-other", `Check point ${e.number}`);
  g.dataset.checkpoint = String(e.number);
  svgEl("circle", { cx: 46, cy: 54, r: 34, class: "cp-base" }, g);
  svgEl("line", { x1: 32, y1: 26, x2: 32, y2: 82, class: "cp-pole" }, g);
  svgEl("path", { d: "M34 28h30l-7 10 7 10H34z", class: "cp-flag" }, g);
  svgEl("rect", { x: 62, y: 4, width: 34, height: 30, rx: 6, class: "cp-badge" }, g);
  svgEl("text", { x: 79, y: 27, "text-anchor": "middle", class: "cp-num" }, g, String(e.number));
};

const repair: ElementDrawer = (ctx, raw) => {
  const e = raw as RepairElement;
  const amount = Number(e.amount) || 1;
  const g = ctx.tile("floor", e.at, `el-repair repair-${amount}`, `Repair site, repairs ${amount}`);
  svgEl("circle", { cx: 50, cy: 50, r: 40, class: "repair-base" }, g);
  svgEl("path", { d: "M34 66L58 42", class: "repair-handle" }, g);
  svgEl("path", { d: "M56 28a14 14 0 1 0 16 16l-8-2-6-6z", class: "repair-jaw" }, g);
  if (amount > 1) svgEl("circle", { cx: 50, cy: 50, r: 46, class: "repair-ring" }, g);
  svgEl("text", { x: 30, y: 40, "text-anchor": "middle", class: "repair-amt" }, g, `+${amount}`);
};

const belt: ElementDrawer = (ctx, raw) => {
  const e = need(isDir((raw as BeltElement).dir), raw as BeltElement);
  const speed = Number(e.speed) || 1;
  const curves = (Array.isArray(e.curves_from) ? e.curves_from : []).filter(isDir);
  const title = `Belt moving ${DIR_NAME[e.dir]}, speed ${speed}` +
    (curves.length ? `, turning bots that come in from the ${curves.map((d) => DIR_NAME[d]).join(" and ")}` : "");
  const g = ctx.tile("floor", e.at, `el-belt belt-speed-${Math.min(speed, 5)}`, title);
  svgEl("rect", { x: 3, y: 3, width: 94, height: 94, rx: 4, class: "belt-bed" }, g);
  for (const from of curves) {
    const [sx, sy] = SIDE_MID[from];
    const [ex, ey] = SIDE_MID[e.dir];
    svgEl("path", { d: `M${sx} ${sy}Q50 50 ${ex} ${ey}`, class: "belt-curve" }, g);
  }
  const chevrons = speed >= 5 ? 4 : Math.max(1, Math.min(3, speed));
  const arrows = svgEl("g", { transform: `rotate(${DIR_ANGLE[e.dir]} 50 50)` }, g);
  const gap = 15;
  const top = 50 - ((chevrons - 1) * gap) / 2 - 8;
  for (let i = 0; i < chevrons; i++) {
    const y = top + i * gap;
    svgEl("path", { d: `M30 ${y + 18}L50 ${y}L70 ${y + 18}`, class: "belt-chevron" }, arrows);
  }
  svgEl("text", { x: 92, y: 93, "text-anchor": "end", class: "belt-speed" }, g, String(speed));
  if (curves.length) svgEl("text", { x: 8, y: 93, class: "belt-speed" }, g, "↻");
};

const pusher: ElementDrawer = (ctx, raw) => {
  const e = need(isDir((raw as PusherElement).side), raw as PusherElement);
  const ph = phasesText(e.phases);
  const g = ctx.tile("fixtures", e.at, "el-pusher",
    `Pusher on the ${DIR_NAME[e.side]} side, pushes ${DIR_NAME[OPPOSITE[e.side]]} in phases ${ph}`);
  const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[e.side]} 50 50)` }, g);
  // Drawn as if mounted on the north side, then rotated.
  svgEl("rect", { x: 16, y: 3, width: 68, height: 10, rx: 2, class: "pusher-base" }, inner);
  svgEl("rect", { x: 44, y: 12, width: 12, height: 10, class: "pusher-rod" }, inner);
  svgEl("rect", { x: 26, y: 21, width: 48, height: 9, rx: 3, class: "pusher-plate" }, inner);
  svgEl("path", { d: "M42 33h16l-8 9z", class: "pusher-arrow" }, inner);
  const pos: Record<Dir, [number, number, string]> = {
    N: [50, 60, "middle"], S: [50, 48, "middle"], E: [54, 56, "end"], W: [46, 56, "start"],
  };
  const [tx, ty, anchor] = pos[e.side];
  svgEl("text", { x: tx, y: ty, "text-anchor": anchor, class: "fixture-label pusher-phases" }, g, ph);
};

const turntable: ElementDrawer = (ctx, raw) => {
  const e = raw as TurntableElement;
  const left = e.rotation === "L";
  const g = ctx.tile("floor", e.at, `el-turntable tt-${left ? "left" : "right"}`,
    `Turntable, turns ${left ? "left (counter-clockwise)" : "right (clockwise)"}`);
  svgEl("circle", { cx: 50, cy: 50, r: 38, class: "tt-base" }, g);
  const arc = svgEl("g", left ? { transform: "translate(100 0) scale(-1 1)" } : {}, g);
  // Clockwise arc from 12 o'clock round to 9 o'clock, with an arrow head at the end.
  svgEl("path", { d: "M50 24A26 26 0 1 1 24 50", class: "tt-arc" }, arc);
  svgEl("path", { d: "M14 44L24 56L34 44z", class: "tt-head" }, arc);
  svgEl("text", { x: 50, y: 58, "text-anchor": "middle", class: "tt-label" }, g, left ? "L" : "R");
};

const crusher: ElementDrawer = (ctx, raw) => {
  const e = raw as CrusherElement;
  const ph = phasesText(e.phases);
  const g = ctx.tile("fixtures", e.at, "el-crusher", `Crusher, crushes in phases ${ph}`);
  const teeth = (y: number, d: number): string => {
    let p = `M6 ${y}`;
    for (let x = 6; x < 94; x += 11) p += `L${x + 5.5} ${y + d}L${x + 11} ${y}`;
    return p + "z";
  };
  svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 4, class: "crusher-frame" }, g);
  svgEl("path", { d: teeth(6, 18), class: "crusher-teeth" }, g);
  svgEl("path", { d: teeth(94, -18), class: "crusher-teeth" }, g);
  // One dot per phase, red when the crusher is active in it (as 003 draws them).
  const active = new Set(Array.isArray(e.phases) ? e.phases.map(Number) : []);
  for (let p = 1; p <= 5; p++) {
    svgEl("circle", { cx: 14 + (p - 1) * 18, cy: 50, r: 7, class: active.has(p) ? "crusher-dot on" : "crusher-dot" }, g);
  }
  svgEl("text", { x: 50, y: 76, "text-anchor": "middle", class: "fixture-label" }, g, ph);
};

const laser: ElementDrawer = (ctx, raw) => {
  const e = need(isDir((raw as LaserElement).side), raw as LaserElement);
  const beams = Math.max(1, Math.min(3, Number(e.beams) || 1));
  const fire = OPPOSITE[e.side];
  // The beam covers the emitter's own square and runs until the first wall or the board edge.
  let [x, y] = e.at;
  const [dx, dy] = DIR_STEP[fire];
  for (let guard = 0; guard < 1000; guard++) {
    if (ctx.hasWall(x, y, fire) || !ctx.inside(x + dx, y + dy)) break;
    x += dx; y += dy;
  }
  const [ax, ay] = SIDE_MID[e.side];
  const [bx, by] = SIDE_MID[fire];
  const x1 = e.at[0] * TILE + ax, y1 = e.at[1] * TILE + ay;
  const x2 = x * TILE + bx, y2 = y * TILE + by;
  const bg = svgEl("g", { class: "el el-beam" }, ctx.layer("beams"));
  for (let i = 0; i < beams; i++) {
    const off = (i - (beams - 1) / 2) * 8;
    const ox = dx === 0 ? off : 0, oy = dy === 0 ? off : 0;
    svgEl("line", { x1: x1 + ox, y1: y1 + oy, x2: x2 + ox, y2: y2 + oy, class: "laser-beam" }, bg);
  }
  const g = ctx.tile("fixtures", e.at, "el-laser",
    `Laser on the ${DIR_NAME[e.side]} side firing ${DIR_NAME[fire]}, ${beams} beam${beams > 1 ? "s" : ""}`);
  const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[e.side]} 50 50)` }, g);
  svgEl("path", { d: "M28 0h44v9q0 13-22 15q-22-2-22-15z", class: "laser-emitter" }, inner);
  const pos: Record<Dir, [number, number]> = { N: [50, 17], S: [50, 95], E: [88, 56], W: [12, 56] };
  const [tx, ty] = pos[e.side];
  svgEl("text", { x: tx, y: ty, "text-anchor": "middle", class: "laser-count" }, g, String(beams));
};

/** What each element means, for the legend (in this order). */
export const LEGEND: Record<string, string> = {
  start: "Start: the number is the seat, the arrow the first heading",
  checkpoint: "Check point, tagged in order: green = your next, black = the leading opponent's next, red = others",
  pit: "Pit: a robot that falls in is destroyed",
  wall: "Wall: blocks moves and shots",
  belt: "Belt: arrows show the way, the number its speed (1, 2, 3, 5); ↻ marks a turning belt",
  pusher: "Pusher: pushes a robot away from its side in the phases shown",
  turntable: "Turntable: turns a robot left (L) or right (R) each phase",
  crusher: "Crusher: 10 damage in the phases shown (red dots)",
  laser: "Wall laser: fires away from its side; the number is its beams",
  repair: "Repair site: repairs 1 or 2 damage at the end of a turn",
};

/** The registry: element type → drawing function. */
export const ELEMENTS: Record<string, ElementDrawer> = {
  floor, wall, pit, start, checkpoint, repair, belt, pusher, turntable, crusher, laser,
};

/** A neutral marker for a type this client cannot draw (or a malformed element); never an error. */
export const unknownElement: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("fixtures", e.at, "el-unknown", `Unknown element "${String(e.type)}"`);
  svgEl("circle", { cx: 84, cy: 16, r: 11 }, g);
  svgEl("text", { x: 84, y: 21, "text-anchor": "middle" }, g, "?");
};

export function drawElement(ctx: DrawContext, e: CourseElement): void {
  if (!e || typeof e !== "object" || !isCoord(e.at)) return; // nothing to place
  const at = e.at;
  const draw = Object.prototype.hasOwnProperty.call(ELEMENTS, e.type) ? ELEMENTS[e.type] : unknownElement;
  try {
    draw(ctx, { ...e, at });
  } catch {
    unknownElement(ctx, { ...e, at });
  }
}
