// The course editor's pure model: the course as plain JSON (docs/formats.md "Course"), the element catalog
// the engine lists (GET /api/course-elements/), and every edit as a function from a course to a new course.
// Nothing here touches the DOM or mutates its input: the page (editor.ts) keeps a History of courses.
// No element type is named here: what goes where comes from the catalog's layers and field kinds.
import type { Coord, Dir } from "../types";
import { DIRS, isCoord, isDir } from "../types";

export type FieldKind = "direction" | "whole" | "choice" | "phases" | "sides" | "flag" | "colour";

export interface FieldSpec {
  name: string;
  kind: FieldKind | string;
  choices?: (string | number)[];
  min?: number;
  max?: number;
  optional: boolean;
  default?: unknown;
}

/** An element type as the engine's element catalog gives it: `name` and `help` are the element's own words. */
export interface ElementSpec { type: string; name?: string; help?: string; layer: string; fields: FieldSpec[] }

export interface Catalog {
  elements: ElementSpec[];
  layers: string[];
  modes: string[];
  rulesets: string[];
  max_side: number;
}

/** An element of the course JSON: `type`, `at` and its fields, as the format has them. */
export interface EditorElement { type: string; at?: Coord; [field: string]: unknown }

/** A puzzle course's `puzzle` block (docs/formats.md "Puzzles"). */
export interface PuzzleGoal { type: "checkpoint" | "survive" | "destroy"; number?: number; turns?: number; targets?: string[] }
export interface PuzzleTarget { id: string; at: Coord; dir: Dir; program: string[] }
export interface PuzzleBlock {
  goal?: PuzzleGoal; turn_limit?: number; players?: number; seed?: number; targets?: PuzzleTarget[]; description?: string;
  [key: string]: unknown;
}

/** The block a course gets when its mode becomes "puzzle": reach check point 1 within 5 turns, alone. */
export function newPuzzleBlock(): PuzzleBlock {
  return { goal: { type: "checkpoint", number: 1 }, turn_limit: 5, players: 1, seed: 1, targets: [] };
}

/** A course as its JSON: unknown keys are kept as they are (so an import exports unchanged). */
export interface EditorCourse {
  format: string;
  name: string;
  width: number;
  height: number;
  mode?: string;
  players?: [number, number];
  rulesets?: string[];
  puzzle?: PuzzleBlock;
  elements: EditorElement[];
  [key: string]: unknown;
}

export interface Rect { x0: number; y0: number; x1: number; y1: number }

/** What Copy keeps: elements relative to the copied rectangle's north-west corner. */
export interface Clip { width: number; height: number; elements: EditorElement[] }

export const FORMAT = "roboracer-course/1";
/** Layers whose elements sit on a square's side (mount: per square and side; edge: per edge). */
export const SIDED_LAYERS = ["mount", "edge"];
export const STEP: Record<Dir, [number, number]> = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
export const OPP: Record<Dir, Dir> = { N: "S", E: "W", S: "N", W: "E" };
export const CW: Record<Dir, Dir> = { N: "E", E: "S", S: "W", W: "N" };

export class EditError extends Error {}

export function specOf(catalog: Catalog, type: string): ElementSpec | undefined {
  return catalog.elements.find((s) => s.type === type);
}

export function isSided(spec: ElementSpec | undefined): boolean {
  return !!spec && SIDED_LAYERS.includes(spec.layer);
}

export function newCourse(width = 8, height = 8, name = "New course"): EditorCourse {
  return { format: FORMAT, name, width, height, mode: "race", players: [1, 4], rulesets: ["roboracer"], elements: [] };
}

export function inside(course: EditorCourse, c: Coord): boolean {
  return c[0] >= 0 && c[1] >= 0 && c[0] < course.width && c[1] < course.height;
}

export function copyValue<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** List kinds: their `choices` name the allowed members of the list, not a value (docs/formats.md). */
export const LIST_KINDS = new Set(["phases", "sides"]);

/** The value a new element gets for a field: the catalog's default, else the first allowed value (for a
 * list kind, the fixed start below: `choices` lists what may be in the list). */
export function defaultValue(f: FieldSpec): unknown {
  if (f.default !== undefined) return copyValue(f.default);
  if (f.choices && f.choices.length && !LIST_KINDS.has(f.kind)) return f.choices[0];
  switch (f.kind) {
    case "direction": return "N";
    case "whole": return f.min ?? 1;
    case "phases": return [1, 3, 5];
    case "sides": return [];
    case "flag": return false;
    case "colour": return "red";
    default: return "";
  }
}

/** A new element of a catalog type at `at`, with every required field at its default (optional ones left out). */
export function makeElement(spec: ElementSpec, at: Coord, values: Record<string, unknown> = {}): EditorElement {
  const el: EditorElement = { type: spec.type, at: [at[0], at[1]] };
  for (const f of spec.fields) {
    if (Object.prototype.hasOwnProperty.call(values, f.name)) el[f.name] = copyValue(values[f.name]);
    else if (!f.optional) el[f.name] = defaultValue(f);
  }
  return el;
}

