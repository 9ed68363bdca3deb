// The course editor's edits on a course (model.ts re-exports them): rotate, remove, set a field, resize,
// select, move, copy and paste a rectangle, set the course's own properties. Pure: each returns a new course.
import type { Coord, Dir } from "../types";
import { DIRS, isCoord, isDir } from "../types";
import {
  copyValue, CW, EditError, inside, joinBelts, placeAll, specOf, withElements,
  type Catalog, type Clip, type EditorCourse, type EditorElement, type Rect,
} from "./model";

function rotateValue(kind: string, v: unknown): unknown {
  if (kind === "direction" && isDir(v)) return CW[v];
  if (kind === "sides" && Array.isArray(v)) return DIRS.filter((d) => v.map(String).includes(d === "N" ? "W" : d === "E" ? "N" : d === "S" ? "E" : "S"));
  return v;
}

/** Turn an element a quarter clockwise on its square: its direction fields, sides and its own side. */
export function rotateElement(catalog: Catalog, el: EditorElement): EditorElement {
  const spec = specOf(catalog, el.type);
  const out: EditorElement = { ...el };
  if (isDir(el.side)) out.side = CW[el.side];
  for (const f of spec?.fields ?? []) {
    if (f.name === "side" || !(f.name in el)) continue;
    out[f.name] = rotateValue(f.kind, el[f.name]);
  }
  return out;
}

/** Rotate the elements with these indices (a square's, a selection's) a quarter clockwise. */
export function rotate(course: EditorCourse, catalog: Catalog, indices: number[]): EditorCourse {
  const set = new Set(indices);
  const turned = course.elements.filter((_, i) => set.has(i)).map((e) => rotateElement(catalog, e));
  const rest = withElements(course, course.elements.filter((_, i) => !set.has(i)));
  return placeAll(rest, catalog, turned);
}

export function remove(course: EditorCourse, catalog: Catalog, indices: number[]): EditorCourse {
  const set = new Set(indices);
  const gone = course.elements.filter((_, i) => set.has(i)).map((e) => e.at).filter(isCoord);
  return joinBelts(withElements(course, course.elements.filter((_, i) => !set.has(i))), catalog, gone);
}

/** Change one field of one element (`undefined` removes an optional field). */
export function setField(course: EditorCourse, catalog: Catalog, index: number, name: string, value: unknown): EditorCourse {
  const el = course.elements[index];
  if (!el) throw new EditError(`no element ${index}`);
  const changed: EditorElement = { ...el };
  if (value === undefined) delete changed[name]; else changed[name] = copyValue(value);
  const rest = withElements(course, course.elements.filter((_, i) => i !== index));
  return placeAll(rest, catalog, [changed]);
}

/** A new size (1..max_side each way), keeping the elements that still lie on the course. */
export function resize(course: EditorCourse, width: number, height: number, maxSide = 64): EditorCourse {
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= maxSide;
  if (!ok(width) || !ok(height)) throw new EditError(`width and height must be whole numbers from 1 to ${maxSide}`);
  const next = { ...course, width, height };
  return withElements(next, course.elements.filter((e) => !isCoord(e.at) || inside(next, e.at)));
}

export function normRect(a: Coord, b: Coord): Rect {
  return { x0: Math.min(a[0], b[0]), y0: Math.min(a[1], b[1]), x1: Math.max(a[0], b[0]), y1: Math.max(a[1], b[1]) };
}

export function inRect(r: Rect, c: Coord | undefined): boolean {
  return isCoord(c) && c[0] >= r.x0 && c[0] <= r.x1 && c[1] >= r.y0 && c[1] <= r.y1;
}

export function selected(course: EditorCourse, r: Rect): number[] {
  const out: number[] = [];
  course.elements.forEach((e, i) => { if (inRect(r, e.at)) out.push(i); });
  return out;
}

function shifted(el: EditorElement, dx: number, dy: number): EditorElement {
  const at = el.at as Coord;
  return { ...copyValue(el), at: [at[0] + dx, at[1] + dy] };
}

/** Move what lies in the rectangle by (dx, dy): it replaces what fills the same slots there; what would
 * leave the course is dropped. */
export function moveRect(course: EditorCourse, catalog: Catalog, r: Rect, dx: number, dy: number): EditorCourse {
  const idx = new Set(selected(course, r));
  const moving = course.elements.filter((_, i) => idx.has(i)).map((e) => shifted(e, dx, dy));
  const rest = withElements(course, course.elements.filter((_, i) => !idx.has(i)));
  const old = course.elements.filter((_, i) => idx.has(i)).map((e) => e.at as Coord);
  return joinBelts(placeAll(rest, catalog, moving), catalog, old);
}

export function copyRect(course: EditorCourse, r: Rect): Clip {
  const elements = course.elements.filter((e) => inRect(r, e.at)).map((e) => shifted(e, -r.x0, -r.y0));
  return { width: r.x1 - r.x0 + 1, height: r.y1 - r.y0 + 1, elements };
}

export function paste(course: EditorCourse, catalog: Catalog, clip: Clip, at: Coord): EditorCourse {
  return placeAll(course, catalog, clip.elements.map((e) => shifted(e, at[0], at[1])));
}

/** Change the course's own properties (name, players, mode, rulesets, puzzle): `undefined` removes a key. */
export function setProps(course: EditorCourse, props: Partial<EditorCourse>): EditorCourse {
  const next: EditorCourse = { ...course };
  for (const [k, v] of Object.entries(props)) {
    if (k === "elements" || k === "width" || k === "height") continue;
    if (v === undefined) delete next[k]; else next[k] = copyValue(v);
  }
  return next;
}

/** The side of a square nearest a point inside it (tile-local coordinates 0..1). */
export function nearestSide(fx: number, fy: number): Dir {
  const d: [Dir, number][] = [["N", fy], ["S", 1 - fy], ["W", fx], ["E", 1 - fx]];
  d.sort((a, b) => a[1] - b[1]);
  return d[0][0];
}
