// The course editor's state (editor.ts builds the page on it): the course and its undo history, the tools,
// applying a change, the local copy of unsaved work (draft.ts) and the editing commands (rotate, delete,
// copy, paste, move, place).
import { h } from "../dom";
import type { Coord, Dir } from "../types";
import { type CourseDetail, type EditorUrls } from "./api";
import { DIR_WORD, label } from "./fields";
import { show, toolPanel } from "./panels";
import { browserStorage, canonical, type Draft, draftKey, differs, dropDraft, loadDraft, makeDraft, offerText, storeDraft } from "./draft";
import { squareText, titleText } from "./wording";
import {
  autoNumber, type Catalog, type Clip, copyRect, EditError, type EditorCourse, elementsAt, exportCourse, History, isSided, makeElement, moveRect, newCourse, paste, placeAll, placeRun, type Rect, remove, rotate, runSquares, selected, shortcuts, specOf,
} from "./model";
import { EditorBoard } from "./view";
import { DRAFT_DELAY, ERASE, type EditorInit, layerName, RESERVED, SELECT, VALIDATE_DELAY } from "./common";

export abstract class EditorState {
  protected readonly catalog: Catalog;
  protected urls: EditorUrls;
  protected detail: CourseDetail | null;
  protected readonly history: History<EditorCourse>;
  protected saved: string;
  protected tool = SELECT;
  protected readonly values = new Map<string, Record<string, unknown>>();
  protected sideChoice: Dir | "auto" = "auto";
  protected cursorAt: Coord = [0, 0];
  protected cursorSide: Dir = "N";
  protected selection: Rect | null = null;
  protected anchor: Coord | null = null;
  protected lastPlaced: Coord | null = null;
  protected clip: Clip | null = null;
  /** Width and height typed but not applied yet (Resize applies them): kept when the panel is rebuilt. */
  protected pendingSize: { w?: string; h?: string } = {};
  protected drag: { start: Coord; side: Dir; now: Coord; moving: boolean; pointer: number } | null = null;
  protected validateTimer: number | undefined;
  protected validateSeq = 0;
  protected readonly keys: Map<string, string>;
  /** The local copy of unsaved work: where it goes, the course it is compared with, the pending write. */
  protected readonly storage = browserStorage();
  protected draftKey: string;
  protected baseline: string;
  protected draftTimer: number | undefined;
  /** A local copy being offered: not overwritten until the author restores or discards it. */
  protected offered: Draft | null = null;

  protected readonly root: HTMLElement;
  protected readonly view: EditorBoard;
  protected readonly status = h("p", { class: "ed-status", role: "status", "aria-live": "polite" });
  protected readonly title = h("h1", { class: "ed-title" });
  protected readonly stateLine = h("p", { class: "ed-state" });
  protected readonly toolbar = h("div", { class: "ed-toolbar", role: "toolbar", "aria-label": "Editing" });
  /** Phones (<= 700 px): the palette's tools in one scrollable row right above the board. */
  protected readonly strip = h("div", { class: "ed-strip", role: "toolbar", "aria-label": "Tools (quick)" });
  protected readonly restoreBox = h("div", { class: "ed-restore" });
  protected readonly palette = h("div", { class: "ed-palette" });
  protected readonly toolProps = h("div", { class: "ed-tool-props" });
  protected readonly squareProps = h("div", { class: "ed-square-props" });
  protected readonly courseProps = h("div", { class: "ed-course-props" });
  protected readonly problemList = h("div", { class: "ed-problems", "aria-live": "polite" });
  /** The validation's count right above the board (issue 38 item 17: on a phone the panel was far below it). */
  protected readonly checkLine = h("p", { class: "ed-check-line", id: "ed-check-line" });
  protected readonly publish = h("div", { class: "ed-publish" });
  protected readonly importMsg = h("div", { class: "ed-import-msg", role: "alert" });
  protected readonly keyList = h("dl", { class: "ed-keys" });

