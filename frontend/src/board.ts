// The board as SVG: layers, the course (drawn element by element through the registry in
// elements.ts), the bots and the short-lived effects. It knows nothing about timing: animate.ts
// decides when and how fast things change and calls the setters here.
import { DIR_STEP, drawElement, drawSample, LEGEND, OPPOSITE, svgEl, TILE, type DrawContext, type Layer } from "./elements";
import type { Coord, Course, Dir, WallElement } from "./types";
import { isCoord, isDir } from "./types";

export { DIR_ANGLE, DIR_STEP, OPPOSITE, svgEl, TILE } from "./elements";

const PAD = 8;
/** Page height taken by the header, title and playback controls around the board (CSS px). */
const BOARD_CHROME = 210;
/** A bubble's font size in board units (styles.css) and the smallest it may look on screen (CSS px). */
const BUBBLE_FONT = 17;
const BUBBLE_MIN_PX = 13;

/** Visual handle of one bot on the board. */
export interface BotShape {
  g: SVGGElement;
  body: SVGGElement;
  lives: SVGTextElement;
  damage: SVGGElement;
  damageText: SVGTextElement;
  /** Several robots on one square (fused: everybody starts on one start square): this one is drawn smaller,
   * moved off the centre by [dx, dy] squares and scaled by k. */
  offset?: [number, number, number];
}

/** Where each of `n` robots sharing a square is drawn: [dx, dy] in squares and a scale; one robot: centred. */
export function sharedOffsets(n: number): [number, number, number][] {
  if (n <= 1) return [[0, 0, 1]];
  const k = n === 2 ? 0.62 : n <= 4 ? 0.5 : 0.4;
  const r = n === 2 ? 0.22 : n <= 4 ? 0.24 : 0.3;
  return Array.from({ length: n }, (_, i) => {
    const a = (n === 2 ? Math.PI : -Math.PI / 2 - Math.PI / 4) + (2 * Math.PI * i) / n;
    return [Number((Math.cos(a) * r).toFixed(3)), Number((Math.sin(a) * r).toFixed(3)), k];
  });
}

export class Board {
  /** The course (static; described for screen readers). */
  readonly svg: SVGSVGElement;
  /** Bots, marks and effects, in a second SVG laid over the course so that moving a bot repaints only
   * this light layer and not the whole course. */
  readonly top: SVGSVGElement;
  readonly wrap: HTMLDivElement;
  private readonly layers: Record<Layer, SVGGElement>;
  private readonly marks: SVGGElement;
  private readonly remainsLayer: SVGGElement;
  readonly botsLayer: SVGGElement;
  readonly fx: SVGGElement;
  private wallSet = new Set<string>();
  private course: Course | null = null;
  /** The ruleset counts lives / has damage (ruleset.ts): else the bots' badges stay hidden. */
  showLives = true;
  showDamage = true;
  /** fused: robots have this many hit points; the damage badge shows the hit points left. */
  hitPoints: number | null = null;

