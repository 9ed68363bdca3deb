// Unit checks of the course editor's pure model (src/editor/model.ts): placing and replacing on a layer,
// edges and mounts on sides, runs, belts joining their curves, rotation, resize, rectangle move/copy/paste,
// undo/redo, shortcuts, and an import/export round trip of every bundled course.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import catalogJson from "../dev/catalog.json";
import {
  autoNumber, type Catalog, copyRect, type EditorCourse, elementsAt, exportCourse, History, makeElement, moveRect, nearestSide,
  newCourse, normRect, parseCourse, paste, place, placeRun, remove, resize, rotate, runSquares, setField, setProps,
  shortcuts, slotOf, specOf,
} from "../src/editor/model";

// The catalog as engine.element_catalog() lists it (a copy kept in frontend/dev/ for the dev harness).
const catalog = catalogJson as unknown as Catalog;
const el = (type: string, x: number, y: number, values: Record<string, unknown> = {}) =>
  makeElement(specOf(catalog, type)!, [x, y], values);
const types = (c: EditorCourse) => c.elements.map((e) => `${e.type}@${(e.at ?? []).join(",")}`).sort();
const belt = (c: EditorCourse, x: number, y: number) => c.elements.find((e) => e.type === "belt" && e.at?.[0] === x && e.at?.[1] === y);

test("placing fills required fields with defaults and never mutates the input", () => {
  const c0 = newCourse(4, 4);
  const frozen = JSON.stringify(c0);
  const c1 = place(c0, catalog, el("belt", 1, 1));
  assert.equal(JSON.stringify(c0), frozen);
  assert.deepEqual(c1.elements, [{ type: "belt", at: [1, 1], dir: "N", speed: 1, curves_from: [] }]);
  // optional fields stay out unless given
  const c2 = place(c1, catalog, el("force_field", 2, 2));
  assert.deepEqual(c2.elements[1], { type: "force_field", at: [2, 2] });
});

test("an element replaces the one on the same layer of its square, and shares the square with other layers", () => {
  let c = newCourse(4, 4);
  c = place(c, catalog, el("belt", 1, 1));
  c = place(c, catalog, el("pit", 1, 1)); // tile replaces tile
  assert.deepEqual(types(c), ["pit@1,1"]);
  c = place(c, catalog, el("crusher", 2, 2));
  c = place(c, catalog, el("start", 2, 2));
  c = place(c, catalog, el("checkpoint", 2, 2)); // marker replaces marker
  assert.deepEqual(types(c), ["checkpoint@2,2", "crusher@2,2", "pit@1,1"]);
  assert.deepEqual(elementsAt(c, [2, 2]).length, 2);
  // off the course: nothing placed
  assert.deepEqual(types(place(c, catalog, el("pit", 4, 0))), types(c));
});

test("edges are one per edge (E of a square is W of the next), mounts one per square and side", () => {
  let c = newCourse(4, 4);
  c = place(c, catalog, el("wall", 1, 1, { side: "E" }));
  c = place(c, catalog, el("window", 2, 1, { side: "W" })); // the same edge
  assert.deepEqual(c.elements, [{ type: "window", at: [2, 1], side: "W" }]);
  c = place(c, catalog, el("wall", 2, 1, { side: "N" })); // another edge of that square
  assert.equal(c.elements.length, 2);
  assert.equal(slotOf(catalog, el("wall", 1, 1, { side: "S" })), slotOf(catalog, el("wall", 1, 2, { side: "N" })));
  c = place(c, catalog, el("laser", 0, 0, { side: "W", beams: 2 }));
  c = place(c, catalog, el("pusher", 0, 0, { side: "N" }));
  assert.equal(c.elements.length, 4);
  c = place(c, catalog, el("pusher", 0, 0, { side: "W" })); // replaces the laser on side W
  assert.deepEqual(types(c).filter((t) => t.endsWith("@0,0")), ["pusher@0,0", "pusher@0,0"]);
  assert.ok(!c.elements.some((e) => e.type === "laser"));
});

