// The editor's board: the game's own Board (board.ts) draws the course; this adds what only the editor
// shows on top of it (the keyboard cursor, the run or rectangle being dragged, the selection, squares a
// validation message points at, labels for types the renderer can't draw) and turns pointer positions
// into squares and sides. Palette icons are drawn by the same element registry on a one-square board.
import { Board, TILE } from "../board";
import { drawSample, ELEMENTS, svgEl } from "../elements";
import type { Coord, Course, CourseElement, Dir } from "../types";
import { isCoord } from "../types";
import { type EditorCourse, type EditorElement, nearestSide, type Rect } from "./model";

export interface BoardPoint { at: Coord; side: Dir; inside: boolean }

const SIDE_LINE: Record<Dir, [number, number, number, number]> = {
  N: [0, 0, 100, 0], E: [100, 0, 100, 100], S: [0, 100, 100, 100], W: [0, 0, 0, 100],
};

export class EditorBoard {
  readonly board: Board;
  private readonly overlay: SVGGElement;
  private readonly cursorG: SVGGElement;
  private readonly marksG: SVGGElement;
  private course: EditorCourse | null = null;

  constructor(parent: HTMLElement) {
    this.board = new Board(parent);
    this.board.wrap.classList.add("ed-board");
    this.overlay = svgEl("g", { class: "ed-overlay" }, this.board.top);
    this.marksG = svgEl("g", { class: "ed-marks" }, this.overlay);
    this.cursorG = svgEl("g", { class: "ed-cursor-layer" }, this.overlay);
  }

  draw(course: EditorCourse): void {
    this.course = course;
    this.board.drawCourse(course as unknown as Course);
    this.board.describe(`${course.name || "Untitled course"}, ${course.width} by ${course.height}, ${course.elements.length} elements`);
    // Types the renderer has no drawing for get a labelled placeholder (the registry draws a "?").
    const labels = svgEl("g", { class: "ed-placeholders" });
    for (const e of course.elements) {
      if (!isCoord(e.at) || Object.prototype.hasOwnProperty.call(ELEMENTS, e.type)) continue;
      placeholder(labels, e, e.at);
    }
    this.marksG.replaceChildren(labels);
  }

  /** The square (and the side of it nearest the point) under a client position. */
  pointAt(clientX: number, clientY: number): BoardPoint | null {
    const svg = this.board.svg;
    const m = svg.getScreenCTM?.();
    if (!m || !this.course) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    const fx = p.x / TILE, fy = p.y / TILE;
    const x = Math.floor(fx), y = Math.floor(fy);
    const c = this.course;
    return {
      at: [x, y], side: nearestSide(fx - x, fy - y),
      inside: x >= 0 && y >= 0 && x < c.width && y < c.height,
    };
  }

  /** The keyboard cursor (a square outline; a sided tool also marks its side). */
  cursor(at: Coord | null, side: Dir | null): void {
    this.cursorG.replaceChildren();
    if (!at) return;
    const g = svgEl("g", { class: "ed-cursor", transform: `translate(${at[0] * TILE} ${at[1] * TILE})` }, this.cursorG);
    svgEl("rect", { x: 3, y: 3, width: 94, height: 94, rx: 6 }, g);
    if (side) {
      const [x1, y1, x2, y2] = SIDE_LINE[side];
      svgEl("line", { x1, y1, x2, y2, class: "ed-cursor-side" }, g);
    }
  }

  /** Squares to show: the run or rectangle being drawn, the selection, a validation message's squares. */
  mark(kind: "preview" | "selection" | "problem", squares: Coord[] | Rect | null): void {
    for (const old of this.overlay.querySelectorAll(`.ed-${kind}`)) old.remove();
    if (!squares) return;
    const g = svgEl("g", { class: `ed-${kind}` });
    if (Array.isArray(squares)) {
      for (const [x, y] of squares) svgEl("rect", { x: x * TILE + 4, y: y * TILE + 4, width: TILE - 8, height: TILE - 8, rx: 8 }, g);
    } else {
      const r = squares;
      svgEl("rect", {
        x: r.x0 * TILE + 2, y: r.y0 * TILE + 2, width: (r.x1 - r.x0 + 1) * TILE - 4, height: (r.y1 - r.y0 + 1) * TILE - 4, rx: 8,
      }, g);
    }
    this.overlay.insertBefore(g, this.cursorG);
  }
}

function placeholder(parent: SVGGElement, e: EditorElement | CourseElement, at: Coord): void {
  const g = svgEl("g", { class: "ed-placeholder", transform: `translate(${at[0] * TILE} ${at[1] * TILE})` }, parent);
  svgEl("rect", { x: 8, y: 30, width: 84, height: 40, rx: 6 }, g);
  svgEl("text", { x: 50, y: 56, "text-anchor": "middle" }, g, String(e.type).replace(/_/g, " ").slice(0, 10));
}

/** A palette icon: the element drawn by the game's registry on one square (a labelled box if it has none). */
export function paletteIcon(sample: EditorElement): SVGSVGElement {
  const svg = svgEl("svg", { viewBox: "-6 -6 112 112", "aria-hidden": "true", class: "ed-icon" });
  svgEl("rect", { x: 0, y: 0, width: 100, height: 100, class: "tile" }, svg);
  if (!Object.prototype.hasOwnProperty.call(ELEMENTS, sample.type)) {
    placeholder(svgEl("g", {}, svg), sample, [0, 0]);
    return svg;
  }
  drawSample(svg, sample as CourseElement);
  return svg;
}
