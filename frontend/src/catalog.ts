// The engine's catalog as the browser reads it (issue 36; docs/frontend.md "The catalog"): the JSON the build
// writes from `python -m engine catalog --browser` (frontend/src/generated/catalog.json, not kept in git). Every
// element's legend line and every module's name, short help and activation come from here; no TypeScript file
// keeps a copy of a list of them. Each part is its own top-level key, imported by name, so a page's bundle keeps
// only the parts it uses (the lobby needs the modules' names, not the legend).
import { legend, module_hints, module_shapes, modules } from "./generated/catalog.json";

/** Each element's legend line (its `short`), in the engine's order. */
export const LEGEND: Record<string, string> = legend;

/** An element's legend line, "" when it has none. */
export function legendOf(type: string): string {
  return LEGEND[type] ?? "";
}

/** engine.MODULE_NAMES, in the engine's order, and each module's name as players read it. */
// (/* @__PURE__ */: a page that does not use the list leaves it out of its bundle.)
export const MODULE_NAMES: readonly string[] = /* @__PURE__ */ Object.keys(modules);
export const MODULE_LABELS: Record<string, string> = modules;
/** What each module does, in a few words (menu tooltips; the how-to-play page has the long form). */
export const MODULE_HINTS: Record<string, string> = module_hints;
/** How each module is activated (turn, scanner, phase, two_phases, turret, prioritizer), followed by " spare"
 * when it needs a move chip the program does not play (003 "Turbo", "Crab Legs"). */
export const MODULE_SHAPES: Record<string, string> = module_shapes;