test("the side nearest the pointer", () => {
  assert.equal(nearestSide(0.5, 0.1), "N");
  assert.equal(nearestSide(0.9, 0.5), "E");
  assert.equal(nearestSide(0.4, 0.95), "S");
  assert.equal(nearestSide(0.05, 0.6), "W");
});

test("a run places one element per square along the longer axis; belts point along it", () => {
  assert.deepEqual(runSquares([0, 0], [3, 1]), [[0, 0], [1, 0], [2, 0], [3, 0]]);
  assert.deepEqual(runSquares([2, 3], [2, 1]), [[2, 3], [2, 2], [2, 1]]);
  let c = placeRun(newCourse(5, 5), catalog, "belt", [3, 2], [0, 2], { speed: 2 });
  assert.deepEqual(c.elements.map((e) => [e.at, e.dir, e.speed]), [[[3, 2], "W", 2], [[2, 2], "W", 2], [[1, 2], "W", 2], [[0, 2], "W", 2]]);
  c = placeRun(c, catalog, "wall", [0, 0], [4, 0], { side: "N" });
  assert.equal(c.elements.filter((e) => e.type === "wall" && e.side === "N").length, 5);
  // a run past the edge keeps the squares on the course
  assert.equal(placeRun(newCourse(3, 3), catalog, "pit", [1, 1], [6, 1]).elements.length, 2);
});

test("belts join their curves: a belt fed from the side curves from that side", () => {
  // a line east along row 0 ending at (2,0), then a line south from (2,0): the corner turns
  let c = placeRun(newCourse(5, 5), catalog, "belt", [0, 0], [2, 0]);
  c = placeRun(c, catalog, "belt", [2, 0], [2, 3]);
  assert.deepEqual(belt(c, 2, 0), { type: "belt", at: [2, 0], dir: "S", speed: 1, curves_from: ["W"] });
  assert.deepEqual(belt(c, 2, 1)?.curves_from, []); // fed from behind: straight
  // a second feeder from the east makes a T: both sides
  c = place(c, catalog, el("belt", 3, 0, { dir: "W" }));
  assert.deepEqual(belt(c, 2, 0)?.curves_from, ["E", "W"]);
  // turning the west feeder away undoes its curve
  const i = c.elements.findIndex((e) => e.type === "belt" && e.at?.[0] === 1 && e.at?.[1] === 0);
  c = rotate(c, catalog, [i]); // E -> S: now runs into (1,1), not into the corner
  assert.deepEqual(belt(c, 2, 0)?.curves_from, ["E"]);
  // deleting the other feeder leaves a straight belt
  c = remove(c, catalog, [c.elements.findIndex((e) => e.type === "belt" && e.at?.[0] === 3)]);
  assert.deepEqual(belt(c, 2, 0)?.curves_from, []);
  // a belt pointing away from its neighbour is not a feeder
  const d = placeRun(place(newCourse(3, 3), catalog, el("belt", 0, 1, { dir: "W" })), catalog, "belt", [1, 0], [1, 2]);
  assert.deepEqual(belt(d, 1, 1)?.curves_from, []);
});

test("rotate turns directions, sides and side lists a quarter clockwise", () => {
  let c = newCourse(4, 4);
  c = place(c, catalog, el("laser", 1, 1, { side: "N", beams: 3 }));
  c = place(c, catalog, el("rail", 2, 2, { sides: ["N", "E"] }));
  c = place(c, catalog, el("one_way_wall", 0, 0, { side: "S", dir: "S" }));
  c = rotate(c, catalog, [0, 1, 2]);
  const by = (t: string) => c.elements.find((e) => e.type === t)!;
  assert.equal(by("laser").side, "E");
  assert.equal(by("laser").beams, 3);
  assert.deepEqual(by("rail").sides, ["E", "S"]);
  assert.deepEqual([by("one_way_wall").side, by("one_way_wall").dir], ["W", "W"]);
  for (let k = 0; k < 3; k++) c = rotate(c, catalog, [c.elements.findIndex((e) => e.type === "rail")]);
  assert.deepEqual(by("rail").sides, ["N", "E"]);
});

