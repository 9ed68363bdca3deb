// The course editor's property panels as lit-html templates (docs/frontend.md "Course editor"): the current
// tool's settings, what is on the selected square (or the selection), and the course's own properties with
// its puzzle block. Each render makes fresh elements (keyed by a counter), as the hand-built panels did: a
// value the author typed and did not apply yet is not kept, except the size (Editor.pendingSize); the
// editor puts the focus back on the control by id.
import { html, nothing, render, type TemplateResult } from "lit-html";
import { keyed } from "lit-html/directives/keyed.js";
import { live } from "lit-html/directives/live.js";
import { DIRS } from "../types";
import type { Dir } from "../types";
import { DIR_WORD, fieldControl, label, options } from "./fields";
import {
  type Catalog, type EditorCourse, type EditorElement, type ElementSpec, isSided, type PuzzleBlock, type PuzzleGoal,
  type PuzzleTarget,
} from "./model";

let renders = 0;

/** Draw `template` into `box`, replacing what was there with fresh elements. */
export function show(box: HTMLElement, template: TemplateResult): void {
  render(keyed(++renders, template), box);
}

/** Draw `template` into `box` keeping its elements (lit-html updates them in place): the course's panel, whose
 * fields are typed in one after the other, so that Tab after Name reaches Width and nothing typed is lost
 * (organisers' issue item 16: a fresh panel on each change dropped the focus). */
export function showInPlace(box: HTMLElement, template: TemplateResult): void {
  render(template, box);
}

function button(text: string, onClick: () => void, attrs: { id?: string; label?: string } = {}): TemplateResult {
  return html`<button type="button" id=${attrs.id ?? nothing} aria-label=${attrs.label ?? nothing} @click=${onClick}>${text}</button>`;
}

function numberField(id: string, name: string, value: number | string, min: number, max: number,
                     on: { change?: (v: string) => void; input?: (v: string) => void } = {}): TemplateResult {
  const read = (e: Event) => (e.target as HTMLInputElement).value;
  return html`<div class="ed-field ed-num"><label for=${id}>${name}</label><input id=${id} type="number" min=${String(min)}
    max=${String(max)} step="1" inputmode="numeric" .value=${live(String(value))}
    @change=${on.change ? (e: Event) => on.change?.(read(e)) : nothing} @input=${on.input ? (e: Event) => on.input?.(read(e)) : nothing}></div>`;
}

// ---------------- the tool ----------------

export interface ToolPanel {
  spec: ElementSpec | null;
  /** Without a spec: the select tool's or the eraser's line. */
  hint: string;
  heading: string;
  values: Record<string, unknown>;
  sideChoice: Dir | "auto";
  setSide: (side: Dir | "auto") => void;
}

export function toolPanel(p: ToolPanel): TemplateResult {
  const spec = p.spec;
  if (!spec) return html`<p class="ed-muted">${p.hint}</p>`;
  const sides: [string, string][] = [["auto", "the side nearest the pointer"], ...DIRS.map((d): [string, string] => [d, `${d} (${DIR_WORD[d]})`])];
  return html`<p class="ed-tool-name-line">${p.heading}</p>
    ${isSided(spec) ? html`<div class="ed-field"><label for="ed-side-choice">Side</label><select id="ed-side-choice"
      @change=${(e: Event) => p.setSide((e.target as HTMLSelectElement).value as Dir | "auto")}>${options(sides, p.sideChoice)}</select></div>` : nothing}
    ${spec.fields.filter((f) => !(f.name === "side" && isSided(spec)))
      .map((f) => fieldControl(f, p.values[f.name], (v) => { p.values[f.name] = v; }))}`;
}

// ---------------- the square ----------------

export interface SquarePanel {
  /** "Selection (0, 0)–(2, 1): 4 elements. …" when a rectangle of squares is selected. */
  selection: string | null;
  heading: string;
  elements: { el: EditorElement; spec: ElementSpec | null }[];
  rotateAll: () => void;
  deleteAll: () => void;
  copy: () => void;
  setField: (el: EditorElement, name: string, value: unknown) => void;
  rotate: (el: EditorElement) => void;
  remove: (el: EditorElement) => void;
}

