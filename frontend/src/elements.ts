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

/** Mirror shape + heading of a shot -> its new heading (missing: the shot passes). */
const MIRROR_TURN: Record<string, Dir> = {
  "/N": "E", "/E": "N", "/S": "W", "/W": "S",
  "\\N": "W", "\\W": "N", "\\S": "E", "\\E": "S",
  "-N": "S", "-S": "N", "|E": "W", "|W": "E",
};

export type Layer = "floor" | "beams" | "walls" | "fixtures";

export interface DrawContext {
  /** A <g> translated to square `at` in `layer`, with a <title> "`title` at (x,y)" for screen readers and hover. */
  tile(layer: Layer, at: Coord, cls: string, title: string): SVGGElement;
  /** The raw layer, in board coordinates (for things spanning squares, like beams). */
  layer(layer: Layer): SVGGElement;
  hasWall(x: number, y: number, side: Dir): boolean;
  inside(x: number, y: number): boolean;
  /** A shot leaving (x, y) toward `side` stops on that edge (curtain, shocker, closed sliding wall, one-way wall the wrong way, portal). */
  stopsShot?(x: number, y: number, side: Dir): boolean;
  /** An intact force field stands on (x, y): the drawn beam ends there. */
  covered?(x: number, y: number): boolean;
  /** The shape of the mirror on (x, y), if any: "/", "\\", "-" or "|". */
  mirror?(x: number, y: number): string | undefined;
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

const wallWeapon = (kind: "laser" | "blaster" | "repeller"): ElementDrawer => (ctx, raw) => {
  const e = need(isDir((raw as LaserElement).side), raw as LaserElement);
  const beams = kind === "repeller" ? 1 : Math.max(1, Math.min(3, Number(e.beams) || 1));
  const fire = OPPOSITE[e.side];
  // The beam covers the emitter's own square and runs until the first wall, shot-stopping edge, force
  // field or the board edge; mirrors turn it (as the engine's Turn.trace does).
  let [x, y] = e.at;
  let heading: Dir = fire;
  const [ax, ay] = SIDE_MID[e.side];
  const points: [number, number][] = [[e.at[0] * TILE + ax, e.at[1] * TILE + ay]];
  let stoppedInside = false;
  for (let guard = 0; guard < 1000; guard++) {
    const turned = MIRROR_TURN[`${ctx.mirror?.(x, y) ?? ""}${heading}`];
    if (turned) {
      heading = turned;
      points.push([x * TILE + 50, y * TILE + 50]);
    }
    const [dx, dy] = DIR_STEP[heading];
    if (ctx.hasWall(x, y, heading) || ctx.stopsShot?.(x, y, heading) || !ctx.inside(x + dx, y + dy)) break;
    x += dx; y += dy;
    if (ctx.covered?.(x, y)) { stoppedInside = true; break; }
  }
  const [bx, by] = SIDE_MID[heading];
  points.push(stoppedInside ? [x * TILE + 50, y * TILE + 50] : [x * TILE + bx, y * TILE + by]);
  const bg = svgEl("g", { class: "el el-beam" }, ctx.layer("beams"));
  // Inline style: the stylesheet's laser-beam colour would override presentation attributes.
  const extra: Attrs = kind === "blaster" ? { style: "stroke:#f97316;stroke-width:7" }
    : kind === "repeller" ? { style: "stroke:#16a34a;stroke-dasharray:12 10" } : {};
  const [fdx] = DIR_STEP[fire];
  for (let i = 0; i < beams; i++) {
    const off = points.length > 2 ? 0 : (i - (beams - 1) / 2) * 8; // a bent beam is drawn once
    if (points.length > 2 && i > 0) break;
    const ox = fdx === 0 ? off : 0, oy = fdx === 0 ? 0 : off;
    svgEl("polyline", { points: points.map(([px, py]) => `${px + ox},${py + oy}`).join(" "), fill: "none", class: "laser-beam", ...extra }, bg);
  }
  const what = kind === "laser" ? "Laser" : kind === "blaster" ? "Blaster (2 damage per beam, real robots only)"
    : "Repeller (pushes the first real robot one square, no damage)";
  const g = ctx.tile("fixtures", e.at, `el-${kind}`,
    `${what} on the ${DIR_NAME[e.side]} side firing ${DIR_NAME[fire]}` + (kind === "repeller" ? "" : `, ${beams} beam${beams > 1 ? "s" : ""}`));
  const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[e.side]} 50 50)` }, g);
  const fill: Attrs = kind === "blaster" ? { style: "fill:#c2410c" } : kind === "repeller" ? { style: "fill:#15803d" } : {};
  svgEl("path", { d: kind === "blaster" ? "M22 0h56v11q0 15-28 17q-28-2-28-17z" : "M28 0h44v9q0 13-22 15q-22-2-22-15z", class: "laser-emitter", ...fill }, inner);
  const pos: Record<Dir, [number, number]> = { N: [50, 17], S: [50, 95], E: [88, 56], W: [12, 56] };
  const [tx, ty] = pos[e.side];
  svgEl("text", { x: tx, y: ty, "text-anchor": "middle", class: "laser-count" }, g, kind === "repeller" ? "»" : String(beams));
};
const laser = wallWeapon("laser");


// ---------------- issue 6: every other element of the rules ----------------
// Styles are inline (fill/stroke attributes), so these need no stylesheet changes. Elements whose look
// changes during a race (teleporter numbers, broken mirrors, filled receptacles, broken tiles, force
// fields) carry data-at="x,y" so Board.markBoard can update them.

type Loose = CourseElement & { at: Coord; [key: string]: unknown };
const loose = (raw: CourseElement & { at: Coord }): Loose => raw as Loose;
const atKey = (at: Coord): string => `${at[0]},${at[1]}`;
const INK = "#1f2933";

/** Pit hole shared by pits, trapdoors, receptacles and rails over pits. */
function hole(g: SVGGElement, inset = 14): void {
  svgEl("rect", { x: inset, y: inset, width: 100 - 2 * inset, height: 100 - 2 * inset, rx: 6, fill: "#0b0f14", stroke: "#4b5563", "stroke-width": 3 }, g);
}

const screen: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-screen", "Screen: safe to cross, deadly to end a phase on");
  svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 4, fill: "#26303b", stroke: "#93a3b5", "stroke-width": 3 }, g);
  for (let i = 20; i < 100; i += 20) {
    svgEl("line", { x1: i, y1: 6, x2: i, y2: 94, stroke: "#93a3b5", "stroke-width": 2 }, g);
    svgEl("line", { x1: 6, y1: i, x2: 94, y2: i, stroke: "#93a3b5", "stroke-width": 2 }, g);
  }
};

const damagedTile: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-damaged_tile", "Damaged tile: breaks into a screen when a robot leaves it");
  g.dataset.at = atKey(e.at);
  svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 4, fill: "#a89f91", stroke: "#5b5248", "stroke-width": 3, class: "tile-face" }, g);
  svgEl("path", { d: "M10 30L35 42L30 60L55 70L62 92M35 42L62 30L70 8M55 70L88 62", fill: "none", stroke: "#3a3026", "stroke-width": 4 }, g);
};

const receptacle: ElementDrawer = (ctx, raw) => {
  const e = loose(raw);
  const covered = e.covered === true;
  const g = ctx.tile("floor", e.at, "el-receptacle",
    covered ? "Covered receptacle: plain floor" : "Receptacle: the first robot onto it falls in and fills it");
  g.dataset.at = atKey(e.at);
  svgEl("circle", { cx: 50, cy: 50, r: 40, fill: "#6b7280", stroke: INK, "stroke-width": 3 }, g);
  svgEl("circle", { cx: 50, cy: 50, r: 30, fill: covered ? "#9ca3af" : "#0b0f14", class: "receptacle-hole" }, g);
  if (covered) {
    svgEl("path", { d: "M28 50h44M50 28v44", stroke: "#4b5563", "stroke-width": 5 }, g);
  }
};

const rail: ElementDrawer = (ctx, raw) => {
  const e = loose(raw);
  const sides = (Array.isArray(e.sides) ? e.sides : []).filter(isDir);
  const overPit = e.over_pit === true;
  const shape = sides.length === 4 ? "Cross rail" : sides.length === 2 && OPPOSITE[sides[0]] === sides[1] ? "Straight rail" : "Corner rail";
  const g = ctx.tile("floor", e.at, "el-rail",
    `${shape} to the ${sides.map((d) => DIR_NAME[d]).join(", ")}${overPit ? ", over a pit: leave or enter only along it" : ""}`);
  if (overPit) hole(g, 4);
  for (const side of sides) {
    const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[side]} 50 50)` }, g);
    for (let y = 8; y < 50; y += 14) svgEl("rect", { x: 30, y, width: 40, height: 6, fill: "#8b5a2b" }, inner);
    svgEl("line", { x1: 38, y1: 0, x2: 38, y2: 56, stroke: "#9ca3af", "stroke-width": 5 }, inner);
    svgEl("line", { x1: 62, y1: 0, x2: 62, y2: 56, stroke: "#9ca3af", "stroke-width": 5 }, inner);
  }
};

