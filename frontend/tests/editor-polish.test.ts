// Unit checks of the editor fixes from issue 17's user trial: the local copy of unsaved work (key per
// course, what is stored, when a copy is offered), the wording (validator messages, squares, field labels,
// the new course's title) and the tool list the palette and the phone's tool strip share.
import assert from "node:assert/strict";
import { test } from "node:test";
import catalogJson from "../dev/catalog.json";
import {
  canonical, differs, draftKey, type DraftStorage, dropDraft, loadDraft, makeDraft, offerText, readDraft, storeDraft,
} from "../src/editor/draft";
import { type Catalog, newCourse, place, makeElement, specOf } from "../src/editor/model";
import { fieldLabel, problemText, squareText, titleText, toolList } from "../src/editor/wording";

const catalog = catalogJson as unknown as Catalog;

class MemoryStorage implements DraftStorage {
  readonly items = new Map<string, string>();
  getItem(k: string): string | null { return this.items.get(k) ?? null; }
  setItem(k: string, v: string): void { this.items.set(k, v); }
  removeItem(k: string): void { this.items.delete(k); }
}

test("each course has its own local copy; a course not saved yet uses 'new'", () => {
  assert.equal(draftKey("tiny-yard"), "roboracer.editor.draft.tiny-yard");
  assert.equal(draftKey(null), "roboracer.editor.draft.new");
  assert.equal(draftKey(undefined), "roboracer.editor.draft.new");
  assert.equal(draftKey(""), "roboracer.editor.draft.new");
  assert.notEqual(draftKey("new-course"), draftKey(null));
});

test("the stored copy is the whole working course with the time it was written, read back unchanged", () => {
  const course = { ...place(newCourse(4, 3, "Loop"), catalog, makeElement(specOf(catalog, "pit")!, [1, 1])), author: "kept" };
  const storage = new MemoryStorage();
  assert.ok(storeDraft(storage, draftKey("loop"), makeDraft(course, 1_700_000_000_000)));
  const raw = JSON.parse(storage.getItem("roboracer.editor.draft.loop")!);
  assert.deepEqual(Object.keys(raw).sort(), ["at", "course", "v"]);
  assert.equal(raw.at, 1_700_000_000_000);
  const back = loadDraft(storage, draftKey("loop"));
  assert.deepEqual(back, { v: 1, at: 1_700_000_000_000, course });
  assert.equal(back?.course.author, "kept"); // unknown keys survive, as in an export
  dropDraft(storage, draftKey("loop"));
  assert.equal(loadDraft(storage, draftKey("loop")), null);
});

test("what is not a copy of ours is ignored, and a storage that throws never breaks the editor", () => {
  for (const text of [null, "", "not json", "[]", "42", '{"v":1,"at":5}', '{"v":2,"at":5,"course":{"width":1,"height":1,"elements":[]}}',
    '{"v":1,"at":"yesterday","course":{"width":1,"height":1,"elements":[]}}', '{"v":1,"at":5,"course":{"width":1,"height":1}}']) {
    assert.equal(readDraft(text), null, String(text));
  }
  const broken: DraftStorage = {
    getItem() { throw new Error("denied"); },
    setItem() { throw new Error("quota"); },
    removeItem() { throw new Error("denied"); },
  };
  assert.equal(storeDraft(broken, draftKey("x"), makeDraft(newCourse(), 1)), false);
  assert.equal(loadDraft(broken, draftKey("x")), null);
  assert.doesNotThrow(() => dropDraft(broken, draftKey("x")));
  assert.equal(storeDraft(null, draftKey("x"), makeDraft(newCourse(), 1)), false);
});

test("a copy is offered only when it differs from the loaded course, whatever the key order", () => {
  const loaded = newCourse(8, 8);
  assert.equal(differs(null, loaded), false);
  const reordered = JSON.parse(JSON.stringify({ elements: [], ...loaded }));
  assert.equal(differs(makeDraft(reordered, 1), loaded), false);
  assert.equal(canonical({ b: 1, a: [1, { d: 2, c: 3 }] }), canonical({ a: [1, { c: 3, d: 2 }], b: 1 }));
  const edited = place(loaded, catalog, makeElement(specOf(catalog, "pit")!, [0, 0]));
  assert.equal(differs(makeDraft(edited, 1), loaded), true);
  assert.equal(differs(makeDraft({ ...loaded, name: "Other" }, 1), loaded), true);
  // element order matters: it is the course's JSON as exported
  const two = place(edited, catalog, makeElement(specOf(catalog, "start")!, [1, 1]));
  assert.equal(differs(makeDraft({ ...two, elements: [...two.elements].reverse() }, 1), two), true);
});