  constructor(root: HTMLElement, init: EditorInit) {
    this.root = root;
    this.catalog = init.catalog;
    this.urls = init.urls;
    this.detail = init.course;
    const data = init.course?.data;
    const start = data && typeof data === "object" ? { ...data, elements: Array.isArray(data.elements) ? data.elements : [] } : newCourse(8, 8);
    this.history = new History(start);
    this.saved = init.course ? exportCourse(start) : "";
    this.keys = shortcuts(this.catalog.elements.map((s) => s.type), RESERVED);
    this.view = new EditorBoard(h("div"));
    this.draftKey = draftKey(init.course?.slug);
    this.baseline = canonical(start);
  }

  get course(): EditorCourse {
    return this.history.current;
  }

  // ---------------- tools ----------------

  protected button(text: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
    const b = h("button", { type: "button", ...attrs }, text);
    b.addEventListener("click", onClick);
    return b;
  }

  protected setTool(type: string): void {
    this.tool = type;
    // the palette and the phone's strip show the same tool as chosen
    for (const b of this.root.querySelectorAll<HTMLButtonElement>("button.ed-tool, button.ed-strip-tool")) {
      b.setAttribute("aria-pressed", String(b.dataset.tool === type));
      if (b.classList.contains("ed-strip-tool") && b.dataset.tool === type && this.strip.offsetParent) {
        b.scrollIntoView?.({ block: "nearest", inline: "nearest" });
      }
    }
    this.renderToolProps();
    this.drawCursor();
    this.say(`Tool: ${type === SELECT ? "Select" : type === ERASE ? "Erase" : label(type)}`);
  }

  protected toolValues(type: string): Record<string, unknown> {
    let v = this.values.get(type);
    if (!v) {
      const spec = specOf(this.catalog, type);
      v = {};
      if (spec) for (const [k, val] of Object.entries(makeElement(spec, [0, 0]))) if (k !== "type" && k !== "at" && k !== "side") v[k] = val;
      this.values.set(type, v);
    }
    return v;
  }

  protected renderToolProps(): void {
    const spec = specOf(this.catalog, this.tool) ?? null;
    show(this.toolProps, toolPanel({
      spec,
      hint: this.tool === SELECT
        ? "Select: click a square to edit what is on it, or drag a rectangle to move, copy or delete it."
        : "Erase: click or drag to clear squares.",
      heading: spec ? `${label(spec.type)} (${layerName(spec.layer)}): new ones get these settings` : "",
      values: spec ? this.toolValues(spec.type) : {},
      sideChoice: this.sideChoice,
      setSide: (side) => {
        this.sideChoice = side;
        if (side !== "auto") this.cursorSide = side;
        this.drawCursor();
      },
    }));
  }

  // ---------------- changes ----------------

  protected get dirty(): boolean {
    return exportCourse(this.course) !== this.saved;
  }

  /** Apply a new course (or report why not), redraw and revalidate. */
  protected apply(make: () => EditorCourse, what: string): boolean {
    let next: EditorCourse;
    try {
      next = make();
    } catch (e) {
      this.say(e instanceof EditError ? e.message : `Could not ${what}.`);
      return false;
    }
    if (exportCourse(next) === exportCourse(this.course)) return false;
    this.history.push(next);
    this.changed(true);
    this.say(what);
    return true;
  }

