// The drawing kit of the course elements (elements.ts, elements-rules.ts): SVG elements, the square's size
// and sides, the DrawContext a drawer draws through, and the small checks every drawer shares.
import type { Coord, CourseElement, Dir } from "./types";

export const TILE = 100;
const SVG_NS = "http://www.w3.org/2000/svg";

export type Attrs = Record<string, string | number>;

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
export const MIRROR_TURN: Record<string, Dir> = {
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

export function phasesText(phases: unknown): string {
  return Array.isArray(phases) ? phases.join("·") : "";
}

export function need<T>(ok: boolean, value: T): T {
  if (!ok) throw new Error("malformed element");
  return value;
}
