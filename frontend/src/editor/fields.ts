// Form controls generated from the catalog's field kinds (direction, whole, choice, phases, sides, flag,
// colour): the properties panel builds one per field of an element, or of the current tool's settings.
import { h } from "../dom";
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

function checkGroup(field: string, legend: string, options: string[], words: (o: string) => string, chosen: string[], onChange: (v: string[]) => void): HTMLElement {
  const fs = h("fieldset", { class: "ed-field ed-checks", "data-field": field });
  fs.appendChild(h("legend", {}, legend));
  for (const o of options) {
    const id = `ed-f${++serial}`;
    const box = h("input", { type: "checkbox", id, value: o });
    box.checked = chosen.includes(o);
    box.addEventListener("change", () => {
      const picked = [...fs.querySelectorAll<HTMLInputElement>("input:checked")].map((i) => i.value);
      onChange(options.filter((x) => picked.includes(x)));
    });
    const pair = h("span", { class: "ed-check" });
    pair.append(box, h("label", { for: id }, words(o)));
    fs.append(pair);
  }
  return fs;
}

function select(id: string, options: [string, string][], value: string, onChange: (v: string) => void): HTMLSelectElement {
  const sel = h("select", { id });
  for (const [v, text] of options) {
    const opt = h("option", { value: v }, text);
    if (v === value) opt.selected = true;
    sel.appendChild(opt);
  }
  sel.addEventListener("change", () => onChange(sel.value));
  return sel;
}

/** One control for one field; `onChange` gets the new value (numbers as numbers, lists as lists). */
export function fieldControl(f: FieldSpec, value: unknown, onChange: (v: unknown) => void): HTMLElement {
  const current = value === undefined ? defaultValue(f) : value;
  const name = fieldLabel(f.name) + (f.optional ? " (optional)" : "");
  const id = `ed-f${++serial}`;
  const wrap = h("div", { class: "ed-field", "data-field": f.name });
  const withLabel = (input: HTMLElement): HTMLElement => {
    wrap.append(h("label", { for: id }, name), input);
    return wrap;
  };
  switch (f.kind) {
    case "direction":
      return withLabel(select(id, DIRS.map((d) => [d, `${d} (${DIR_WORD[d]})`]), String(current), (v) => onChange(v)));
    case "choice":
      return withLabel(select(id, (f.choices ?? []).map((c) => [String(c), String(c)]), String(current), (v) => {
        const raw = (f.choices ?? []).find((c) => String(c) === v);
        onChange(raw ?? v);
      }));
    case "whole": {
      if (f.choices && f.choices.length) {
        return withLabel(select(id, f.choices.map((c) => [String(c), String(c)]), String(current), (v) => onChange(Number(v))));
      }
      const input = h("input", { id, type: "number", step: "1", inputmode: "numeric" });
      if (f.min !== undefined) input.min = String(f.min);
      if (f.max !== undefined) input.max = String(f.max);
      input.value = String(current);
      input.addEventListener("change", () => {
        const n = Number(input.value);
        if (!Number.isInteger(n) || (f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max)) {
          input.setCustomValidity(`A whole number${f.min !== undefined ? ` from ${f.min}` : ""}${f.max !== undefined ? ` to ${f.max}` : ""}`);
          input.reportValidity();
          return;
        }
        input.setCustomValidity("");
        onChange(n);
      });
      return withLabel(input);
    }
    case "phases": {
      const chosen = Array.isArray(current) ? current.map(String) : [];
      return checkGroup(f.name, `${name}: phases`, ["1", "2", "3", "4", "5"], (o) => o, chosen, (v) => onChange(v.map(Number)));
    }
    case "sides": {
      const chosen = Array.isArray(current) ? current.map(String) : [];
      return checkGroup(f.name, name, [...DIRS], (o) => `${o} (${DIR_WORD[o as Dir]})`, chosen, (v) => onChange(v));
    }
    case "flag": {
      const box = h("input", { id, type: "checkbox" });
      box.checked = current === true;
      box.addEventListener("change", () => onChange(box.checked));
      wrap.classList.add("ed-flag");
      wrap.append(box, h("label", { for: id }, name));
      return wrap;
    }
    default: {
      // colour and anything newer: a text field (a lowercase colour name for colours)
      const input = h("input", { id, type: "text", autocomplete: "off", spellcheck: "false" });
      if (f.kind === "colour") input.setAttribute("pattern", "[a-z]+");
      input.value = typeof current === "string" ? current : String(current ?? "");
      input.addEventListener("change", () => {
        const v = f.kind === "colour" ? input.value.trim().toLowerCase() : input.value;
        if (f.kind === "colour" && !/^[a-z]+$/.test(v)) {
          input.setCustomValidity("A lowercase colour name, such as red or blue");
          input.reportValidity();
          return;
        }
        input.setCustomValidity("");
        onChange(v);
      });
      return withLabel(input);
    }
  }
}