export function squarePanel(p: SquarePanel): TemplateResult {
  if (p.selection !== null) {
    return html`<p>${p.selection}</p>${button("Rotate all", p.rotateAll)}${button("Delete all", p.deleteAll)}${button("Copy", p.copy)}`;
  }
  return html`<p class="ed-square-at">${p.heading}</p>${p.elements.map(({ el, spec }) => html`
    <div class="ed-element" data-type=${el.type}>
      <h3>${spec?.name || label(el.type)}${typeof el.side === "string" ? ` · ${el.side} side` : ""}</h3>
      ${spec ? nothing : html`<p class="ed-muted">The engine's catalog does not list this type; it is kept as it is.</p>`}
      ${(spec?.fields ?? []).map((f) => fieldControl(f, el[f.name], (v) => p.setField(el, f.name, v)))}
      <div class="ed-element-actions">${button("Rotate", () => p.rotate(el), { label: `Rotate the ${spec?.name || label(el.type)}` })}${
        button("Delete", () => p.remove(el), { label: `Delete the ${spec?.name || label(el.type)}` })}</div>
    </div>`)}`;
}

// ---------------- the course ----------------

export interface CoursePanel {
  course: EditorCourse;
  catalog: Catalog;
  /** Width and height typed but not applied yet. */
  pendingSize: { w?: string; h?: string };
  rename: (name: string) => void;
  resize: (w: number, h: number) => void;
  setPlayers: (lo: number, hi: number) => void;
  setMode: (mode: string) => void;
  setRulesets: (rulesets: string[]) => void;
  /** A change of the puzzle block (`null` values are taken out of it). */
  setPuzzle: (change: Record<string, unknown>, what: string) => void;
}

export function coursePanel(p: CoursePanel): TemplateResult {
  const c = p.course;
  const max = p.catalog.max_side || 64;
  const players = Array.isArray(c.players) ? c.players : [1, 4];
  const value = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value ?? "";
  const players2 = () => {
    const lo = Number(value("ed-min-players")), hi = Number(value("ed-max-players"));
    if (Number.isInteger(lo) && Number.isInteger(hi)) p.setPlayers(lo, hi);
  };
  const chosen = Array.isArray(c.rulesets) ? c.rulesets : ["roboracer"];
  const rulesets = (e: Event) => {
    const fs = (e.target as HTMLElement).closest("fieldset") as HTMLFieldSetElement;
    p.setRulesets([...fs.querySelectorAll<HTMLInputElement>("input:checked")].map((i) => i.value));
  };
  return html`<div class="ed-field"><label for="ed-name">Name</label><input id="ed-name" type="text" maxlength="80" required
      .value=${c.name ?? ""} @change=${(e: Event) => p.rename((e.target as HTMLInputElement).value)}></div>
    <div class="ed-row">
      ${numberField("ed-width", "Width", p.pendingSize.w ?? c.width, 1, max, {
        input: (v) => { p.pendingSize.w = v; }, change: () => p.resize(Number(value("ed-width")), Number(value("ed-height"))) })}
      ${numberField("ed-height", "Height", p.pendingSize.h ?? c.height, 1, max, {
        input: (v) => { p.pendingSize.h = v; }, change: () => p.resize(Number(value("ed-width")), Number(value("ed-height"))) })}
      ${button("Resize", () => p.resize(Number(value("ed-width")), Number(value("ed-height"))), { id: "ed-resize" })}
    </div>
    <div class="ed-row">
      ${numberField("ed-min-players", "Fewest players", players[0], 1, 8, { change: players2 })}
      ${numberField("ed-max-players", "Most players", players[1], 1, 8, { change: players2 })}
    </div>
    <div class="ed-field"><label for="ed-mode">Mode</label><select id="ed-mode"
      @change=${(e: Event) => p.setMode((e.target as HTMLSelectElement).value)}>${options(p.catalog.modes.map((m) => [m, label(m)]), c.mode ?? "race")}</select></div>
    <fieldset class="ed-field ed-checks"><legend>Suits the rulesets</legend>${p.catalog.rulesets.map((r) => html`<span class="ed-check"><input
      type="checkbox" id=${`ed-ruleset-${r}`} value=${r} .checked=${chosen.includes(r)} @change=${rulesets}><label for=${`ed-ruleset-${r}`}>${r}</label></span>`)}</fieldset>
    ${(c.mode ?? "race") === "puzzle" ? puzzleFields(c.puzzle ?? {}, p.setPuzzle) : nothing}`;
}