test("fields change through setField; the course's own properties through setProps", () => {
  let c = place(newCourse(4, 4), catalog, el("force_field", 1, 1));
  c = setField(c, catalog, 0, "strength", 4);
  assert.equal(c.elements[0].strength, 4);
  c = setField(c, catalog, 0, "strength", undefined);
  assert.ok(!("strength" in c.elements[0]));
  const block = { goal: { type: "checkpoint" as const, number: 1 }, turn_limit: 5 };
  c = setProps(c, { name: "Yard", mode: "puzzle", puzzle: block, players: [1, 1] });
  assert.deepEqual([c.name, c.mode, c.puzzle, c.players], ["Yard", "puzzle", block, [1, 1]]);
  c = setProps(c, { puzzle: undefined, mode: "race" });
  assert.ok(!("puzzle" in c));
});

test("resize keeps what still fits and refuses sizes the format does not allow", () => {
  let c = newCourse(6, 6);
  c = place(c, catalog, el("pit", 5, 5));
  c = place(c, catalog, el("pit", 2, 2));
  c = place(c, catalog, el("wall", 3, 0, { side: "E" }));
  const small = resize(c, 4, 3);
  assert.deepEqual(types(small), ["pit@2,2", "wall@3,0"]);
  assert.deepEqual([small.width, small.height], [4, 3]);
  assert.deepEqual(types(resize(small, 64, 1)), ["wall@3,0"]);
  assert.throws(() => resize(c, 0, 4), /1 to 64/);
  assert.throws(() => resize(c, 65, 4), /1 to 64/);
  assert.throws(() => resize(c, 2.5, 4), /whole/);
});

test("select a rectangle, move it (replacing and dropping what leaves), copy and paste it", () => {
  let c = newCourse(6, 6);
  c = place(c, catalog, el("pit", 0, 0));
  c = place(c, catalog, el("start", 1, 1, { number: 1, dir: "E" }));
  c = place(c, catalog, el("repair", 3, 3));
  const r = normRect([1, 1], [0, 0]);
  assert.deepEqual(r, { x0: 0, y0: 0, x1: 1, y1: 1 });
  const moved = moveRect(c, catalog, r, 2, 2); // onto (2,2)-(3,3): pit replaces the repair on (3,3)'s tile? no: pit goes to (2,2)
  assert.deepEqual(types(moved), ["pit@2,2", "repair@3,3", "start@3,3"]);
  const over = moveRect(c, catalog, r, 3, 3); // the pit lands on (3,3) and replaces the repair
  assert.deepEqual(types(over), ["pit@3,3", "start@4,4"]);
  assert.deepEqual(types(moveRect(c, catalog, r, -1, 0)), ["repair@3,3", "start@0,1"]); // the pit fell off
  const clip = copyRect(c, r);
  assert.deepEqual([clip.width, clip.height, clip.elements.length], [2, 2, 2]);
  const pasted = paste(c, catalog, clip, [4, 4]);
  assert.deepEqual(types(pasted), ["pit@0,0", "pit@4,4", "repair@3,3", "start@1,1", "start@5,5"]);
  assert.deepEqual(types(c), ["pit@0,0", "repair@3,3", "start@1,1"]); // the original is untouched
});

test("undo and redo walk the history; a new change drops the redo branch", () => {
  const h = new History(newCourse(4, 4));
  const a = h.push(place(h.current, catalog, el("pit", 0, 0)));
  h.push(place(a, catalog, el("pit", 1, 0)));
  assert.equal(h.current.elements.length, 2);
  assert.equal(h.undo()?.elements.length, 1);
  assert.equal(h.undo()?.elements.length, 0);
  assert.equal(h.undo(), null);
  assert.equal(h.redo()?.elements.length, 1);
  assert.ok(h.canRedo);
  h.push(place(h.current, catalog, el("oil", 3, 3)));
  assert.equal(h.canRedo, false);
  assert.deepEqual(types(h.current), ["oil@3,3", "pit@0,0"]);
});