const trapdoor: ElementDrawer = (ctx, raw) => {
  const e = loose(raw);
  const ph = phasesText(e.phases);
  const g = ctx.tile("floor", e.at, "el-trapdoor", `Trapdoor: closed (safe) in phases ${ph}, a pit in the others`);
  hole(g, 6);
  svgEl("rect", { x: 10, y: 10, width: 38, height: 80, fill: "#7c6a4f", stroke: INK, "stroke-width": 2 }, g);
  svgEl("rect", { x: 52, y: 10, width: 38, height: 80, fill: "#7c6a4f", stroke: INK, "stroke-width": 2 }, g);
  svgEl("rect", { x: 22, y: 36, width: 56, height: 28, rx: 5, fill: "#f8fafc" }, g);
  svgEl("text", { x: 50, y: 57, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: INK }, g, ph);
};

const chipChanger = (kind: "inverter" | "doubler"): ElementDrawer => (ctx, e) => {
  const inverter = kind === "inverter";
  const g = ctx.tile("floor", e.at, `el-${kind}`, inverter
    ? "Inverter: a chip played here is reversed (moves go back, left and right swap)"
    : "Doubler: a chip played here moves twice as far");
  svgEl("rect", { x: 8, y: 8, width: 84, height: 84, rx: 14, fill: inverter ? "#7c3aed" : "#0e7490", stroke: INK, "stroke-width": 3 }, g);
  svgEl("text", { x: 50, y: 63, "text-anchor": "middle", "font-size": 38, "font-weight": 700, fill: "#fff" }, g, inverter ? "⇅" : "×2");
};