test("the offer names when the copy was written", () => {
  const at = new Date(2026, 10, 23, 9, 5).getTime();
  assert.equal(offerText(at, new Date(2026, 10, 23, 18, 0).getTime()), "Restore your unsaved changes from 09:05?");
  assert.equal(offerText(at, new Date(2026, 10, 24, 8, 0).getTime()), "Restore your unsaved changes from 2026-11-23 09:05?");
});

test("validator messages lose a leading 'course: ' and write squares as (x, y)", () => {
  assert.equal(problemText("course: two starts have number 1"), "two starts have number 1");
  assert.equal(problemText("course: 4 players need 4 starts, found 2"), "4 players need 4 starts, found 2");
  assert.equal(problemText("elements[3] (belt): 'speed' must be one of 1, 2, 3, 5, got 4"), "elements[3] (belt): 'speed' must be one of 1, 2, 3, 5, got 4");
  assert.equal(problemText("belt at [2, 3] runs E into a wall"), "belt at (2, 3) runs E into a wall");
  assert.equal(problemText("start 1 at [0, 0] is in the line of the wall laser at [4, 0] (side E)"),
    "start 1 at (0, 0) is in the line of the wall laser at (4, 0) (side E)");
  // only a leading prefix goes; a quoted value is not a square
  assert.equal(problemText("the course: x"), "the course: x");
  assert.equal(problemText("course: 'players' got [5, 2]"), "'players' got [5, 2]");
  assert.equal(squareText([3, 7]), "(3, 7)");
});

test("field labels are plain words", () => {
  assert.equal(fieldLabel("dir"), "Direction");
  assert.equal(fieldLabel("curves_from"), "Curves in from");
  assert.equal(fieldLabel("over_pit"), "Over a pit");
  assert.equal(fieldLabel("speed"), "Speed");
  assert.equal(fieldLabel("some_new_field"), "Some new field");
  // every field the catalog names reads as words: no underscores, a capital first
  for (const spec of catalog.elements) {
    for (const f of spec.fields) assert.match(fieldLabel(f.name), /^[A-Z][a-z ]*$/, f.name);
  }
});

test("a new course with the default name is 'New course (unsaved)'", () => {
  assert.equal(titleText(false, "New course", true), "New course (unsaved)");
  assert.equal(titleText(false, "", true), "New course (unsaved)");
  assert.equal(titleText(false, "Loop", true), "New course “Loop” (unsaved)");
  assert.equal(titleText(true, "Loop", false), "Editing “Loop”");
  assert.equal(titleText(true, "Loop", true), "Editing “Loop” (unsaved)");
  assert.equal(titleText(true, " ", false), "Editing “Untitled”");
});

test("the palette and the phone's strip list the same tools: Select, Erase, then every element by layer", () => {
  const tools = toolList(catalog);
  assert.deepEqual(tools.slice(0, 2).map((t) => t.type), ["select", "erase"]);
  const elements = tools.slice(2);
  assert.deepEqual(elements.map((t) => t.type).sort(), catalog.elements.map((s) => s.type).sort());
  // grouped: a layer's tools are together, the layers in the catalog's order
  const layers = elements.map((t) => t.layer).filter((l, i, all) => all.indexOf(l) === i);
  assert.deepEqual(layers, catalog.layers.filter((l) => catalog.elements.some((s) => s.layer === l)));
  // each tool is named by the engine's own name of the element (the catalog's `name`)
  assert.equal(tools.find((t) => t.type === "one_way_wall")?.name, "One-way wall");
  assert.equal(tools.find((t) => t.type === "belt")?.name, "Conveyor belt");
  // a layer the catalog does not list still gets its tools, after the others
  const extra = { ...catalog, elements: [...catalog.elements, { type: "hover_pad", layer: "sky", fields: [] }] } as Catalog;
  assert.deepEqual(toolList(extra).slice(-1)[0], { type: "hover_pad", name: "Hover pad", layer: "sky" });
  // (a catalog without names, from an older server: the type in plain words, as above)
});