  constructor(parent: HTMLElement) {
    this.svg = svgEl("svg", {
      class: "rr-board",
      role: "img",
      "aria-label": "Course (loading)",
      viewBox: `0 0 ${TILE} ${TILE}`,
      preserveAspectRatio: "xMidYMid meet",
    });
    this.top = svgEl("svg", {
      class: "rr-board-top", "aria-hidden": "true", viewBox: `0 0 ${TILE} ${TILE}`, preserveAspectRatio: "xMidYMid meet",
    });
    this.wrap = document.createElement("div");
    this.wrap.className = "rr-board-wrap";
    this.wrap.append(this.svg, this.top);
    this.layers = {
      floor: svgEl("g", { class: "layer-floor" }, this.svg),
      beams: svgEl("g", { class: "layer-beams" }, this.svg),
      walls: svgEl("g", { class: "layer-walls" }, this.svg),
      fixtures: svgEl("g", { class: "layer-fixtures" }, this.svg),
    };
    this.marks = svgEl("g", { class: "layer-marks" }, this.top);
    this.remainsLayer = svgEl("g", { class: "layer-remains" }, this.top);
    this.botsLayer = svgEl("g", { class: "layer-bots" }, this.top);
    this.fx = svgEl("g", { class: "layer-fx" }, this.top);
    parent.appendChild(this.wrap);
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
    const w = Math.max(1, Number(course.width) || 1), h = Math.max(1, Number(course.height) || 1);
    const viewBox = `${-PAD} ${-PAD} ${w * TILE + 2 * PAD} ${h * TILE + 2 * PAD}`;
    this.svg.setAttribute("viewBox", viewBox);
    this.top.setAttribute("viewBox", viewBox);
    // As wide as the board is at the tallest size that leaves the playback controls on screen.
    const aspect = (w * TILE + 2 * PAD) / (h * TILE + 2 * PAD);
    this.wrap.style.maxWidth = `max(300px, calc((100vh - ${BOARD_CHROME}px) * ${aspect.toFixed(4)}))`;
    for (const layer of Object.values(this.layers)) layer.replaceChildren();
    this.marks.replaceChildren();
    this.wallSet.clear();

    const floor = this.layers.floor;
    svgEl("rect", { x: -PAD, y: -PAD, width: w * TILE + 2 * PAD, height: h * TILE + 2 * PAD, rx: 6, class: "board-frame" }, floor);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        svgEl("rect", { x: x * TILE, y: y * TILE, width: TILE, height: TILE, class: (x + y) % 2 ? "tile tile-b" : "tile" }, floor);
      }
    }
    const elements = Array.isArray(course.elements) ? course.elements : [];
    for (const e of elements) {
      if (e && e.type === "wall" && isCoord(e.at) && isDir((e as WallElement).side)) {
        this.wallSet.add(`${e.at[0]},${e.at[1]},${(e as WallElement).side}`);
      }
    }
    // Edges and squares that end a wall laser's drawn beam (the engine's Turn.trace decides the real shot).
    const shotStops = new Set<string>(), covers = new Set<string>(), mirrors = new Map<string, string>();
    for (const raw of elements) {
      const e = raw as { type?: string; at?: unknown; side?: unknown; dir?: unknown };
      if (!e || !isCoord(e.at)) continue;
      const [x, y] = e.at;
      if (e.type === "force_field") covers.add(`${x},${y}`);
      if (e.type === "mirror") mirrors.set(`${x},${y}`, String((raw as { shape?: unknown }).shape));
      if (!isDir(e.side)) continue;
      const side = e.side;
      const [dx, dy] = DIR_STEP[side];
      const back = OPPOSITE[side];
      if (e.type === "portal") shotStops.add(`${x},${y},${side}`);
      const both = e.type === "curtain" || e.type === "shocker" || e.type === "sliding_wall";
      if (both || (e.type === "one_way_wall" && e.dir !== side)) shotStops.add(`${x},${y},${side}`);
      if (both || (e.type === "one_way_wall" && e.dir !== back)) shotStops.add(`${x + dx},${y + dy},${back}`);
    }
    const ctx: DrawContext = {
      tile: (layer, at, cls, title) => {
        const g = svgEl("g", { class: `el ${cls}`, transform: `translate(${at[0] * TILE} ${at[1] * TILE})` }, this.layers[layer]);
        svgEl("title", {}, g, `${title} at (${at[0]},${at[1]})`);
        return g;
      },
      layer: (layer) => this.layers[layer],
      hasWall: (x, y, side) => this.hasWall(x, y, side),
      inside: (x, y) => this.inside(x, y),
      stopsShot: (x, y, side) => shotStops.has(`${x},${y},${side}`),
      covered: (x, y) => covers.has(`${x},${y}`),
      mirror: (x, y) => mirrors.get(`${x},${y}`),
    };
    for (const e of elements) drawElement(ctx, e);
  }

  /** Colour the check point numbers: green = my next, black = leading opponent's next, red = others. */
  markCheckpoints(mine: number | null, leader: number | null): void {
    for (const g of this.layers.floor.querySelectorAll<SVGGElement>("g.el-checkpoint")) {
      const n = Number(g.dataset.checkpoint);
      const cls = n === mine ? "cp-mine" : n === leader ? "cp-leader" : "cp-other";
      for (const c of ["cp-mine", "cp-leader", "cp-other"]) g.classList.toggle(c, c === cls);
    }
  }

  /**
   * Show what the course elements remember (the engine state's `board`, docs/formats.md): teleporter
   * numbers once revealed (series in green when a robot arrived there, destination in red when one left
   * from there), broken mirrors, filled receptacles, damaged tiles broken into screens, force fields
   * down or cleared. The server should send `engine.public_board(state.board)`: the loop only where used.
   */
  markBoard(board: BoardMemory | null | undefined): void {
    const b = board ?? {};
    const key = (c: unknown): string => (isCoord(c) ? `${c[0]},${c[1]}` : "");
    const set = (list: unknown): Set<string> => new Set(Array.isArray(list) ? list.map(key) : []);
    const seriesShown = set(b.series_shown), destShown = set(b.dest_shown);
    const mirrors = set(b.mirrors_broken), filled = set(b.filled), broken = set(b.broken), down = set(b.fields_down);
    const hits = new Map<string, number>();
    for (const pair of Array.isArray(b.field_hits) ? b.field_hits : []) {
      if (Array.isArray(pair)) hits.set(key(pair[0]), Number(pair[1]) || 0);
    }
    const loop = new Map<string, string>();
    for (const pair of Array.isArray(b.loop) ? b.loop : []) {
      if (Array.isArray(pair)) loop.set(key(pair[0]), key(pair[1]));
    }
    // Series numbers: 1..n per colour in reading order (row by row from the north-west).
    const series = new Map<string, number>();
    const teleporters = (this.course?.elements ?? []).filter((e) => e && e.type === "teleporter" && isCoord(e.at));
    teleporters.sort((p, q) => (p.at as Coord)[1] - (q.at as Coord)[1] || (p.at as Coord)[0] - (q.at as Coord)[0]);
    const counts = new Map<string, number>();
    for (const t of teleporters) {
      const colour = String((t as { colour?: unknown }).colour);
      counts.set(colour, (counts.get(colour) ?? 0) + 1);
      series.set(key(t.at), counts.get(colour) ?? 0);
    }
    const all = (cls: string): SVGGElement[] => [...this.svg.querySelectorAll<SVGGElement>(`g.${cls}`)];
    for (const g of all("el-teleporter")) {
      const at = g.dataset.at ?? "";
      const seriesText = g.querySelector("text.tp-series"), destText = g.querySelector("text.tp-dest");
      if (seriesText) seriesText.textContent = seriesShown.has(at) ? String(series.get(at) ?? "") : "";
      const to = loop.get(at);
      if (destText) destText.textContent = destShown.has(at) && to ? String(series.get(to) ?? "") : "";
    }
    for (const g of all("el-mirror")) {
      const gone = mirrors.has(g.dataset.at ?? "");
      g.setAttribute("opacity", gone ? "0.25" : "1");
      g.classList.toggle("mirror-broken", gone);
    }
    for (const g of all("el-receptacle")) {
      g.querySelector(".receptacle-hole")?.setAttribute("fill", filled.has(g.dataset.at ?? "") ? "#57534e" : "#0b0f14");
    }
    for (const g of all("el-damaged_tile")) {
      const face = g.querySelector(".tile-face");
      face?.setAttribute("fill", broken.has(g.dataset.at ?? "") ? "#26303b" : "#a89f91");
      g.classList.toggle("tile-broken", broken.has(g.dataset.at ?? ""));
    }
    for (const g of all("el-force_field")) {
      const at = g.dataset.at ?? "";
      const label = g.querySelector("text.ff-label");
      const cleared = down.has(at) || (hits.get(at) ?? 0) >= Number(label?.textContent) ;
      g.querySelector(".ff-body")?.setAttribute("opacity", cleared ? "0.2" : "1");
      g.classList.toggle("ff-down", cleared);
    }
  }

  /** A square marked with radiation (left by virtual burn) until the next snapshot. */
  radiation(at: Coord): SVGGElement {
    const g = svgEl("g", { class: "mark-radiation", transform: `translate(${at[0] * TILE} ${at[1] * TILE})` }, this.marks);
    svgEl("title", {}, g, `Radiation at (${at[0]},${at[1]})`);
    svgEl("circle", { cx: 18, cy: 82, r: 14, class: "rad-bg" }, g);
    for (const a of [0, 120, 240]) {
      svgEl("path", { d: "M18 82L18 70A12 12 0 0 1 28.4 76Z", transform: `rotate(${a} 18 82)`, class: "rad-blade" }, g);
    }
    return g;
  }

  clearMarks(): void {
    this.marks.replaceChildren();
  }

  // ---------------- arena remains (003 "Arena Remains") ----------------

  /** Every piece of remains as the state has them (one per square). */
  setRemains(squares: Coord[]): void {
    this.remainsLayer.replaceChildren();
    for (const at of squares) this.addRemains(at);
  }

  /** A piece of remains: a heap of scrap on the square, found by its square (`data-at`). */
  addRemains(at: Coord): SVGGElement {
    const g = svgEl("g", { class: "remains", "data-at": `${at[0]},${at[1]}`, transform: `translate(${at[0] * TILE} ${at[1] * TILE})` }, this.remainsLayer);
    svgEl("title", {}, g, `Remains at (${at[0]},${at[1]}): 1 repair and +100 battery to the bot that collects them`);
    svgEl("path", { d: "M30 70L42 52L55 60L68 48L74 70Z", class: "remains-heap" }, g);
    svgEl("circle", { cx: 44, cy: 64, r: 5, class: "remains-bolt" }, g);
    svgEl("rect", { x: 56, y: 58, width: 9, height: 9, rx: 2, class: "remains-bolt", transform: "rotate(20 60 62)" }, g);
    return g;
  }

  /** The pieces on a square (several between the end of a drop and the end of the phase). */
  remainsAt(at: Coord): SVGGElement[] {
    return [...this.remainsLayer.querySelectorAll<SVGGElement>(`g.remains[data-at="${at[0]},${at[1]}"]`)];
  }

  remainsCount(): number {
    return this.remainsLayer.childElementCount;
  }

  /** A team's badge on a bot (upper left): a letter in the team colour, so it reads without colour too. */
  teamBadge(shape: BotShape, team: string): void {
    const badge = svgEl("g", { class: `team-badge team-${team}`, transform: "translate(-30 -30)" }, shape.g);
    svgEl("title", {}, badge, `${team === "blue" ? "Blue" : "Orange"} team`);
    svgEl("circle", { r: 14 }, badge);
    svgEl("text", { y: 6, "text-anchor": "middle" }, badge, team === "blue" ? "B" : "O");
    shape.g.classList.add(`team-${team}`);
  }

  // ---------------- bots ----------------

  /** A bot; a drone (`drone`) is its owner's second robot: the owner's colour, a smaller body and a "D" badge. */
  createBot(id: string, color: string, label: string, title: string, drone = false): BotShape {
    const g = svgEl("g", { class: drone ? "bot drone" : "bot", "data-bot": id });
    svgEl("title", {}, g, title);
    const body = svgEl("g", { class: "bot-body" }, g);
    const k = drone ? 0.72 : 1;
    svgEl("path", { d: `M0 ${-46 * k}L${21 * k} ${-20 * k}H${-21 * k}z`, class: "bot-nose", fill: color }, body);
    svgEl("circle", { r: 29 * k, class: "bot-shell", fill: color }, body);
    svgEl("circle", { r: 20 * k, class: drone ? "bot-ring drone-ring" : "bot-ring" }, body);
    svgEl("text", { y: drone ? 8 : 10, "text-anchor": "middle", class: drone ? "bot-label drone-label" : "bot-label" }, g, label);
    if (drone) {
      const badge = svgEl("g", { class: "drone-badge", transform: "translate(30 -30)" }, g);
      svgEl("circle", { r: 14 }, badge);
      svgEl("text", { y: 6, "text-anchor": "middle" }, badge, "D");
    }
    // Lives (lower left, white) and damage (lower right, red) stay upright while the body turns.
    const livesG = svgEl("g", { class: "bot-lives", transform: "translate(-30 34)" }, g);
    svgEl("rect", { x: -17, y: -12, width: 34, height: 24, rx: 6, class: "lives-bg" }, livesG);
    const lives = svgEl("text", { y: 6, "text-anchor": "middle", class: "badge-text" }, livesG);
    const damage = svgEl("g", { class: "bot-damage", transform: "translate(30 34)" }, g);
    svgEl("rect", { x: -17, y: -12, width: 34, height: 24, rx: 6, class: "damage-bg" }, damage);
    const damageText = svgEl("text", { y: 6, "text-anchor": "middle", class: "badge-text" }, damage);
    this.botsLayer.appendChild(g);
    return { g, body, lives, damage, damageText };
  }

  /** A bomb where it lies (003 "Bomb"): a black ball with a fuse in its owner's colour, until it explodes. */
  createBomb(id: string, color: string, title: string): BotShape {
    const g = svgEl("g", { class: "bomb", "data-bot": id });
    svgEl("title", {}, g, title);
    const body = svgEl("g", { class: "bomb-body" }, g);
    svgEl("circle", { r: 22, class: "bomb-shell" }, body);
    svgEl("path", { d: "M10 -18Q22 -34 32 -30", class: "bomb-fuse", stroke: color }, body);
    svgEl("circle", { cx: 32, cy: -30, r: 6, class: "bomb-spark" }, body);
    // No lives or damage: empty badges keep the shape interchangeable with a bot's.
    const lives = svgEl("text", { class: "badge-text", visibility: "hidden" }, g);
    const damage = svgEl("g", { visibility: "hidden" }, g);
    const damageText = svgEl("text", {}, damage);
    this.botsLayer.appendChild(g);
    return { g, body, lives, damage, damageText };
  }

  /** A bomb's blast: a burst on each square it hits. */
  blast(squares: Coord[]): SVGGElement {
    const g = svgEl("g", { class: "fx fx-blast" }, this.fx);
    for (const [x, y] of squares) {
      svgEl("rect", { x: x * TILE + 4, y: y * TILE + 4, width: TILE - 8, height: TILE - 8, rx: 18, class: "blast-square" }, g);
    }
    return g;
  }

  /** A Shield taking a shot: a blue ring around the bot. */
  shield(x: number, y: number): SVGGElement {
    const g = svgEl("g", { class: "fx fx-shield", transform: `translate(${x * TILE + TILE / 2} ${y * TILE + TILE / 2})` }, this.fx);
    svgEl("circle", { r: 44, class: "shield-ring" }, g);
    return g;
  }

  /** A Shocker touching a bot: a zigzag spark from one square to the other. */
  shock(from: Coord, to: Coord): SVGGElement {
    const g = svgEl("g", { class: "fx fx-shock" }, this.fx);
    const x1 = (from[0] + 0.5) * TILE, y1 = (from[1] + 0.5) * TILE, x2 = (to[0] + 0.5) * TILE, y2 = (to[1] + 0.5) * TILE;
    const nx = -(y2 - y1), ny = x2 - x1, len = Math.hypot(nx, ny) || 1;
    let d = `M${x1} ${y1}`;
    for (let i = 1; i < 6; i++) {
      const t = i / 6, side = i % 2 ? 1 : -1;
      d += `L${(x1 + (x2 - x1) * t + (nx / len) * 14 * side).toFixed(1)} ${(y1 + (y2 - y1) * t + (ny / len) * 14 * side).toFixed(1)}`;
    }
    svgEl("path", { d: `${d}L${x2} ${y2}`, class: "shock-line" }, g);
    return g;
  }

  /** Storage: a face-down chip (never which one) leaving the bot. */
  storedChip(x: number, y: number): SVGGElement {
    const g = svgEl("g", { class: "fx fx-store", transform: `translate(${x * TILE + TILE / 2} ${y * TILE + TILE / 2})` }, this.fx);
    svgEl("rect", { x: -14, y: -18, width: 28, height: 36, rx: 5, class: "store-chip" }, g);
    svgEl("text", { y: 7, "text-anchor": "middle", class: "store-mark" }, g, "?");
    return g;
  }

  /** Show lives and damage on a bot (damage hidden at 0). */
  botStats(shape: BotShape, lives: number, damage: number): void {
    shape.lives.textContent = `♥${lives}`;
    const livesBox = shape.lives.parentNode as Element | null;
    if (livesBox && livesBox.getAttribute?.("class") === "bot-lives") {
      if (this.showLives) livesBox.removeAttribute("visibility");
      else livesBox.setAttribute("visibility", "hidden");
    }
    shape.damageText.textContent = this.hitPoints !== null ? String(Math.max(0, this.hitPoints - damage)) : String(damage);
    shape.damage.setAttribute("visibility", damage > 0 && this.showDamage ? "visible" : "hidden");
  }

  /** Position a bot shape; x/y may be fractional during a move. */
  poseBot(shape: BotShape, x: number, y: number, angle: number, scale = 1): void {
    const [ox, oy, k] = shape.offset ?? [0, 0, 1];
    scale *= k;
    const cx = (x + ox) * TILE + TILE / 2, cy = (y + oy) * TILE + TILE / 2;
    shape.g.setAttribute("transform", `translate(${cx.toFixed(2)} ${cy.toFixed(2)})${scale !== 1 ? ` scale(${scale.toFixed(3)})` : ""}`);
    shape.body.setAttribute("transform", `rotate(${angle.toFixed(2)})`);
  }

  // ---------------- effects (layer-fx; every effect has class fx and fx-<kind>) ----------------

  /** A short-lived text bubble above a square. */
  bubble(x: number, y: number, text: string, tone: string): SVGGElement {
    // 17 units of text are 4 px on a phone's 23 px squares: grow the bubble so its text is at least
    // BUBBLE_MIN_PX on screen, whatever the board's size.
    const k = Math.min(4, Math.max(1, BUBBLE_MIN_PX / (BUBBLE_FONT * this.pxPerUnit())));
    const g = svgEl("g", {
      class: `fx fx-bubble bubble-${tone}`,
      transform: `translate(${x * TILE + TILE / 2} ${y * TILE + 8})${k > 1 ? ` scale(${k.toFixed(3)})` : ""}`,
    }, this.fx);
    const w = Math.max(36, text.length * 10 + 16);
    svgEl("rect", { x: -w / 2, y: -16, width: w, height: 26, rx: 8 }, g);
    svgEl("text", { y: 3, "text-anchor": "middle" }, g, text);
    return g;
  }

  /** CSS pixels per board unit as laid out now (1 when the board is not laid out, e.g. in a hidden tab). */
  private pxPerUnit(): number {
    const box = this.top.viewBox.baseVal;
    const width = this.top.getBoundingClientRect().width;
    return box && box.width > 0 && width > 0 ? width / box.width : 1;
  }

  burst(x: number, y: number): SVGGElement {
    const g = svgEl("g", { class: "fx fx-burst", transform: `translate(${x * TILE + TILE / 2} ${y * TILE + TILE / 2})` }, this.fx);
    let d = "";
    for (let i = 0; i < 10; i++) {
      const a = (i * Math.PI) / 5, r = i % 2 ? 18 : 44;
      d += `${i ? "L" : "M"}${(Math.cos(a) * r).toFixed(1)} ${(Math.sin(a) * r).toFixed(1)}`;
    }
    svgEl("path", { d: d + "z" }, g);
    return g;
  }

  /** A laser shot: `beams` parallel lines from the centre of `from` to the centre of `to`. */
  shot(from: Coord, to: Coord, dir: Dir | null, beams: number, source: string, hit: boolean, module = ""): SVGGElement {
    const g = svgEl("g", {
      class: `fx fx-shot shot-${source === "bot" ? "bot" : "laser"}${module ? ` shot-module-${module}` : ""}`,
    }, this.fx);
    // From the edge the beam enters `from` by (the shooter's front, or the laser's mounting side) to the
    // centre of the square it hits, or through to the far edge of the last square when it hits nothing.
    const [dx, dy] = dir ? DIR_STEP[dir] : [0, 0];
    const x1 = (from[0] + 0.5 - dx / 2) * TILE, y1 = (from[1] + 0.5 - dy / 2) * TILE;
    const reach = hit ? 0 : 0.5;
    const x2 = (to[0] + 0.5 + dx * reach) * TILE, y2 = (to[1] + 0.5 + dy * reach) * TILE;
    const horizontal = dir ? dir === "E" || dir === "W" : Math.abs(x2 - x1) >= Math.abs(y2 - y1);
    const n = Math.max(1, Math.min(3, beams));
    for (let i = 0; i < n; i++) {
      const off = (i - (n - 1) / 2) * 9;
      const ox = horizontal ? 0 : off, oy = horizontal ? off : 0;
      svgEl("line", { x1: x1 + ox, y1: y1 + oy, x2: x2 + ox, y2: y2 + oy, class: "shot-line" }, g);
    }
    if (hit) svgEl("circle", { cx: x2, cy: y2, r: 14, class: "shot-hit" }, g);
    return g;
  }

  /** A flash over a square (damage in red, repair in green). */
  flash(x: number, y: number, tone: "damage" | "repair" | "info"): SVGGElement {
    const g = svgEl("g", { class: `fx fx-flash flash-${tone}`, transform: `translate(${x * TILE} ${y * TILE})` }, this.fx);
    svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 12 }, g);
    return g;
  }

  describe(text: string): void {
    this.svg.setAttribute("aria-label", text);
  }
}

