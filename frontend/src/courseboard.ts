// The course as SVG: the layers, the course drawn element by element through the registry in elements.ts,
// the check point colours, what the elements remember (BoardMemory), radiation and remains marks. The
// robots and the short-lived effects are drawn over it by board.ts (Board).
import { DIR_STEP, drawElement, OPPOSITE, svgEl, TILE, offerLines, upgradeSquareTitle, type DrawContext, type Layer } from "./elements";
import { upgradeLabel } from "./ruleset";
import type { Coord, Course, Dir, WallElement } from "./types";
import { isCoord, isDir } from "./types";

const PAD = 8;
/** Page height taken by the header, title and playback controls around the board (CSS px). */
const BOARD_CHROME = 210;

export class CourseBoard {
  /** The course (static; described for screen readers). */
  readonly svg: SVGSVGElement;
  /** Bots, marks and effects, in a second SVG laid over the course so that moving a bot repaints only
   * this light layer and not the whole course. */
  readonly top: SVGSVGElement;
  readonly wrap: HTMLDivElement;
  protected readonly layers: Record<Layer, SVGGElement>;
  protected readonly marks: SVGGElement;
  protected readonly remainsLayer: SVGGElement;
  readonly botsLayer: SVGGElement;
  readonly fx: SVGGElement;
  protected wallSet = new Set<string>();
  protected course: Course | null = null;
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
    const offers = new Map<string, string>();
    for (const offer of Array.isArray(b.offers) ? b.offers : []) {
      if (Array.isArray(offer) && typeof offer[1] === "string") offers.set(key(offer[0]), upgradeLabel(offer[1]));
    }
    for (const g of all("el-upgrade")) {
      const offer = offers.get(g.dataset.at ?? "") ?? null;
      const label = g.querySelector<SVGTextElement>("text.upgrade-offer");
      if (label && g.dataset.offer !== (offer ?? "")) {
        const lines = offerLines(offer ?? "");
        label.querySelectorAll("tspan").forEach((span, i) => {
          span.textContent = lines[i] ?? "";
          // A long line is squeezed to the square's width rather than spilling onto its neighbours.
          if ((lines[i] ?? "").length > 9) span.setAttribute("textLength", "88");
          else span.removeAttribute("textLength");
          span.setAttribute("lengthAdjust", "spacingAndGlyphs");
        });
        // One line sits lower, in the middle of the space under the tools.
        label.setAttribute("y", lines[1] ? "70" : "80");
      }
      const title = g.querySelector("title");
      const at = (g.dataset.at ?? "").split(",");
      if (title) title.textContent = `${upgradeSquareTitle(Number(g.dataset.amount) || 2, offer)} at (${at[0]},${at[1]})`;
      g.dataset.offer = offer ?? "";
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
    // Issue 37: most of the square wide, dark on the light floor (contrast above 3) with a light rim and bolts.
    svgEl("path", { d: "M14 82L28 50L44 60L58 34L74 52L88 82Z", class: "remains-heap" }, g);
    svgEl("circle", { cx: 36, cy: 70, r: 7, class: "remains-bolt" }, g);
    svgEl("rect", { x: 58, y: 60, width: 13, height: 13, rx: 2, class: "remains-bolt", transform: "rotate(20 64 66)" }, g);
    svgEl("path", { d: "M46 76L54 64", class: "remains-bar" }, g);
    return g;
  }

  /** The pieces on a square (several between the end of a drop and the end of the phase). */
  remainsAt(at: Coord): SVGGElement[] {
    return [...this.remainsLayer.querySelectorAll<SVGGElement>(`g.remains[data-at="${at[0]},${at[1]}"]`)];
  }

  describe(text: string): void {
    this.svg.setAttribute("aria-label", text);
  }
  /** CSS pixels per board unit as laid out now (1 when the board is not laid out, e.g. in a hidden tab). */
  protected pxPerUnit(): number {
    const box = this.top.viewBox.baseVal;
    const width = this.top.getBoundingClientRect().width;
    return box && box.width > 0 && width > 0 ? width / box.width : 1;
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
  /** classic: the upgrade offered on each wrench/hammer square, [square, upgrade, rounds offered]. */
  offers?: [Coord, string, number][];
}