/** The puzzle block's fields: description, goal, turn limit, players, seed, and the target bots as JSON
 * (the validator explains what is wrong with them). */
function puzzleFields(pz: PuzzleBlock, set: CoursePanel["setPuzzle"]): TemplateResult {
  const goal: PuzzleGoal = pz.goal ?? { type: "checkpoint", number: 1 };
  const read = (e: Event) => (e.target as HTMLInputElement).value;
  const goalKind = (e: Event) => {
    const t = read(e) as PuzzleGoal["type"];
    const next = t === "checkpoint" ? { type: t, number: 1 } : t === "survive" ? { type: t, turns: 1 } : { type: t, targets: (pz.targets ?? []).map((x) => x.id) };
    set({ goal: next }, "Puzzle goal changed");
  };
  const key = goal.type === "checkpoint" ? "number" : "turns";
  const goalValue = goal.type === "destroy"
    ? html`<div class="ed-field"><label for="ed-puzzle-goal-targets">Targets to destroy (ids, comma separated)</label><input
        id="ed-puzzle-goal-targets" type="text" maxlength="200" .value=${(goal.targets ?? []).join(", ")} @change=${(e: Event) => set(
          { goal: { type: "destroy", targets: read(e).split(",").map((x) => x.trim()).filter(Boolean) } }, "Puzzle goal changed")}></div>`
    : numberField("ed-puzzle-goal-value", goal.type === "checkpoint" ? "Check point number" : "Turns to survive", Number(goal[key]) || 1, 1, 99,
      { change: (v) => set({ goal: { type: goal.type, [key]: Number(v) } }, "Puzzle goal changed") });
  const targets = (e: Event) => {
    const tg = e.target as HTMLTextAreaElement;
    try {
      set({ targets: JSON.parse(tg.value) as PuzzleTarget[] }, "Puzzle targets changed");
    } catch {
      tg.setCustomValidity("Not JSON: a list of {\"id\", \"at\": [x, y], \"dir\", \"program\": [5 chips]}");
      tg.reportValidity();
    }
  };
  return html`<div class="ed-field"><label for="ed-puzzle-description">Puzzle description (up to 500 characters)</label><textarea
      id="ed-puzzle-description" maxlength="500" rows="3" .value=${typeof pz.description === "string" ? pz.description : ""}
      @change=${(e: Event) => set({ description: read(e).trim() ? read(e) : null }, "Puzzle description changed")}></textarea></div>
    <div class="ed-field"><label for="ed-puzzle-goal">Goal</label><select id="ed-puzzle-goal" @change=${goalKind}>${options(
      [["checkpoint", "Reach check point n"], ["survive", "Survive k turns"], ["destroy", "Destroy the targets"]], goal.type)}</select></div>
    ${goalValue}
    ${numberField("ed-puzzle-turns", "Turn limit (1–99)", Number(pz.turn_limit) || 5, 1, 99, { change: (v) => set({ turn_limit: Number(v) }, "Puzzle turn limit changed") })}
    ${numberField("ed-puzzle-players", "Players (cooperative when more than 1)", Number(pz.players) || 1, 1, 8, { change: (v) => set({ players: Number(v) }, "Puzzle players changed") })}
    ${numberField("ed-puzzle-seed", "Deal seed (every solver gets the same hands)", Number(pz.seed) || 0, 0, 2 ** 31, { change: (v) => set({ seed: Number(v) }, "Puzzle seed changed") })}
    <div class="ed-field"><label for="ed-puzzle-targets">Target bots (JSON: id, at, dir, program of 5 chips)</label><textarea
      id="ed-puzzle-targets" rows="4" spellcheck="false" .value=${JSON.stringify(pz.targets ?? [])} @change=${targets}
      @input=${(e: Event) => (e.target as HTMLTextAreaElement).setCustomValidity("")}></textarea></div>`;
}
