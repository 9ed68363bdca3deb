// The drawers of issue 6's elements (every other element of the rules), registered in elements.ts ELEMENTS.
import { DIR_ANGLE, DIR_NAME, OPPOSITE, SIDE_MID, svgEl, need, phasesText, type ElementDrawer } from "./drawing";
import type { Coord, CourseElement, Dir } from "./types";
import { isDir } from "./types";

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

export const screen: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-screen", "Screen: safe to cross, deadly to end a phase on");
  svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 4, fill: "#26303b", stroke: "#93a3b5", "stroke-width": 3 }, g);
  for (let i = 20; i < 100; i += 20) {
    svgEl("line", { x1: i, y1: 6, x2: i, y2: 94, stroke: "#93a3b5", "stroke-width": 2 }, g);
    svgEl("line", { x1: 6, y1: i, x2: 94, y2: i, stroke: "#93a3b5", "stroke-width": 2 }, g);
  }
};

export const damagedTile: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-damaged_tile", "Damaged tile: breaks into a screen when a robot leaves it");
  g.dataset.at = atKey(e.at);
  svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 4, fill: "#a89f91", stroke: "#5b5248", "stroke-width": 3, class: "tile-face" }, g);
  svgEl("path", { d: "M10 30L35 42L30 60L55 70L62 92M35 42L62 30L70 8M55 70L88 62", fill: "none", stroke: "#3a3026", "stroke-width": 4 }, g);
};

export const receptacle: ElementDrawer = (ctx, raw) => {
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

export const rail: ElementDrawer = (ctx, raw) => {
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

export const trapdoor: ElementDrawer = (ctx, raw) => {
  const e = loose(raw);
  const ph = phasesText(e.phases);
  const g = ctx.tile("floor", e.at, "el-trapdoor", `Trapdoor: closed (safe) in phases ${ph}, a pit in the others`);
  hole(g, 6);
  svgEl("rect", { x: 10, y: 10, width: 38, height: 80, fill: "#7c6a4f", stroke: INK, "stroke-width": 2 }, g);
  svgEl("rect", { x: 52, y: 10, width: 38, height: 80, fill: "#7c6a4f", stroke: INK, "stroke-width": 2 }, g);
  svgEl("rect", { x: 22, y: 36, width: 56, height: 28, rx: 5, fill: "#f8fafc" }, g);
  svgEl("text", { x: 50, y: 57, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: INK }, g, ph);
};

export const chipChanger = (kind: "inverter" | "doubler"): ElementDrawer => (ctx, e) => {
  const inverter = kind === "inverter";
  const g = ctx.tile("floor", e.at, `el-${kind}`, inverter
    ? "Inverter: the chip played on this square runs reversed (moves go back, left and right swap)"
    : "Doubler: the chip played on this square moves twice as far");
  svgEl("rect", { x: 8, y: 8, width: 84, height: 84, rx: 14, fill: inverter ? "#7c3aed" : "#0e7490", stroke: INK, "stroke-width": 3 }, g);
  svgEl("text", { x: 50, y: 63, "text-anchor": "middle", "font-size": 38, "font-weight": 700, fill: "#fff" }, g, inverter ? "⇅" : "×2");
};

export const vent: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-vent", "Vent: 1 damage at the end of a phase; crossing it with one chip flies");
  svgEl("circle", { cx: 50, cy: 50, r: 42, fill: "#451a03", stroke: "#f97316", "stroke-width": 4 }, g);
  for (let a = 0; a < 360; a += 45) {
    svgEl("rect", { x: 46, y: 14, width: 8, height: 24, rx: 3, fill: "#fb923c", transform: `rotate(${a} 50 50)` }, g);
  }
  svgEl("circle", { cx: 50, cy: 50, r: 9, fill: "#fdba74" }, g);
};

export const magnet: ElementDrawer = (ctx, raw) => {
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

export const virtualizer: ElementDrawer = (ctx, e) => {
  const g = ctx.tile("floor", e.at, "el-virtualizer", "Virtualizer: a robot on this square turns virtual until the end of the turn");
  svgEl("rect", { x: 10, y: 10, width: 80, height: 80, rx: 12, fill: "#ede9fe", stroke: "#7c3aed", "stroke-width": 4, "stroke-dasharray": "10 7" }, g);
  svgEl("text", { x: 50, y: 64, "text-anchor": "middle", "font-size": 40, "font-weight": 700, fill: "#7c3aed" }, g, "V");
};

export const liquid = (kind: "water" | "oil"): ElementDrawer => (ctx, e) => {
  const water = kind === "water";
  const g = ctx.tile("beams", e.at, `el-${kind}`, water
    ? "Water: the chip played on this square moves at most one square"
    : "Oil: a robot that stops on this square slides on until it leaves the oil");
  svgEl("rect", { x: 2, y: 2, width: 96, height: 96, rx: 10, fill: water ? "#38bdf8" : "#111827", "fill-opacity": water ? 0.35 : 0.45 }, g);
  const wave = water ? "#0369a1" : "#a78bfa";
  for (const y of [30, 55, 80]) {
    svgEl("path", { d: `M12 ${y}q10-10 19 0t19 0t19 0t19 0`, fill: "none", stroke: wave, "stroke-width": 4, "stroke-opacity": 0.8 }, g);
  }
};

export const teleporter: ElementDrawer = (ctx, raw) => {
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

export const forceField: ElementDrawer = (ctx, raw) => {
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

export const mirror: ElementDrawer = (ctx, raw) => {
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

export const portal: ElementDrawer = (ctx, raw) => {
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

export const oneWayWall: ElementDrawer = (ctx, raw) => {
  const e = need(isDir(loose(raw).side) && isDir(loose(raw).dir), loose(raw));
  const dir = e.dir as Dir;
  const g = ctx.tile("walls", e.at, "el-one_way_wall", `One-way wall on the ${DIR_NAME[e.side as Dir]} side: robots and shots cross only going ${DIR_NAME[dir]}`);
  const [x1, y1, x2, y2] = edgeLine(e);
  svgEl("line", { x1, y1, x2, y2, stroke: "#f59e0b", "stroke-width": 10, "stroke-dasharray": "14 8" }, g);
  const [mx, my] = SIDE_MID[e.side as Dir];
  svgEl("path", { d: "M0 -14l12 14h-8v10h-8v-10h-8z", fill: INK, transform: `translate(${mx} ${my}) rotate(${DIR_ANGLE[dir]})` }, g);
};

export const slidingWall: ElementDrawer = (ctx, raw) => {
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

export const edgeKind = (kind: "curtain" | "window" | "shocker"): ElementDrawer => (ctx, raw) => {
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