const vent: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-vent", "Vent: 1 damage at the end of a phase; crossing it with one chip flies");
  svgEl("circle", { cx: 50, cy: 50, r: 42, fill: "#451a03", stroke: "#f97316", "stroke-width": 4 }, g);
  for (let a = 0; a < 360; a += 45) {
    svgEl("rect", { x: 46, y: 14, width: 8, height: 24, rx: 3, fill: "#fb923c", transform: `rotate(${a} 50 50)` }, g);
  }
  svgEl("circle", { cx: 50, cy: 50, r: 9, fill: "#fdba74" }, g);
};

const magnet: ElementDrawer = (ctx, raw) => {
  const e = loose(raw);
  const dir = isDir(e.dir) ? e.dir : "N";
  const g = ctx.tile("floor", e.at, "el-magnet", `Magnet pulling ${DIR_NAME[dir]}: robots on it face that way and can't turn`);
  svgEl("rect", { x: 6, y: 6, width: 88, height: 88, rx: 8, fill: "#e5e7eb", stroke: INK, "stroke-width": 2 }, g);
  const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[dir]} 50 50)` }, g);
  svgEl("path", { d: "M28 80V46a22 22 0 0 1 44 0v34h-14V46a8 8 0 0 0-16 0v34z", fill: "#dc2626", stroke: INK, "stroke-width": 2 }, inner);
  svgEl("rect", { x: 28, y: 70, width: 14, height: 10, fill: "#f8fafc" }, inner);
  svgEl("rect", { x: 58, y: 70, width: 14, height: 10, fill: "#f8fafc" }, inner);
  svgEl("path", { d: "M50 4l10 12H40z", fill: INK }, inner);
};

const virtualizer: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-virtualizer", "Virtualizer: robots on it turn virtual until the end of the turn");
  svgEl("rect", { x: 10, y: 10, width: 80, height: 80, rx: 12, fill: "#ede9fe", stroke: "#7c3aed", "stroke-width": 4, "stroke-dasharray": "10 7" }, g);
  svgEl("text", { x: 50, y: 64, "text-anchor": "middle", "font-size": 40, "font-weight": 700, fill: "#7c3aed" }, g, "V");
};

const liquid = (kind: "water" | "oil"): ElementDrawer => (ctx, e) => {
  const water = kind === "water";
  const g = ctx.tile("beams", e.at, `el-${kind}`, water
    ? "Water: a chip played here moves at most one square"
    : "Oil: a robot stopping on oil slides on until it leaves it");
  svgEl("rect", { x: 2, y: 2, width: 96, height: 96, rx: 10, fill: water ? "#38bdf8" : "#111827", "fill-opacity": water ? 0.35 : 0.45 }, g);
  const wave = water ? "#0369a1" : "#a78bfa";
  for (const y of [30, 55, 80]) {
    svgEl("path", { d: `M12 ${y}q10-10 19 0t19 0t19 0t19 0`, fill: "none", stroke: wave, "stroke-width": 4, "stroke-opacity": 0.8 }, g);
  }
};

const teleporter: ElementDrawer = (ctx, raw) => {
  const e = loose(raw);
  const colour = typeof e.colour === "string" ? e.colour : "grey";
  const g = ctx.tile("fixtures", e.at, "el-teleporter", `Teleporter (${colour}): sends a robot that moved onto it to the next ${colour} one`);
  g.dataset.at = atKey(e.at);
  g.dataset.colour = colour;
  svgEl("circle", { cx: 50, cy: 54, r: 34, fill: "none", stroke: colour, "stroke-width": 10, "stroke-opacity": 0.85 }, g);
  svgEl("circle", { cx: 50, cy: 54, r: 20, fill: colour, "fill-opacity": 0.35, stroke: INK, "stroke-width": 2 }, g);
  // Series (green, upper left) and destination (red, upper right): empty until revealed (Board.markBoard).
  svgEl("text", { x: 6, y: 22, "font-size": 22, "font-weight": 700, fill: "#15803d", class: "tp-series" }, g, "");
  svgEl("text", { x: 94, y: 22, "text-anchor": "end", "font-size": 22, "font-weight": 700, fill: "#b91c1c", class: "tp-dest" }, g, "");
};

const forceField: ElementDrawer = (ctx, raw) => {
  const e = loose(raw);
  const recharging = e.recharging === true;
  const strength = Number(e.strength) || 1;
  const g = ctx.tile("fixtures", e.at, "el-force_field", recharging
    ? "Recharging force field: one shot takes it down until the end of the next phase"
    : `Force field: blocks robots and shots until shot ${strength} time${strength > 1 ? "s" : ""} by robots`);
  g.dataset.at = atKey(e.at);
  const field = svgEl("g", { class: "ff-body" }, g);
  svgEl("rect", { x: 3, y: 3, width: 94, height: 94, rx: 6, fill: "#22d3ee", "fill-opacity": 0.3, stroke: "#0891b2", "stroke-width": 4 }, field);
  for (const [x, y] of [[30, 30], [70, 30], [50, 55], [30, 80], [70, 80]]) {
    svgEl("path", { d: `M${x - 10} ${y}l5-9h10l5 9l-5 9h-10z`, fill: "none", stroke: "#0e7490", "stroke-width": 2 }, field);
  }
  svgEl("text", { x: 94, y: 94, "text-anchor": "end", "font-size": 20, "font-weight": 700, fill: "#0e7490", class: "ff-label" }, g,
    recharging ? "↻" : String(strength));
};

const mirror: ElementDrawer = (ctx, raw) => {
  const e = loose(raw);
  const shape = typeof e.shape === "string" ? e.shape : "/";
  const lines: Record<string, [number, number, number, number]> = {
    "/": [14, 86, 86, 14], "\\": [14, 14, 86, 86], "-": [8, 50, 92, 50], "|": [50, 8, 50, 92],
  };
  const [x1, y1, x2, y2] = lines[shape] ?? lines["/"];
  const diagonal = shape === "/" || shape === "\\";
  const g = ctx.tile("fixtures", e.at, "el-mirror", diagonal
    ? "Diagonal mirror: turns shots 90 degrees; blocks virtual robots; a real robot breaks it (Bad Luck)"
    : "Flat mirror: sends shots hitting its face back, shots along it pass; blocks virtual robots");
  g.dataset.at = atKey(e.at);
  svgEl("line", { x1, y1, x2, y2, stroke: "#475569", "stroke-width": 14, "stroke-linecap": "round" }, g);
  svgEl("line", { x1, y1, x2, y2, stroke: "#e2e8f0", "stroke-width": 7, "stroke-linecap": "round", class: "mirror-glass" }, g);
};

const portal: ElementDrawer = (ctx, raw) => {
  const e = need(isDir(loose(raw).side), loose(raw));
  const side = e.side as Dir;
  const red = e.colour === "red";
  const g = ctx.tile("fixtures", e.at, "el-portal",
    `${red ? "Red" : "Blue"} portal on the ${DIR_NAME[side]} side: leads to the portal facing it${red ? "; shots pass too" : "; stops shots"}`);
  const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[side]} 50 50)` }, g);
  svgEl("ellipse", { cx: 50, cy: 8, rx: 40, ry: 10, fill: red ? "#ef4444" : "#3b82f6", "fill-opacity": 0.55, stroke: red ? "#991b1b" : "#1e3a8a", "stroke-width": 4 }, inner);
  svgEl("ellipse", { cx: 50, cy: 8, rx: 24, ry: 5, fill: "#f8fafc", "fill-opacity": 0.8 }, inner);
};

