// Draws the course and the bots as SVG. It knows nothing about timing: animate.ts decides
// when and how fast things change and calls the low-level setters here.
import type {
  BeltElement, CheckpointElement, Course, CourseElement, CrusherElement, Dir, LaserElement,
  PusherElement, RepairElement, StartElement, TurntableElement, WallElement,
} from "./types";
import { isCoord, isDir } from "./types";

export const TILE = 100;
const PAD = 8;
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
const DIR_NAME: Record<Dir, string> = { N: "north", E: "east", S: "south", W: "west" };

/** Midpoint of a tile side, in tile-local coordinates. */
const SIDE_MID: Record<Dir, [number, number]> = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };

function phasesText(phases: unknown): string {
  return Array.isArray(phases) ? phases.join("·") : "";
}

/** Visual handle of one bot on the board. */
export interface BotShape {
  g: SVGGElement;
  body: SVGGElement;
}

export class Board {
  readonly svg: SVGSVGElement;
  private readonly floor: SVGGElement;
  private readonly beams: SVGGElement;
  private readonly walls: SVGGElement;
  private readonly fixtures: SVGGElement;
  readonly botsLayer: SVGGElement;
  readonly fx: SVGGElement;
  private wallSet = new Set<string>();
  private course: Course | null = null;

  constructor(parent: HTMLElement) {
    this.svg = svgEl("svg", {
      class: "rr-board",
      role: "img",
      "aria-label": "Course (loading)",
      viewBox: `0 0 ${TILE} ${TILE}`,
      preserveAspectRatio: "xMidYMid meet",
    });
    const defs = svgEl("defs", {}, this.svg);
    const marker = svgEl("marker", {
      id: "rr-arrowhead", viewBox: "0 0 10 10", refX: 5, refY: 5,
      markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse",
    }, defs);
    svgEl("path", { d: "M0 0L10 5L0 10z", fill: "#4b3fa8" }, marker);
    this.floor = svgEl("g", { class: "layer-floor" }, this.svg);
    this.beams = svgEl("g", { class: "layer-beams" }, this.svg);
    this.walls = svgEl("g", { class: "layer-walls" }, this.svg);
    this.fixtures = svgEl("g", { class: "layer-fixtures" }, this.svg);
    this.botsLayer = svgEl("g", { class: "layer-bots" }, this.svg);
    this.fx = svgEl("g", { class: "layer-fx" }, this.svg);
    parent.appendChild(this.svg);
  }

  get courseName(): string {
    return this.course?.name ?? "Course";
  }

  hasWall(x: number, y: number, side: Dir): boolean {
    if (this.wallSet.has(`${x},${y},${side}`)) return true;
    const [dx, dy] = DIR_STEP[side];
    return this.wallSet.has(`${x + dx},${y + dy},${OPPOSITE[side]}`);
  }

  inside(x: number, y: number): boolean {
    return !!this.course && x >= 0 && y >= 0 && x < this.course.width && y < this.course.height;
  }