/**
 * Which slot an element fills: two elements with the same slot can't both be there, so placing one
 * replaces the other. Square layers: one per square and layer; mount: one per square and side; edge: one
 * per edge (side E of [x, y] is side W of [x+1, y]). Elements of types the catalog does not know fill no slot.
 */
export function slotOf(catalog: Catalog, el: EditorElement): string | null {
  const spec = specOf(catalog, el.type);
  if (!spec || !isCoord(el.at)) return null;
  const [x, y] = el.at;
  if (spec.layer === "edge" && isDir(el.side)) {
    const side = el.side as Dir;
    if (side === "E") return `edge:${x + 1},${y},W`;
    if (side === "S") return `edge:${x},${y + 1},N`;
    return `edge:${x},${y},${side}`;
  }
  if (spec.layer === "mount") return isDir(el.side) ? `mount:${x},${y},${el.side}` : null;
  return `${spec.layer}:${x},${y}`;
}

export function same(a: Coord | undefined, b: Coord): boolean {
  return isCoord(a) && a[0] === b[0] && a[1] === b[1];
}

/** Indices of the elements on a square (for sided elements: mounted on it, or on one of its edges). */
export function elementsAt(course: EditorCourse, at: Coord): number[] {
  const out: number[] = [];
  course.elements.forEach((e, i) => { if (same(e.at, at)) out.push(i); });
  return out;
}

export function withElements(course: EditorCourse, elements: EditorElement[]): EditorCourse {
  return { ...course, elements };
}

/** Put elements on the course, each replacing what fills the same slot; elements off the course are dropped. */
export function placeAll(course: EditorCourse, catalog: Catalog, added: EditorElement[]): EditorCourse {
  const fresh = added.filter((e) => isCoord(e.at) && inside(course, e.at));
  const slots = new Set(fresh.map((e) => slotOf(catalog, e)).filter((s): s is string => s !== null));
  const kept = course.elements.filter((e) => {
    const s = slotOf(catalog, e);
    return s === null || !slots.has(s);
  });
  // Later elements of `added` win over earlier ones on the same slot.
  const last = new Map<string, EditorElement>();
  const loose: EditorElement[] = [];
  for (const e of fresh) {
    const s = slotOf(catalog, e);
    if (s === null) loose.push(e); else { last.delete(s); last.set(s, e); }
  }
  const next = withElements(course, [...kept, ...last.values(), ...loose]);
  return joinBelts(next, catalog, fresh.map((e) => e.at as Coord));
}

export function place(course: EditorCourse, catalog: Catalog, el: EditorElement): EditorCourse {
  return placeAll(course, catalog, [el]);
}

/** The squares of a straight run from `a` toward `b`: along the axis where they differ most. */
export function runSquares(a: Coord, b: Coord): Coord[] {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const horizontal = Math.abs(dx) >= Math.abs(dy);
  const n = horizontal ? Math.abs(dx) : Math.abs(dy);
  const sx = horizontal ? Math.sign(dx) : 0, sy = horizontal ? 0 : Math.sign(dy);
  const out: Coord[] = [];
  for (let i = 0; i <= n; i++) out.push([a[0] + sx * i, a[1] + sy * i]);
  return out;
}

/** The heading of a run from `a` toward `b` (null for a single square). */
export function runDir(a: Coord, b: Coord): Dir | null {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  if (!dx && !dy) return null;
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? "E" : "W";
  return dy > 0 ? "S" : "N";
}

/**
 * A run of one element type from `a` to `b` (a belt line, a wall line): one element per square with the
 * same fields; an element with a `dir` field (a belt) points along the run when the run is longer than a square.
 */
export function placeRun(
  course: EditorCourse, catalog: Catalog, type: string, a: Coord, b: Coord, values: Record<string, unknown> = {},
): EditorCourse {
  const spec = specOf(catalog, type);
  if (!spec) throw new EditError(`unknown element type '${type}'`);
  const heading = runDir(a, b);
  const dirField = spec.fields.find((f) => f.name === "dir" && f.kind === "direction");
  const fields = { ...values };
  if (heading && dirField && !isSided(spec)) fields.dir = heading;
  return placeAll(course, catalog, autoNumber(course, catalog, runSquares(a, b).map((at) => makeElement(spec, at, fields))));
}

/** The field that numbers an element among those of its type (starts, check points): a required whole
 * field named `number`. */
function numberField(spec: ElementSpec | undefined): FieldSpec | null {
  return spec?.fields.find((f) => f.name === "number" && f.kind === "whole" && !f.optional) ?? null;
}

/**
 * Numbered types are numbered as they are placed: a new element whose number another element of its type
 * already has (one it does not replace) gets the lowest free number in the field's range instead, so a
 * second start placed with the tool's "1" becomes start 2. With no number free it keeps its own (the
 * validator says why). `added` is not changed; the elements that needed a new number are copies.
 */