/** Edge elements: drawn on side `side` of their square like a wall. */
const edgeLine = (e: Loose): [number, number, number, number] => {
  const lines: Record<Dir, [number, number, number, number]> = {
    N: [0, 0, 100, 0], E: [100, 0, 100, 100], S: [0, 100, 100, 100], W: [0, 0, 0, 100],
  };
  return lines[e.side as Dir];
};

const oneWayWall: ElementDrawer = (ctx, raw) => {
  const e = need(isDir(loose(raw).side) && isDir(loose(raw).dir), loose(raw));
  const dir = e.dir as Dir;
  const g = ctx.tile("walls", e.at, "el-one_way_wall", `One-way wall on the ${DIR_NAME[e.side as Dir]} side: robots and shots cross only going ${DIR_NAME[dir]}`);
  const [x1, y1, x2, y2] = edgeLine(e);
  svgEl("line", { x1, y1, x2, y2, stroke: "#f59e0b", "stroke-width": 10, "stroke-dasharray": "14 8" }, g);
  const [mx, my] = SIDE_MID[e.side as Dir];
  svgEl("path", { d: "M0 -14l12 14h-8v10h-8v-10h-8z", fill: INK, transform: `translate(${mx} ${my}) rotate(${DIR_ANGLE[dir]})` }, g);
};