test("every tool gets its own shortcut, none of the reserved keys", () => {
  const all = catalog.elements.map((s) => s.type);
  const reserved = ["s", "x", "r", "?"];
  const keys = shortcuts(all, reserved);
  assert.equal(keys.size, all.length);
  const values = [...keys.values()];
  assert.equal(new Set(values).size, values.length);
  for (const r of reserved) assert.ok(!values.includes(r));
  assert.equal(keys.get("wall"), "w");
  assert.equal(keys.get("belt"), "b");
});

test("every bundled course imports and exports unchanged", () => {
  // npm test runs in frontend/ (the test is bundled elsewhere, so import.meta.url would not help)
  const dir = join(process.cwd(), "..", "engine", "courses");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  assert.ok(files.length >= 5);
  for (const f of files) {
    const text = readFileSync(join(dir, f), "utf8");
    const course = parseCourse(text);
    assert.deepEqual(JSON.parse(exportCourse(course)), JSON.parse(text), f);
    // an edit far away from everything leaves every other element as it was
    const edited = place(course, catalog, el("pit", course.width - 1, course.height - 1));
    const rest = (c: EditorCourse) => c.elements.filter((e) => !(e.at?.[0] === course.width - 1 && e.at?.[1] === course.height - 1));
    assert.deepEqual(rest(edited).map((e) => JSON.stringify(e)).sort(), rest(course).map((e) => JSON.stringify(e)).sort(), f);
  }
  assert.throws(() => parseCourse("{nope"), /not JSON/);
  assert.throws(() => parseCourse("[1]"), /JSON object/);
  assert.throws(() => parseCourse('{"name": "x"}'), /elements/);
});

test("list fields (phases, sides) start as lists even when the catalog lists their allowed members", () => {
  for (const spec of catalog.elements) {
    const el = makeElement(spec, [0, 0]);
    for (const f of spec.fields) {
      if (f.optional) continue;
      if (f.kind === "phases" || f.kind === "sides") assert.ok(Array.isArray(el[f.name]), `${spec.type}.${f.name}`);
      else if (f.choices?.length) assert.ok(f.choices.includes(el[f.name] as never), `${spec.type}.${f.name}`);
    }
  }
  const belt = makeElement(catalog.elements.find((s) => s.type === "belt")!, [0, 0]);
  assert.deepEqual(belt.curves_from, []);
});

test("a new start or check point takes the lowest free number of its type, never a taken one", () => {
  let c = newCourse(6, 6);
  c = place(c, catalog, el("start", 0, 5));
  // the tool says 1 again: the second start becomes 2, the third 3
  const [second] = autoNumber(c, catalog, [el("start", 1, 5)]);
  assert.equal(second.number, 2);
  c = place(c, catalog, second);
  c = placeRun(c, catalog, "start", [2, 5], [4, 5], { number: 1, dir: "N" });
  assert.deepEqual(c.elements.filter((e) => e.type === "start").map((e) => e.number).sort(), [1, 2, 3, 4, 5]);
  // check points are numbered on their own; a free number asked for is kept
  assert.equal(autoNumber(c, catalog, [el("checkpoint", 0, 0)])[0].number, 1);
  assert.equal(autoNumber(c, catalog, [el("start", 0, 0, { number: 7 })])[0].number, 7);
  // replacing start 1 on its own square keeps number 1 (the old one goes)
  assert.equal(autoNumber(c, catalog, [el("start", 0, 5)])[0].number, 1);
  // the gap left by a deleted start is filled first
  const without2 = remove(c, catalog, [c.elements.findIndex((e) => e.type === "start" && e.number === 2)]);
  assert.equal(autoNumber(without2, catalog, [el("start", 5, 0)])[0].number, 2);
  // no number free (8 starts, the most): the element keeps its own and the validator will say why
  let full = newCourse(8, 8);
  full = placeRun(full, catalog, "start", [0, 7], [7, 7], { number: 1, dir: "N" });
  assert.equal(autoNumber(full, catalog, [el("start", 0, 0)])[0].number, 1);
  // the input elements are not changed
  const mine = el("start", 3, 3);
  autoNumber(c, catalog, [mine]);
  assert.equal(mine.number, 1);
  // other types pass through untouched
  const b = el("belt", 1, 1);
  assert.equal(autoNumber(c, catalog, [b])[0], b);
});
