// Course previews: the same board code as the game draws a course into every [data-course-preview], and a
// preview that follows the create-game form's <select> of courses (only the courses that suit the chosen
// rules stay offered there).
import { Board, drawLegend } from "./board";
import { DIR_ANGLE } from "./elements";
import { isCoord, isDir, type Course } from "./types";

function readJsonScript<T>(id: string | undefined): T | null {
  const el = id ? document.getElementById(id) : null;
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as T;
  } catch {
    return null;
  }
}

/** Draw a course preview (the same board code as the game) into a [data-course-preview] element. */
function mountPreview(el: HTMLElement, course: Course | null, label: string): void {
  el.replaceChildren();
  if (!course) return;
  const board = new Board(el);
  board.drawCourse(course);
  // A puzzle's target bots are part of its board (the crate to push off): grey with a "T", as in the game.
  const targets = (course as { puzzle?: { targets?: unknown } }).puzzle?.targets;
  for (const t of Array.isArray(targets) ? targets : []) {
    const { id, at, dir } = (t ?? {}) as { id?: unknown; at?: unknown; dir?: unknown };
    if (!isCoord(at) || !isDir(dir)) continue;
    const shape = board.createBot(`target-${String(id)}`, "#5b6470", "T", `Target ${String(id)}`);
    board.poseBot(shape, at[0], at[1], DIR_ANGLE[dir]);
  }
  board.describe(label || `Preview of ${course.name}, ${course.width} by ${course.height}`);
  if (el.dataset.legend !== undefined) drawLegend(el, course).open = true;
}

/** Draw the course previews inside `root` (the lobby's live games, fetched again). */
export function mountPreviewsIn(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>("[data-course-preview]")) {
    mountPreview(el, readJsonScript<Course>(el.dataset.courseJson), el.dataset.label ?? "");
  }
}

export function mountPreviews(): void {
  for (const el of document.querySelectorAll<HTMLElement>("[data-course-preview]")) {
    mountPreview(el, readJsonScript<Course>(el.dataset.courseJson), el.dataset.label ?? "");
  }
  // A preview that follows a <select> of courses (the create-game form).
  for (const el of document.querySelectorAll<HTMLElement>("[data-course-select-preview]")) {
    const select = document.getElementById(el.dataset.select ?? "") as HTMLSelectElement | null;
    if (!select) continue;
    const show = (): void => {
      const course = readJsonScript<Course>(`${el.dataset.prefix ?? "course-data-"}${select.value}`);
      mountPreview(el, course, course ? `Preview of ${course.name}` : "");
    };
    select.addEventListener("change", show);
    followRuleset(select, el.dataset.prefix ?? "course-data-", show);
    show();
  }
}

/** The create-game form: only the courses that suit the chosen rules stay offered (a course's `rulesets`,
 * roboracer when it names none; docs/rulesets.md). The server checks it again. */
function followRuleset(select: HTMLSelectElement, prefix: string, show: () => void): void {
  const rules = select.form?.querySelector<HTMLSelectElement>("select[name=ruleset]");
  if (!rules) return;
  const apply = (): void => {
    const chosen = rules.value || "roboracer";
    let firstFit: HTMLOptionElement | null = null;
    for (const option of Array.from(select.options)) {
      const course = readJsonScript<Course & { rulesets?: string[] }>(`${prefix}${option.value}`);
      const suits = (course?.rulesets ?? ["roboracer"]).includes(chosen);
      option.hidden = !suits;
      option.disabled = !suits;
      if (suits && !firstFit) firstFit = option;
    }
    if (select.selectedOptions[0]?.disabled && firstFit) {
      select.value = firstFit.value;
      show();
    }
  };
  rules.addEventListener("change", apply);
  apply();
}