export function autoNumber(course: EditorCourse, catalog: Catalog, added: EditorElement[]): EditorElement[] {
  const replaced = new Set(added.map((e) => slotOf(catalog, e)).filter((s): s is string => s !== null));
  const used = new Map<string, Set<number>>();
  const taken = (type: string) => {
    let set = used.get(type);
    if (!set) { set = new Set(); used.set(type, set); }
    return set;
  };
  for (const e of course.elements) {
    const slot = slotOf(catalog, e);
    if (slot !== null && replaced.has(slot)) continue;
    if (typeof e.number === "number" && numberField(specOf(catalog, e.type))) taken(e.type).add(e.number);
  }
  return added.map((e) => {
    const f = numberField(specOf(catalog, e.type));
    if (!f || typeof e.number !== "number") return e;
    const set = taken(e.type);
    let n = e.number;
    if (set.has(n)) {
      const lo = f.min ?? 1, hi = f.max ?? lo + set.size + 1;
      for (let k = lo; k <= hi; k++) if (!set.has(k)) { n = k; break; }
    }
    set.add(n);
    return n === e.number ? e : { ...e, number: n };
  });
}

/** The field of a catalog type that holds the sides a bot is turned from by a joining belt (kind "sides"
 * on a type with a `dir` direction on a tile). */
function curvesField(spec: ElementSpec | undefined): string | null {
  if (!spec || isSided(spec) || !spec.fields.some((f) => f.name === "dir" && f.kind === "direction")) return null;
  const f = spec.fields.find((g) => g.kind === "sides" && g.name === "curves_from");
  return f ? f.name : null;
}

/**
 * Belts join their curves: for every belt on or next to `around`, the sides across its direction from
 * which another belt runs into it become its `curves_from` (sorted N, E, S, W). A belt fed from behind
 * runs straight on; belts elsewhere keep what they had (an import stays as it was).
 */
export function joinBelts(course: EditorCourse, catalog: Catalog, around: Coord[]): EditorCourse {
  const beltAt = new Map<string, number>();
  course.elements.forEach((e, i) => {
    if (isCoord(e.at) && isDir(e.dir) && curvesField(specOf(catalog, e.type))) beltAt.set(`${e.at[0]},${e.at[1]}`, i);
  });
  const touched = new Set<number>();
  for (const [x, y] of around) {
    for (const [dx, dy] of [[0, 0], [0, -1], [1, 0], [0, 1], [-1, 0]]) {
      const i = beltAt.get(`${x + dx},${y + dy}`);
      if (i !== undefined) touched.add(i);
    }
  }
  if (!touched.size) return course;
  const elements = course.elements.slice();
  for (const i of touched) {
    const belt = elements[i];
    const dir = belt.dir as Dir;
    const [x, y] = belt.at as Coord;
    const from: Dir[] = [];
    for (const side of DIRS) {
      if (side === dir || side === OPP[dir]) continue;
      const [dx, dy] = STEP[side];
      const j = beltAt.get(`${x + dx},${y + dy}`);
      if (j !== undefined && elements[j].dir === OPP[side]) from.push(side);
    }
    const field = curvesField(specOf(catalog, belt.type)) as string;
    const old = Array.isArray(belt[field]) ? (belt[field] as string[]) : [];
    if (old.length !== from.length || old.some((s, k) => s !== from[k])) elements[i] = { ...belt, [field]: from };
  }
  return withElements(course, elements);
}

/** Parse an imported file. Throws EditError for what is not a course JSON object at all; everything
 * else is the validator's to judge. */
export function parseCourse(text: string): EditorCourse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new EditError(`not JSON: ${(e as Error).message}`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new EditError("a course is a JSON object");
  const c = data as EditorCourse;
  if (!Array.isArray(c.elements)) throw new EditError("a course has a list of 'elements'");
  return c;
}

export function exportCourse(course: EditorCourse): string {
  return JSON.stringify(course, null, 2) + "\n";
}

/** Undo and redo over immutable values. */
export class History<T> {
  private past: T[] = [];
  private future: T[] = [];
  constructor(public current: T, private readonly limit = 200) {}

  push(next: T): T {
    if (next === this.current) return next;
    this.past.push(this.current);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
    this.current = next;
    return next;
  }

  undo(): T | null {
    const prev = this.past.pop();
    if (prev === undefined) return null;
    this.future.push(this.current);
    this.current = prev;
    return prev;
  }

  redo(): T | null {
    const next = this.future.pop();
    if (next === undefined) return null;
    this.past.push(this.current);
    this.current = next;
    return next;
  }

  get canUndo(): boolean { return this.past.length > 0; }
  get canRedo(): boolean { return this.future.length > 0; }
}

/**
 * A keyboard shortcut for every tool: fixed keys for the editor's own tools, then for each element type
 * (catalog order) the first free letter of its name, then the same letters with Shift, then any free key.
 */
export function shortcuts(types: string[], reserved: string[]): Map<string, string> {
  const taken = new Set(reserved.map((k) => k));
  const out = new Map<string, string>();
  const pool = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (const type of types) {
    const letters = [...type.toLowerCase()].filter((ch) => /[a-z]/.test(ch));
    const tries = [...letters, ...letters.map((c) => c.toUpperCase()), ...pool, ...pool.toUpperCase()];
    const key = tries.find((k) => !taken.has(k));
    if (key === undefined) continue;
    taken.add(key);
    out.set(type, key);
  }
  return out;
}

export * from "./edits";
