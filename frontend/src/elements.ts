// How each course element is drawn. One small function per element type (issue 6's in elements-rules.ts,
// the drawing kit in drawing.ts), registered in
// ELEMENTS: a new element type is one function and one line in that table. Each function draws
// into the layer it picks (floor under everything, beams, walls, fixtures on top) in tile-local
// coordinates (0..100 per square) through the DrawContext.
import type {
  BeltElement, CheckpointElement, CourseElement, CrusherElement, Dir, LaserElement,
  PusherElement, RepairElement, StartElement, TurntableElement, WallElement,
} from "./types";
import { isCoord, isDir } from "./types";
import {
  DIR_ANGLE, DIR_NAME, DIR_STEP, MIRROR_TURN, need, OPPOSITE, phasesText, SIDE_MID, svgEl, TILE, type Attrs, type DrawContext,
  type ElementDrawer, type Layer,
} from "./drawing";
import {
  chipChanger, damagedTile, edgeKind, forceField, liquid, magnet, mirror, oneWayWall, portal, rail, receptacle, screen,
  slidingWall, teleporter, trapdoor, vent, virtualizer,
} from "./elements-rules";
export { DIR_ANGLE, DIR_NAME, DIR_STEP, OPPOSITE, SIDE_MID, svgEl, TILE, type DrawContext, type ElementDrawer, type Layer } from "./drawing";

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

/** An upgrade's name in at most two lines for its square: "Power Down Shield" → ["Power Down", "Shield"]. */
export function offerLines(name: string): [string, string] {
  const words = name.split(" ").filter(Boolean);
  if (words.length < 2) return [name, ""];
  let best: [string, string] = [name, ""];
  let widest = Infinity;
  for (let cut = 1; cut < words.length; cut++) {
    const lines: [string, string] = [words.slice(0, cut).join(" "), words.slice(cut).join(" ")];
    const width = Math.max(lines[0].length, lines[1].length);
    if (width <= widest) [best, widest] = [lines, width]; // a tie: the longer first line
  }
  return best;
}

/** The words of a classic wrench/hammer square (000 "Repair using wrenches"): its offer, once drawn. */
export function upgradeSquareTitle(amount: number, offer: string | null): string {
  return `Upgrade square: repairs ${amount} and gives ${offer ? `the ${offer} upgrade` : "the upgrade on offer (drawn in turn 1)"}`;
}

const repair: ElementDrawer = (ctx, raw) => {
  const e = raw as RepairElement;
  const amount = Number(e.amount) || 1;
  if (e.upgrade === true) {
    // classic's wrench/hammer square: an amber plate with a crossed hammer and wrench, not a blue repair disc;
    // courseboard.markBoard writes the upgrade on offer under it (the state's board.offers).
    const g = ctx.tile("floor", e.at, `el-repair el-upgrade repair-${amount}`, upgradeSquareTitle(amount, null));
    g.dataset.at = `${e.at[0]},${e.at[1]}`;
    g.dataset.amount = String(amount);
    svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 12, class: "upgrade-base" }, g);
    // The tools in the top half (a hammer crossed with a wrench), the offer's name in up to two lines under them.
    const tools = svgEl("g", { transform: "translate(22 2) scale(0.56)" }, g);
    svgEl("path", { d: "M28 70L62 36", class: "repair-handle" }, tools);
    svgEl("path", { d: "M56 24a13 13 0 1 0 15 15l-7-2-6-6z", class: "repair-jaw" }, tools);
    svgEl("path", { d: "M34 36L68 70", class: "upgrade-hammer-handle" }, tools);
    svgEl("rect", { x: 18, y: 20, width: 26, height: 14, rx: 3, transform: "rotate(45 31 27)", class: "upgrade-hammer-head" }, tools);
    svgEl("text", { x: 10, y: 22, class: "upgrade-tag" }, g, "UP");
    const offer = svgEl("text", { x: 50, y: 70, "text-anchor": "middle", class: "upgrade-offer" }, g);
    svgEl("tspan", { x: 50, dy: 0, class: "upgrade-offer-1" }, offer);
    svgEl("tspan", { x: 50, dy: 21, class: "upgrade-offer-2" }, offer);
    return;
  }
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


/** What each element means, for the legend (in the engine's order): each element's `short`, from the engine's
 * catalog the build writes for the browser (docs/frontend.md "The catalog"). */
export { LEGEND } from "./catalog";

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