/** What the course elements remember between turns (engine state `board`); every field optional. */
export interface BoardMemory {
  broken?: Coord[];
  filled?: Coord[];
  field_hits?: [Coord, number][];
  fields_down?: Coord[];
  mirrors_broken?: Coord[];
  loop?: [Coord, Coord][];
  series_shown?: Coord[];
  dest_shown?: Coord[];
}

/** The how-to-play page (games/urls.py), where every element type has an anchor `element-<type>`. */
export const HOW_TO_PLAY = "/how-to-play/";

/** A legend for the element types a course uses: each drawn by the registry on a one-square board, each
 * linking to its explanation on the how-to-play page. */
export function drawLegend(
  parent: HTMLElement, course: Course,
  robotText = "Robot: seat colour and number, the nose shows its heading; ♥ lives, red badge damage; faded and dashed = virtual",
): HTMLDetailsElement {
  const details = document.createElement("details");
  details.className = "rr-legend";
  const summary = document.createElement("summary");
  summary.textContent = "Legend";
  const list = document.createElement("ul");
  details.append(summary, list);
  const elements = Array.isArray(course.elements) ? course.elements : [];
  // Each entry links to its explanation on the how-to-play page (an anchor per element type there).
  const entry = (draw: (svg: SVGSVGElement) => void, text: string, anchor: string): void => {
    const li = document.createElement("li");
    const svg = svgEl("svg", { viewBox: "-6 -6 112 112", "aria-hidden": "true", class: "legend-icon" });
    svgEl("rect", { x: 0, y: 0, width: 100, height: 100, class: "tile" }, svg);
    draw(svg);
    const link = document.createElement("a");
    link.href = `${HOW_TO_PLAY}#${anchor}`;
    link.textContent = text;
    li.append(svg, link);
    list.appendChild(li);
  };
  for (const [type, text] of Object.entries(LEGEND)) {
    const sample = elements.find((e) => e && e.type === type);
    if (!sample) continue;
    entry((svg) => drawSample(svg, sample), text, `element-${type}`);
  }
  entry((svg) => {
    const g = svgEl("g", { class: "legend-bot", transform: "translate(50 50) scale(0.8)" }, svg);
    svgEl("path", { d: "M0 -46L21 -20H-21z", class: "bot-nose", fill: "#1d4ed8" }, g);
    svgEl("circle", { r: 29, class: "bot-shell", fill: "#1d4ed8" }, g);
    svgEl("text", { y: 10, "text-anchor": "middle", class: "bot-label" }, g, "2");
  }, robotText, "robots");
  parent.appendChild(details);
  return details;
}
