// The lobby's create form shows only what applies (issue 37, item 14): the fields the chosen ruleset has no use
// for (the server's `ruleset-fields` script: RoboRace has no lives, modules or teams) are hidden and cleared,
// and the course links sit under the RoboRacer form only. The server refuses those fields anyway.

function readFields(): Record<string, string[]> {
  try {
    const parsed = JSON.parse(document.getElementById("ruleset-fields")?.textContent ?? "{}");
    return parsed && typeof parsed === "object" ? parsed as Record<string, string[]> : {};
  } catch {
    return {};
  }
}

/** A field's row: its <p>; a list of checkboxes (a <div>, which the browser lets no <p> hold) and the <p> of its
 * label before it. */
function rowsOf(name: string): HTMLElement[] {
  const field = document.getElementById(`id_${name}`);
  if (!field) return [];
  const p = field.closest("p");
  if (p) return [p];
  const label = field.previousElementSibling;
  const labelRow = label instanceof HTMLParagraphElement && !label.querySelector("input, select") ? [label] : [];
  return [field, ...labelRow];
}

export function mountRulesetFields(): void {
  const form = document.getElementById("create-game") as HTMLFormElement | null;
  const rules = form?.querySelector<HTMLSelectElement>("select[name=ruleset]");
  if (!form || !rules) return;
  const hidden = readFields();
  const all = [...new Set(Object.values(hidden).flat())];
  const apply = (): void => {
    const off = new Set(hidden[rules.value || "roboracer"] ?? []);
    for (const name of all) {
      for (const row of rowsOf(name)) {
        row.hidden = off.has(name);
        if (off.has(name)) for (const box of row.querySelectorAll<HTMLInputElement>("input[type=checkbox]")) box.checked = false;
      }
    }
  };
  rules.addEventListener("change", apply);
  apply();
}

/** The course links ("Browse all courses") belong to RoboRacer's form: hidden while another kind's is shown. */
export function followKind(kind: string): void {
  for (const el of document.querySelectorAll<HTMLElement>("[data-for-kind]")) el.hidden = el.dataset.forKind !== kind;
}