const slidingWall: ElementDrawer = (ctx, raw) => {
  const e = need(isDir(loose(raw).side), loose(raw));
  const ph = phasesText(e.open);
  const g = ctx.tile("walls", e.at, "el-sliding_wall", `Sliding wall on the ${DIR_NAME[e.side as Dir]} side, open in phases ${ph}`);
  const [x1, y1, x2, y2] = edgeLine(e);
  svgEl("line", { x1, y1, x2, y2, stroke: INK, "stroke-width": 12 }, g);
  svgEl("line", { x1, y1, x2, y2, stroke: "#facc15", "stroke-width": 6, "stroke-dasharray": "10 10" }, g);
  const pos: Record<Dir, [number, number]> = { N: [50, 24], S: [50, 90], E: [80, 56], W: [20, 56] };
  const [tx, ty] = pos[e.side as Dir];
  svgEl("text", { x: tx, y: ty, "text-anchor": "middle", "font-size": 16, "font-weight": 700, fill: INK }, g, `open ${ph}`);
};

const edgeKind = (kind: "curtain" | "window" | "shocker"): ElementDrawer => (ctx, raw) => {
  const e = need(isDir(loose(raw).side), loose(raw));
  const titles = {
    curtain: "Curtain: robots pass, shots are blocked",
    window: "Window: shots pass, robots are blocked",
    shocker: "Shocker: blocks robots and shots; 1 damage for each try to cross",
  };
  const g = ctx.tile("walls", e.at, `el-${kind}`, `${titles[kind]} (${DIR_NAME[e.side as Dir]} side)`);
  const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[e.side as Dir]} 50 50)` }, g);
  if (kind === "curtain") {
    svgEl("path", { d: "M0 3q6 8 12 0t13 0t12 0t13 0t12 0t13 0t12 0t13 0", fill: "none", stroke: "#be185d", "stroke-width": 6 }, inner);
  } else if (kind === "window") {
    svgEl("line", { x1: 0, y1: 0, x2: 100, y2: 0, stroke: "#0c4a6e", "stroke-width": 10 }, inner);
    svgEl("line", { x1: 4, y1: 0, x2: 96, y2: 0, stroke: "#bae6fd", "stroke-width": 5 }, inner);
  } else {
    svgEl("line", { x1: 0, y1: 0, x2: 100, y2: 0, stroke: INK, "stroke-width": 10 }, inner);
    svgEl("path", { d: "M2 2l12 10l12-10l12 10l12-10l12 10l12-10l12 10l12-10", fill: "none", stroke: "#facc15", "stroke-width": 5 }, inner);
  }
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
  blaster: "Wall blaster: 2 damage per beam to real robots",
  repeller: "Wall repeller: pushes the first real robot one square, no damage",
  screen: "Screen: safe to cross; a robot ending a phase on it is destroyed",
  damaged_tile: "Damaged tile: breaks into a screen once a robot leaves it",
  receptacle: "Receptacle: the first robot onto it falls in and fills it (covered: floor)",
  rail: "Rails: turn chips move a robot along them; over a pit, leave only along the rail",
  trapdoor: "Trapdoor: closed (safe) in the phases shown, a pit otherwise",
  inverter: "Inverter: a chip played here is reversed",
  doubler: "Doubler: a chip played here moves twice as far",
  vent: "Vent: 1 damage at the end of a phase; crossing one with a chip flies",
  magnet: "Magnet: robots on it face its way, can't turn, move only its way",
  virtualizer: "Virtualizer: robots on it turn virtual",
  water: "Water: a chip played here moves at most one square",
  oil: "Oil: a robot stopping on oil slides on",
  teleporter: "Teleporter: to the next of its colour; green = its number, red = where it leads (shown once used)",
  force_field: "Force field: blocks until shot down (number: shots needed; ↻ recharges)",
  mirror: "Mirror: reflects shots; a real robot breaks it and gets Bad Luck",
  portal: "Portal: leads to the portal facing it (red ones let shots through)",
  one_way_wall: "One-way wall: crossed only the way of the arrow",
  sliding_wall: "Sliding wall: open in the phases shown",
  curtain: "Curtain: stops shots, not robots",
  window: "Window: stops robots, not shots",
  shocker: "Shocker: blocks; 1 damage for each try to cross",
};

/** The registry: element type → drawing function. */
export const ELEMENTS: Record<string, ElementDrawer> = {
  floor, wall, pit, start, checkpoint, repair, belt, pusher, turntable, crusher, laser,
  blaster: wallWeapon("blaster"), repeller: wallWeapon("repeller"),
  screen, damaged_tile: damagedTile, receptacle, rail, trapdoor,
  inverter: chipChanger("inverter"), doubler: chipChanger("doubler"), vent, magnet, virtualizer,
  water: liquid("water"), oil: liquid("oil"), teleporter, force_field: forceField, mirror, portal,
  one_way_wall: oneWayWall, sliding_wall: slidingWall,
  curtain: edgeKind("curtain"), window: edgeKind("window"), shocker: edgeKind("shocker"),
};

/** A neutral marker for a type this client cannot draw (or a malformed element); never an error. */
export const unknownElement: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("fixtures", e.at, "el-unknown", `Unknown element "${String(e.type)}"`);
  svgEl("circle", { cx: 84, cy: 16, r: 11 }, g);
  svgEl("text", { x: 84, y: 21, "text-anchor": "middle" }, g, "?");
};

/** One element drawn by the registry on a lone square at [0, 0] inside `svg`: the icons of the legend and
 * of the course editor's palette. */
export function drawSample(svg: SVGSVGElement, sample: CourseElement): void {
  const layers = {} as Record<Layer, SVGGElement>;
  for (const name of ["floor", "beams", "walls", "fixtures"] as Layer[]) layers[name] = svgEl("g", {}, svg);
  const ctx: DrawContext = {
    tile: (layer, _at, cls) => svgEl("g", { class: `el ${cls}` }, layers[layer]),
    layer: (layer) => layers[layer],
    hasWall: () => false,
    inside: (x, y) => x === 0 && y === 0,
  };
  drawElement(ctx, { ...sample, at: [0, 0] } as CourseElement);
}

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
