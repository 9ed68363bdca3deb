// The editor's wording (issue 17's user trial): validator messages without the parser's "course: " prefix
// and with squares as (x, y), field labels in plain words, the page title of a new course, and the tool list
// shared by the palette and the phone's tool strip. Pure functions, unit-tested in tests/editor-polish.test.ts.
import type { Catalog } from "./model";
import { label } from "./fields";

export { fieldLabel } from "./fields";

/** The default name of a new course (model.newCourse). */
export const DEFAULT_NAME = "New course";

/** A square as the editor writes it everywhere: "(x, y)". */
export function squareText(at: readonly number[]): string {
  return `(${at[0]}, ${at[1]})`;
}

/**
 * A validator message as the list shows it: a leading "course: " (the parser's name for the whole course)
 * is dropped, and a square written "[x, y]" becomes "(x, y)". A pair that is a value the message quotes
 * ("got [5, 2]", "must be [1, 4]") is not a square and stays as it is.
 */
export function problemText(message: string): string {
  const rest = message.replace(/^course: /, "");
  return rest.replace(/\[(\d+), ?(\d+)\]/g, (whole, x: string, y: string, offset: number, all: string) =>
    /\b(got|be)\s*$/.test(all.slice(0, offset)) ? whole : `(${x}, ${y})`);
}

/** The editor's heading: "New course (unsaved)" while a new course keeps the default name. */
export function titleText(saved: boolean, name: string, dirty: boolean): string {
  const mark = dirty ? " (unsaved)" : "";
  const n = name.trim();
  if (!saved) return n && n !== DEFAULT_NAME ? `New course “${n}”${mark}` : `New course${mark}`;
  return `Editing “${n || "Untitled"}”${mark}`;
}

export interface Tool { type: string; name: string; layer: string | null }

/**
 * Every tool in the palette's order: Select, Erase, then the catalog's elements grouped by layer (the
 * catalog's layers first, in its order, then any other layer an element names). The palette and the
 * phone's tool strip are both built from this list, so they always offer the same tools.
 */
export function toolList(catalog: Catalog): Tool[] {
  const tools: Tool[] = [{ type: "select", name: "Select", layer: null }, { type: "erase", name: "Erase", layer: null }];
  const layers = [...catalog.layers];
  for (const s of catalog.elements) if (!layers.includes(s.layer)) layers.push(s.layer);
  for (const layer of layers) {
    for (const s of catalog.elements) if (s.layer === layer) tools.push({ type: s.type, name: s.name || label(s.type), layer });
  }
  return tools;
}

/** An element type's name as the engine's catalog gives it ("Conveyor belt"); the type in words without one. */
export function elementName(catalog: Catalog, type: string): string {
  return catalog.elements.find((s) => s.type === type)?.name || label(type);
}

/** The question before a resize that would drop elements (organisers' issue item 16). */
export function resizeQuestion(width: number, height: number, lost: number): string {
  return `Resize to ${width} by ${height}? ${lost} element${lost === 1 ? "" : "s"} outside it will be removed.`;
}