  protected changed(validate: boolean): void {
    const c = this.course;
    this.view.draw(c);
    this.cursorAt = [Math.min(this.cursorAt[0], c.width - 1), Math.min(this.cursorAt[1], c.height - 1)];
    if (this.selection && (this.selection.x1 >= c.width || this.selection.y1 >= c.height)) this.selection = null;
    this.view.mark("selection", this.selection);
    this.view.mark("problem", null);
    this.drawCursor();
    this.title.textContent = titleText(!!this.detail, c.name ?? "", this.dirty);
    document.title = `${this.title.textContent} · Editor · RoboRacer`;
    (this.root.querySelector("#ed-undo") as HTMLButtonElement | null)?.toggleAttribute("disabled", !this.history.canUndo);
    (this.root.querySelector("#ed-redo") as HTMLButtonElement | null)?.toggleAttribute("disabled", !this.history.canRedo);
    this.renderCourseProps();
    this.renderSquareProps();
    this.renderPublish();
    if (validate || !this.problemList.childElementCount) this.scheduleValidation(validate ? VALIDATE_DELAY : 0);
    if (validate) this.scheduleDraft();
  }

  // ---------------- the local copy of unsaved work (editor/draft.ts) ----------------

  protected scheduleDraft(): void {
    window.clearTimeout(this.draftTimer);
    this.draftTimer = window.setTimeout(() => this.writeDraft(), DRAFT_DELAY);
  }

  /** Write the pending local copy now (the tab is closing). */
  protected flushDraft(): void {
    if (this.draftTimer === undefined) return;
    window.clearTimeout(this.draftTimer);
    this.writeDraft();
  }

  /** Keep the working course locally while it differs from what was loaded or last saved, else drop it. */
  protected writeDraft(): void {
    this.draftTimer = undefined;
    if (this.offered) return; // the older copy is still on offer: keep it until the author chooses
    if (canonical(this.course) === this.baseline) dropDraft(this.storage, this.draftKey);
    else storeDraft(this.storage, this.draftKey, makeDraft(this.course, Date.now()));
  }

  /** On opening: a local copy that differs from the loaded course is offered, never restored silently. */
  protected offerDraft(): void {
    const draft = loadDraft(this.storage, this.draftKey);
    if (!differs(draft, this.course) || !draft) {
      if (draft) dropDraft(this.storage, this.draftKey); // the same as the course: nothing to offer
      return;
    }
    this.offered = draft;
    const restore = this.button("Restore", () => {
      this.offered = null;
      this.restoreBox.hidden = true;
      this.restoreBox.replaceChildren();
      this.selection = null;
      this.history.push({ ...draft.course, elements: Array.isArray(draft.course.elements) ? draft.course.elements : [] });
      this.changed(true);
      this.say("Unsaved changes restored (Undo goes back to the saved course)");
    }, { id: "ed-restore" });
    const discard = this.button("Discard", () => {
      this.offered = null;
      this.restoreBox.hidden = true;
      this.restoreBox.replaceChildren();
      dropDraft(this.storage, this.draftKey);
      this.writeDraft(); // changes made meanwhile are kept locally again
      this.say("Local copy discarded");
    }, { id: "ed-discard" });
    const text = h("p", { id: "ed-restore-text" }, offerText(draft.at, Date.now()));
    const row = h("div", { class: "ed-row" });
    row.append(restore, discard);
    this.restoreBox.replaceChildren(text, row);
    this.restoreBox.setAttribute("role", "alertdialog");
    this.restoreBox.setAttribute("aria-labelledby", "ed-restore-text");
    this.restoreBox.hidden = false;
  }

  protected undo(): void {
    if (this.history.undo()) { this.changed(true); this.say("Undone"); }
  }

  protected redo(): void {
    if (this.history.redo()) { this.changed(true); this.say("Redone"); }
  }

  protected say(text: string): void {
    this.status.textContent = text;
  }

  protected targets(): number[] {
    return this.selection ? selected(this.course, this.selection) : elementsAt(this.course, this.cursorAt);
  }

  protected rotateHere(): void {
    const idx = this.targets();
    if (!idx.length) { this.say("Nothing here to rotate"); return; }
    this.apply(() => rotate(this.course, this.catalog, idx), `Rotated ${idx.length} element${idx.length > 1 ? "s" : ""}`);
  }

