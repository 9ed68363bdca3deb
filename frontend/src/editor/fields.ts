// Form controls generated from the catalog's field kinds (direction, whole, choice, phases, sides, flag,
// colour), as lit-html templates: the properties panels (panels.ts) render one per field of an element, or
// of the current tool's settings.
import { html, nothing, type TemplateResult } from "lit-html";
import type { Dir } from "../types";
import { DIRS } from "../types";
import { defaultValue, type FieldSpec } from "./model";

export const DIR_WORD: Record<Dir, string> = { N: "north", E: "east", S: "south", W: "west" };
let serial = 0;

export function label(name: string): string {
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** Field names whose plain words are not just the name with spaces. */
const FIELD_WORDS: Record<string, string> = {
  dir: "Direction",
  curves_from: "Curves in from",
  over_pit: "Over a pit",
};

/** A catalog field's name in plain words: the known short ones spelled out, else underscores to spaces. */
export function fieldLabel(name: string): string {
  return FIELD_WORDS[name] ?? label(name);
}

/** A <select>'s options, [value, words], the chosen one selected (a fresh element each render: see panels.ts). */
export function options(choices: [string, string][], value: string): TemplateResult[] {
  return choices.map(([v, text]) => html`<option value=${v} ?selected=${v === value}>${text}</option>`);
}

function checkGroup(field: string, legend: string, choices: string[], words: (o: string) => string, chosen: string[],
                    onChange: (v: string[]) => void): TemplateResult {
  const changed = (e: Event): void => {
    const fs = (e.target as HTMLElement).closest("fieldset") as HTMLFieldSetElement;
    const picked = [...fs.querySelectorAll<HTMLInputElement>("input:checked")].map((i) => i.value);
    onChange(choices.filter((x) => picked.includes(x)));
  };
  return html`<fieldset class="ed-field ed-checks" data-field=${field}><legend>${legend}</legend>${choices.map((o) => {
    const id = `ed-f${++serial}`;
    return html`<span class="ed-check"><input type="checkbox" id=${id} value=${o} .checked=${chosen.includes(o)}
      @change=${changed}><label for=${id}>${words(o)}</label></span>`;
  })}</fieldset>`;
}

/** A refused value: the browser's own message on the field, until the next good one. */
function refuse(input: HTMLInputElement, message: string): void {
  input.setCustomValidity(message);
  input.reportValidity();
}

/** One control for one field; `onChange` gets the new value (numbers as numbers, lists as lists). */
export function fieldControl(f: FieldSpec, value: unknown, onChange: (v: unknown) => void): TemplateResult {
  const current = value === undefined ? defaultValue(f) : value;
  const name = fieldLabel(f.name) + (f.optional ? " (optional)" : "");
  const id = `ed-f${++serial}`;
  const field = (input: TemplateResult) => html`<div class="ed-field" data-field=${f.name}><label for=${id}>${name}</label>${input}</div>`;
  const select = (choices: [string, string][], pick: (v: string) => unknown) =>
    field(html`<select id=${id} @change=${(e: Event) => onChange(pick((e.target as HTMLSelectElement).value))}>${options(choices, String(current))}</select>`);
  switch (f.kind) {
    case "direction":
      return select(DIRS.map((d) => [d, `${d} (${DIR_WORD[d]})`]), (v) => v);
    case "choice":
      return select((f.choices ?? []).map((c) => [String(c), String(c)]), (v) => (f.choices ?? []).find((c) => String(c) === v) ?? v);
    case "whole": {
      if (f.choices && f.choices.length) return select(f.choices.map((c) => [String(c), String(c)]), Number);
      const changed = (e: Event): void => {
        const input = e.target as HTMLInputElement;
        const n = Number(input.value);
        if (!Number.isInteger(n) || (f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max)) {
          return refuse(input, `A whole number${f.min !== undefined ? ` from ${f.min}` : ""}${f.max !== undefined ? ` to ${f.max}` : ""}`);
        }
        input.setCustomValidity("");
        onChange(n);
      };
      return field(html`<input id=${id} type="number" step="1" inputmode="numeric" min=${f.min ?? nothing} max=${f.max ?? nothing}
        .value=${String(current)} @change=${changed}>`);
    }
    case "phases": {
      const chosen = Array.isArray(current) ? current.map(String) : [];
      return checkGroup(f.name, `${name}: phases`, ["1", "2", "3", "4", "5"], (o) => o, chosen, (v) => onChange(v.map(Number)));
    }
    case "sides": {
      const chosen = Array.isArray(current) ? current.map(String) : [];
      return checkGroup(f.name, name, [...DIRS], (o) => `${o} (${DIR_WORD[o as Dir]})`, chosen, (v) => onChange(v));
    }
    case "flag":
      return html`<div class="ed-field ed-flag" data-field=${f.name}><input id=${id} type="checkbox" .checked=${current === true}
        @change=${(e: Event) => onChange((e.target as HTMLInputElement).checked)}><label for=${id}>${name}</label></div>`;
    default: {
      // colour and anything newer: a text field (a lowercase colour name for colours)
      const changed = (e: Event): void => {
        const input = e.target as HTMLInputElement;
        const v = f.kind === "colour" ? input.value.trim().toLowerCase() : input.value;
        if (f.kind === "colour" && !/^[a-z]+$/.test(v)) return refuse(input, "A lowercase colour name, such as red or blue");
        input.setCustomValidity("");
        onChange(v);
      };
      return field(html`<input id=${id} type="text" autocomplete="off" spellcheck="false" pattern=${f.kind === "colour" ? "[a-z]+" : nothing}
        .value=${typeof current === "string" ? current : String(current ?? "")} @change=${changed}>`);
    }
  }
}