  /** Replace the whole course drawing. Bots are left alone. */
  drawCourse(course: Course): void {
    this.course = course;
    const w = Math.max(1, course.width), h = Math.max(1, course.height);
    this.svg.setAttribute("viewBox", `${-PAD} ${-PAD} ${w * TILE + 2 * PAD} ${h * TILE + 2 * PAD}`);
    for (const layer of [this.floor, this.beams, this.walls, this.fixtures]) layer.replaceChildren();
    this.wallSet.clear();

    svgEl("rect", { x: -PAD, y: -PAD, width: w * TILE + 2 * PAD, height: h * TILE + 2 * PAD, rx: 6, class: "board-frame" }, this.floor);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        svgEl("rect", { x: x * TILE, y: y * TILE, width: TILE, height: TILE, class: (x + y) % 2 ? "tile tile-b" : "tile" }, this.floor);
      }
    }
    const elements = Array.isArray(course.elements) ? course.elements : [];
    for (const e of elements) {
      if (e.type === "wall" && isCoord(e.at) && isDir((e as WallElement).side)) {
        this.wallSet.add(`${e.at[0]},${e.at[1]},${(e as WallElement).side}`);
      }
    }
    // Floor pieces first, then beams, walls and wall-mounted fixtures on top.
    for (const e of elements) {
      if (!isCoord(e.at)) { if (e.type !== "wall") this.drawUnknown(e, [0, 0]); continue; }
      try {
        this.drawElement(e);
      } catch {
        this.drawUnknown(e, e.at);
      }
    }
  }

  private tileGroup(layer: SVGGElement, at: [number, number], cls: string, title: string): SVGGElement {
    const g = svgEl("g", { class: `el ${cls}`, transform: `translate(${at[0] * TILE} ${at[1] * TILE})` }, layer);
    svgEl("title", {}, g, `${title} at (${at[0]},${at[1]})`);
    return g;
  }

  private drawElement(e: CourseElement): void {
    switch (e.type) {
      case "wall": return this.drawWall(e as WallElement);
      case "pit": return this.drawPit(e.at as [number, number]);
      case "start": return this.drawStart(e as StartElement);
      case "checkpoint": return this.drawCheckpoint(e as CheckpointElement);
      case "repair": return this.drawRepair(e as RepairElement);
      case "belt": return this.drawBelt(e as BeltElement);
      case "pusher": return this.drawPusher(e as PusherElement);
      case "turntable": return this.drawTurntable(e as TurntableElement);
      case "crusher": return this.drawCrusher(e as CrusherElement);
      case "laser": return this.drawLaser(e as LaserElement);
      default: return this.drawUnknown(e, e.at as [number, number]);
    }
  }

  private drawUnknown(e: CourseElement, at: [number, number]): void {
    const g = this.tileGroup(this.fixtures, at, "el-unknown", `Unknown element "${String(e.type)}"`);
    svgEl("circle", { cx: 84, cy: 16, r: 11 }, g);
    svgEl("text", { x: 84, y: 21, "text-anchor": "middle" }, g, "?");
  }

  private drawWall(e: WallElement): void {
    if (!isDir(e.side)) throw new Error("bad wall");
    const g = this.tileGroup(this.walls, e.at, "el-wall", `Wall on the ${DIR_NAME[e.side]} side`);
    const lines: Record<Dir, [number, number, number, number]> = {
      N: [0, 0, 100, 0], E: [100, 0, 100, 100], S: [0, 100, 100, 100], W: [0, 0, 0, 100],
    };
    const [x1, y1, x2, y2] = lines[e.side];
    svgEl("line", { x1, y1, x2, y2, class: "wall-outer" }, g);
    svgEl("line", { x1, y1, x2, y2, class: "wall-inner" }, g);
  }

  private drawPit(at: [number, number]): void {
    const g = this.tileGroup(this.floor, at, "el-pit", "Pit");
    svgEl("rect", { x: 5, y: 5, width: 90, height: 90, rx: 6, class: "pit-rim" }, g);
    svgEl("rect", { x: 14, y: 14, width: 72, height: 72, rx: 4, class: "pit-hole" }, g);
  }

  private drawStart(e: StartElement): void {
    const g = this.tileGroup(this.floor, e.at, "el-start", `Start ${e.number}${isDir(e.dir) ? `, facing ${DIR_NAME[e.dir]}` : ""}`);
    svgEl("rect", { x: 12, y: 12, width: 76, height: 76, rx: 10, class: "start-pad" }, g);
    if (isDir(e.dir)) {
      svgEl("path", { d: "M50 16l10 12H40z", class: "start-arrow", transform: `rotate(${DIR_ANGLE[e.dir]} 50 50)` }, g);
    }
    svgEl("text", { x: 50, y: 66, "text-anchor": "middle", class: "start-num" }, g, String(e.number));
  }

  private drawCheckpoint(e: CheckpointElement): void {
    const g = this.tileGroup(this.floor, e.at, "el-checkpoint", `Check point ${e.number}`);
    svgEl("circle", { cx: 50, cy: 50, r: 40, class: "cp-base" }, g);
    svgEl("line", { x1: 34, y1: 18, x2: 34, y2: 84, class: "cp-pole" }, g);
    svgEl("path", { d: "M36 20h40l-9 12 9 12H36z", class: "cp-flag" }, g);
    svgEl("text", { x: 55, y: 39, "text-anchor": "middle", class: "cp-num" }, g, String(e.number));
  }

  private drawRepair(e: RepairElement): void {
    const g = this.tileGroup(this.floor, e.at, "el-repair", `Repair site, repairs ${e.amount}`);
    svgEl("circle", { cx: 50, cy: 50, r: 40, class: "repair-base" }, g);
    // A simple wrench: handle plus an open jaw.
    svgEl("path", { d: "M34 66L58 42", class: "repair-handle" }, g);
    svgEl("path", { d: "M56 28a14 14 0 1 0 16 16l-8-2-6-6z", class: "repair-jaw" }, g);
    svgEl("text", { x: 30, y: 40, "text-anchor": "middle", class: "repair-amt" }, g, `+${e.amount}`);
  }

  private drawBelt(e: BeltElement): void {
    if (!isDir(e.dir)) throw new Error("bad belt");
    const speed = Number(e.speed) || 1;
    const curves = (Array.isArray(e.curves_from) ? e.curves_from : []).filter(isDir);
    const title = `Belt moving ${DIR_NAME[e.dir]}, speed ${speed}` +
      (curves.length ? `, curves in from ${curves.map((d) => DIR_NAME[d]).join(" and ")}` : "");
    const g = this.tileGroup(this.floor, e.at, `el-belt belt-speed-${Math.min(speed, 5)}`, title);
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
    svgEl("text", { x: 90, y: 93, "text-anchor": "end", class: "belt-speed" }, g, String(speed));
    if (curves.length) svgEl("text", { x: 10, y: 93, class: "belt-speed" }, g, "↪");
  }

  private drawPusher(e: PusherElement): void {
    if (!isDir(e.side)) throw new Error("bad pusher");
    const ph = phasesText(e.phases);
    const g = this.tileGroup(this.fixtures, e.at, "el-pusher", `Pusher on the ${DIR_NAME[e.side]} side, pushes in phases ${ph}`);
    const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[e.side]} 50 50)` }, g);
    // Drawn as if mounted on the north side, then rotated.
    svgEl("rect", { x: 12, y: 2, width: 76, height: 12, rx: 2, class: "pusher-bar" }, inner);
    svgEl("path", { d: "M44 16h12v8h6l-12 10-12-10h6z", class: "pusher-arrow" }, inner);
    const pos: Record<Dir, [number, number, string]> = {
      N: [50, 50, "middle"], S: [50, 58, "middle"], E: [60, 56, "end"], W: [40, 56, "start"],
    };
    const [tx, ty, anchor] = pos[e.side];
    svgEl("text", { x: tx, y: ty, "text-anchor": anchor, class: "fixture-label pusher-phases" }, g, ph);
  }

  private drawTurntable(e: TurntableElement): void {
    const left = e.rotation === "L";
    const g = this.tileGroup(this.floor, e.at, "el-turntable", `Turntable, turns ${left ? "left (counter-clockwise)" : "right (clockwise)"}`);
    svgEl("circle", { cx: 50, cy: 50, r: 38, class: "tt-base" }, g);
    const arc = svgEl("g", left ? { transform: "translate(100 0) scale(-1 1)" } : {}, g);
    // Clockwise arc from 12 o'clock round to 9 o'clock, with an arrow head at the end.
    svgEl("path", { d: "M50 24A26 26 0 1 1 24 50", class: "tt-arc", "marker-end": "url(#rr-arrowhead)" }, arc);
    svgEl("text", { x: 50, y: 58, "text-anchor": "middle", class: "tt-label" }, g, left ? "L" : "R");
  }

  private drawCrusher(e: CrusherElement): void {
    const ph = phasesText(e.phases);
    const g = this.tileGroup(this.floor, e.at, "el-crusher", `Crusher, crushes in phases ${ph}`);
    svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 4, class: "crusher-bed" }, g);
    const teeth = (y: number, d: number): string => {
      let p = `M6 ${y}`;
      for (let x = 6; x < 94; x += 11) p += `L${x + 5.5} ${y + d}L${x + 11} ${y}`;
      return p + "z";
    };
    svgEl("path", { d: teeth(6, 20), class: "crusher-teeth" }, g);
    svgEl("path", { d: teeth(94, -20), class: "crusher-teeth" }, g);
    svgEl("rect", { x: 22, y: 38, width: 56, height: 24, rx: 4, class: "label-bg" }, g);
    svgEl("text", { x: 50, y: 56, "text-anchor": "middle", class: "fixture-label" }, g, ph);
  }

  private drawLaser(e: LaserElement): void {
    if (!isDir(e.side)) throw new Error("bad laser");
    const beams = Math.max(1, Math.min(3, Number(e.beams) || 1));
    const fire = OPPOSITE[e.side];
    // Trace the beam from the mounting edge until a wall or the board edge.
    let [x, y] = e.at;
    const [dx, dy] = DIR_STEP[fire];
    let guard = 0;
    while (guard++ < 1000) {
      if (this.hasWall(x, y, fire)) break; // far side of this square or near side of the next
      if (!this.inside(x + dx, y + dy)) break;
      x += dx; y += dy;
    }
    const [ax, ay] = SIDE_MID[e.side];
    const [bx, by] = SIDE_MID[fire];
    const x1 = e.at[0] * TILE + ax, y1 = e.at[1] * TILE + ay;
    const x2 = x * TILE + bx, y2 = y * TILE + by;
    const bg = svgEl("g", { class: "el el-beam" }, this.beams);
    for (let i = 0; i < beams; i++) {
      const off = (i - (beams - 1) / 2) * 8;
      const ox = dx === 0 ? off : 0, oy = dy === 0 ? off : 0;
      svgEl("line", { x1: x1 + ox, y1: y1 + oy, x2: x2 + ox, y2: y2 + oy, class: "laser-beam" }, bg);
    }
    const g = this.tileGroup(this.fixtures, e.at, "el-laser", `Laser on the ${DIR_NAME[e.side]} side firing ${DIR_NAME[fire]}, ${beams} beam${beams > 1 ? "s" : ""}`);
    const inner = svgEl("g", { transform: `rotate(${DIR_ANGLE[e.side]} 50 50)` }, g);
    svgEl("path", { d: "M30 0h40v8q0 12-20 14q-20-2-20-14z", class: "laser-emitter" }, inner);
    const pos: Record<Dir, [number, number]> = { N: [50, 16], S: [50, 96], E: [90, 55], W: [10, 55] };
    const [tx, ty] = pos[e.side];
    svgEl("text", { x: tx, y: ty, "text-anchor": "middle", class: "laser-count" }, g, String(beams));
  }

  // ---------------- bots ----------------

  createBot(id: string, color: string, label: string, title: string): BotShape {
    const g = svgEl("g", { class: "bot", "data-bot": id });
    svgEl("title", {}, g, title);
    const body = svgEl("g", { class: "bot-body" }, g);
    svgEl("path", { d: "M0 -44L20 -20H-20z", class: "bot-nose", fill: color }, body);
    svgEl("circle", { r: 29, class: "bot-shell", fill: color }, body);
    svgEl("circle", { r: 20, class: "bot-ring" }, body);
    svgEl("text", { y: 10, "text-anchor": "middle", class: "bot-label" }, g, label);
    this.botsLayer.appendChild(g);
    return { g, body };
  }

  /** Position a bot shape; x/y may be fractional during a move. */
  poseBot(shape: BotShape, x: number, y: number, angle: number, scale = 1): void {
    const cx = x * TILE + TILE / 2, cy = y * TILE + TILE / 2;
    shape.g.setAttribute("transform", `translate(${cx.toFixed(2)} ${cy.toFixed(2)})${scale !== 1 ? ` scale(${scale.toFixed(3)})` : ""}`);
    shape.body.setAttribute("transform", `rotate(${angle.toFixed(2)})`);
  }

  /** A short-lived text bubble near a square; returns the element so the caller can fade it. */
  bubble(x: number, y: number, text: string, tone: string): SVGGElement {
    const g = svgEl("g", { class: `bubble bubble-${tone}`, transform: `translate(${x * TILE + TILE / 2} ${y * TILE + 8})` }, this.fx);
    const w = Math.max(36, text.length * 11 + 16);
    svgEl("rect", { x: -w / 2, y: -16, width: w, height: 26, rx: 8 }, g);
    svgEl("text", { y: 3, "text-anchor": "middle" }, g, text);
    return g;
  }

  burst(x: number, y: number): SVGGElement {
    const g = svgEl("g", { class: "burst", transform: `translate(${x * TILE + TILE / 2} ${y * TILE + TILE / 2})` }, this.fx);
    let d = "";
    for (let i = 0; i < 10; i++) {
      const a = (i * Math.PI) / 5, r = i % 2 ? 18 : 44;
      d += `${i ? "L" : "M"}${(Math.cos(a) * r).toFixed(1)} ${(Math.sin(a) * r).toFixed(1)}`;
    }
    svgEl("path", { d: d + "z" }, g);
    return g;
  }

  describe(text: string): void {
    this.svg.setAttribute("aria-label", text);
  }
}