  protected deleteHere(): void {
    const idx = this.targets();
    if (!idx.length) { this.say("Nothing here to delete"); return; }
    this.apply(() => remove(this.course, this.catalog, idx), `Deleted ${idx.length} element${idx.length > 1 ? "s" : ""}`);
  }

  protected copy(cut = false): void {
    const r = this.selection ?? { x0: this.cursorAt[0], y0: this.cursorAt[1], x1: this.cursorAt[0], y1: this.cursorAt[1] };
    this.clip = copyRect(this.course, r);
    this.say(`Copied ${this.clip.elements.length} element${this.clip.elements.length === 1 ? "" : "s"}`);
    if (cut && this.clip.elements.length) {
      const idx = selected(this.course, r);
      this.apply(() => remove(this.course, this.catalog, idx), `Cut ${idx.length} element${idx.length > 1 ? "s" : ""}`);
    }
  }

  protected pasteHere(): void {
    const clip = this.clip;
    if (!clip) { this.say("Nothing copied yet"); return; }
    const at = this.cursorAt;
    if (this.apply(() => paste(this.course, this.catalog, clip, at), `Pasted ${clip.elements.length} elements at ${squareText(at)}`)) {
      this.selection = { x0: at[0], y0: at[1], x1: Math.min(this.course.width - 1, at[0] + clip.width - 1), y1: Math.min(this.course.height - 1, at[1] + clip.height - 1) };
      this.view.mark("selection", this.selection);
    }
  }

  protected moveSelection(dx: number, dy: number): void {
    const r = this.selection;
    if (!r) return;
    const next: Rect = { x0: r.x0 + dx, y0: r.y0 + dy, x1: r.x1 + dx, y1: r.y1 + dy };
    if (next.x0 < 0 || next.y0 < 0 || next.x1 >= this.course.width || next.y1 >= this.course.height) {
      this.say("The selection is at the edge");
      return;
    }
    this.apply(() => moveRect(this.course, this.catalog, r, dx, dy), "Moved the selection");
    this.selection = next;
    this.cursorAt = [this.cursorAt[0] + dx, this.cursorAt[1] + dy];
    this.view.mark("selection", next);
    this.drawCursor();
  }

  /** Place the current tool from `a` to `b` (one square when equal). */
  protected placeTool(a: Coord, b: Coord, side: Dir): void {
    const c = this.course;
    if (this.tool === ERASE) {
      const squares = runSquares(a, b);
      const idx: number[] = [];
      c.elements.forEach((e, i) => { if (squares.some((s) => e.at && e.at[0] === s[0] && e.at[1] === s[1])) idx.push(i); });
      if (idx.length) this.apply(() => remove(c, this.catalog, idx), `Erased ${idx.length} element${idx.length > 1 ? "s" : ""}`);
      return;
    }
    const spec = specOf(this.catalog, this.tool);
    if (!spec) return;
    const values = { ...this.toolValues(spec.type) };
    if (isSided(spec)) values.side = this.sideChoice === "auto" ? side : this.sideChoice;
    const n = runSquares(a, b).length;
    const where = n > 1 ? `a line of ${n} from ${squareText(a)} to ${squareText(b)}` : `${squareText(a)}`;
    const sideText = isSided(spec) ? ` on the ${DIR_WORD[values.side as Dir]} side` : "";
    if (this.apply(() => (n > 1 ? placeRun(c, this.catalog, spec.type, a, b, values) : placeAll(c, this.catalog, autoNumber(c, this.catalog, [makeElement(spec, a, values)]))),
      `Placed ${label(spec.type)}${n > 1 ? "s" : ""} at ${where}${sideText}`)) {
      this.lastPlaced = runSquares(a, b).slice(-1)[0];
    }
  }

  protected abstract drawCursor(): void;
  protected abstract renderCourseProps(): void;
  protected abstract renderPublish(error?: string): void;
  protected abstract renderSquareProps(): void;
  protected abstract scheduleValidation(delay: number): void;
}
