// The course editor page (/courses/new/, /courses/<slug>/edit/): reads `editor-init` (json_script: the
// course detail or null, the engine's element catalog, the API URLs, the user), draws the course with the
// game's board renderer and edits it through the pure model (editor/model.ts). Every change goes into the
// undo history, is redrawn, and is checked by the engine's validator through the API (debounced).
import { h } from "./dom";
import type { Coord, Dir } from "./types";
import { DIRS } from "./types";
import css from "./styles.css?inline";
import editorCss from "./editor/editor.css?inline";
import { type CourseDetail, type EditorUrls, problems, send, urlsFor, type Validation } from "./editor/api";
import { DIR_WORD, fieldLabel, label } from "./editor/fields";
import { coursePanel, show, squarePanel, toolPanel } from "./editor/panels";
import { browserStorage, canonical, type Draft, draftKey, differs, dropDraft, loadDraft, makeDraft, offerText, storeDraft } from "./editor/draft";
import { problemText, squareText, titleText, toolList } from "./editor/wording";
import {
  autoNumber, type Catalog, type Clip, copyRect, EditError, type EditorCourse, elementsAt, exportCourse, History, inRect,
  isSided, makeElement, moveRect, newCourse, newPuzzleBlock, normRect, parseCourse, paste, placeAll, placeRun,
  type EditorElement, type PuzzleBlock, type Rect, remove,
  resize, rotate, runSquares, selected, setField, setProps, shortcuts, specOf,
} from "./editor/model";
import { EditorBoard, paletteIcon } from "./editor/view";

export interface EditorInit {
  course: CourseDetail | null;
  catalog: Catalog;
  urls: EditorUrls;
  user: { name: string; staff: boolean; reviewer: boolean };
}

const SELECT = "select", ERASE = "erase";
/** Keys of the editor's own tools and commands; element tools get the others (model.shortcuts). */
const RESERVED = ["s", "x", "r", "R", ".", "?"];
const VALIDATE_DELAY = 500;
/** How long after the last change the local copy is written (editor/draft.ts). */
const DRAFT_DELAY = 400;
const STATE_WORDS: Record<string, string> = {
  private: "Private: only you (and staff) see it",
  development: "Development: anyone may play it in unrated games",
  review: "Review: waiting for a reviewer",
  stable: "Stable: in the lobby and the gallery; a change makes a new version",
};

const STATE_NAMES: Record<string, string> = {
  private: "private", development: "in development", review: "in review", stable: "stable",
};

function injectStyles(): void {
  if (!document.getElementById("roboracer-styles")) {
    const style = document.createElement("style");
    style.id = "roboracer-styles";
    style.textContent = css;
    document.head.appendChild(style);
  }
  const mine = document.createElement("style");
  mine.id = "roboracer-editor-styles";
  mine.textContent = editorCss;
  document.head.appendChild(mine);
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable;
}

function panel(title: string, id: string, open: boolean): [HTMLDetailsElement, HTMLElement] {
  const d = h("details", { class: "ed-panel", id });
  d.open = open;
  d.appendChild(h("summary", {}, title));
  const body = h("div", { class: "ed-panel-body" });
  d.appendChild(body);
  return [d, body];
}

export class Editor {
  private readonly catalog: Catalog;
  private urls: EditorUrls;
  private detail: CourseDetail | null;
  private readonly history: History<EditorCourse>;
  private saved: string;
  private tool = SELECT;
  private readonly values = new Map<string, Record<string, unknown>>();
  private sideChoice: Dir | "auto" = "auto";
  private cursorAt: Coord = [0, 0];
  private cursorSide: Dir = "N";
  private selection: Rect | null = null;
  private anchor: Coord | null = null;
  private lastPlaced: Coord | null = null;
  private clip: Clip | null = null;
  /** Width and height typed but not applied yet (Resize applies them): kept when the panel is rebuilt. */
  private pendingSize: { w?: string; h?: string } = {};
  private drag: { start: Coord; side: Dir; now: Coord; moving: boolean; pointer: number } | null = null;
  private validateTimer: number | undefined;
  private validateSeq = 0;
  private readonly keys: Map<string, string>;
  /** The local copy of unsaved work: where it goes, the course it is compared with, the pending write. */
  private readonly storage = browserStorage();
  private draftKey: string;
  private baseline: string;
  private draftTimer: number | undefined;
  /** A local copy being offered: not overwritten until the author restores or discards it. */
  private offered: Draft | null = null;

  private readonly root: HTMLElement;
  private readonly view: EditorBoard;
  private readonly status = h("p", { class: "ed-status", role: "status", "aria-live": "polite" });
  private readonly title = h("h1", { class: "ed-title" });
  private readonly stateLine = h("p", { class: "ed-state" });
  private readonly toolbar = h("div", { class: "ed-toolbar", role: "toolbar", "aria-label": "Editing" });
  /** Phones (<= 700 px): the palette's tools in one scrollable row right above the board. */
  private readonly strip = h("div", { class: "ed-strip", role: "toolbar", "aria-label": "Tools (quick)" });
  private readonly restoreBox = h("div", { class: "ed-restore" });
  private readonly palette = h("div", { class: "ed-palette" });
  private readonly toolProps = h("div", { class: "ed-tool-props" });
  private readonly squareProps = h("div", { class: "ed-square-props" });
  private readonly courseProps = h("div", { class: "ed-course-props" });
  private readonly problemList = h("div", { class: "ed-problems", "aria-live": "polite" });
  private readonly publish = h("div", { class: "ed-publish" });
  private readonly importMsg = h("div", { class: "ed-import-msg", role: "alert" });
  private readonly keyList = h("dl", { class: "ed-keys" });

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
    this.build();
    this.renderToolProps();
    this.changed(false);
    this.offerDraft();
  }

  get course(): EditorCourse {
    return this.history.current;
  }

  // ---------------- layout ----------------

  private build(): void {
    const narrow = window.matchMedia?.("(max-width: 800px)").matches ?? false;
    this.root.classList.add("ed", "rr-game");
    const head = h("div", { class: "ed-head" });
    head.append(this.title, this.stateLine);
    this.restoreBox.hidden = true;
    this.buildToolbar();

    const [palettePanel, paletteBody] = panel("Palette", "ed-palette-panel", !narrow);
    paletteBody.appendChild(this.palette);
    this.buildPalette();
    this.buildStrip();

    const boardCol = h("div", { class: "ed-board-col" });
    const boardHost = h("div", { class: "ed-board-host" });
    boardHost.appendChild(this.view.board.wrap);
    const coarse = window.matchMedia?.("(pointer: coarse)").matches ?? false;
    const hint = h("p", { class: "ed-hint", id: "ed-board-help" }, coarse
      ? "Tap a square to place the chosen element; drag for a line. Edges, walls and mounts go on the side nearest your finger, or the side chosen under Properties."
      : "Click a square to place the chosen element; drag for a line. Edges, walls and mounts go on the side nearest the pointer. On the board, arrow keys move the cursor, Enter places, Shift+Enter places a line from the last placed square.");
    const wrap = this.view.board.wrap;
    wrap.tabIndex = 0;
    wrap.setAttribute("aria-describedby", "ed-board-help");
    wrap.setAttribute("aria-label", "Course board");
    boardCol.append(this.toolbar, this.strip, boardHost, this.status, hint);
    this.bindPointer();

    const side = h("div", { class: "ed-side" });
    const [propsPanel, propsBody] = panel("Properties", "ed-props-panel", !narrow);
    propsBody.append(h("h2", {}, "Tool"), this.toolProps, h("h2", {}, "Square"), this.squareProps);
    const [coursePanel, courseBody] = panel("Course", "ed-course-panel", !narrow);
    courseBody.appendChild(this.courseProps);
    const [checkPanel, checkBody] = panel("Validation", "ed-check-panel", true);
    checkBody.appendChild(this.problemList);
    const [pubPanel, pubBody] = panel("Save, test drive and publish", "ed-publish-panel", true);
    pubBody.appendChild(this.publish);
    const [filePanel, fileBody] = panel("Import and export", "ed-file-panel", false);
    this.buildFiles(fileBody);
    const [keyPanel, keyBody] = panel("Keyboard shortcuts", "ed-keys-panel", !narrow);
    keyBody.appendChild(this.keyList);
    this.buildKeyList();
    side.append(checkPanel, propsPanel, coursePanel, pubPanel, filePanel, keyPanel);

    const layout = h("div", { class: "ed-layout" });
    layout.append(palettePanel, boardCol, side);
    this.root.replaceChildren(head, this.restoreBox, layout);
    document.addEventListener("keydown", (e) => this.onKey(e));
    window.addEventListener("beforeunload", (e) => {
      this.flushDraft();
      if (this.dirty) e.preventDefault();
    });
    window.addEventListener("pagehide", () => this.flushDraft());
  }

  private button(text: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
    const b = h("button", { type: "button", ...attrs }, text);
    b.addEventListener("click", onClick);
    return b;
  }

  private buildToolbar(): void {
    this.toolbar.append(
      this.button("Undo", () => this.undo(), { id: "ed-undo", "aria-keyshortcuts": "Control+Z", title: "Undo (Ctrl+Z)" }),
      this.button("Redo", () => this.redo(), { id: "ed-redo", "aria-keyshortcuts": "Control+Y Control+Shift+Z", title: "Redo (Ctrl+Y)" }),
      this.button("Rotate", () => this.rotateHere(), { id: "ed-rotate", "aria-keyshortcuts": "R", title: "Rotate a quarter clockwise (R)" }),
      this.button("Delete", () => this.deleteHere(), { id: "ed-delete", "aria-keyshortcuts": "Delete", title: "Delete (Delete)" }),
      this.button("Copy", () => this.copy(), { id: "ed-copy", "aria-keyshortcuts": "Control+C", title: "Copy the selection (Ctrl+C)" }),
      this.button("Paste", () => this.pasteHere(), { id: "ed-paste", "aria-keyshortcuts": "Control+V", title: "Paste at the cursor (Ctrl+V)" }),
    );
  }

  private toolButton(type: string, text: string, icon: SVGSVGElement | null): HTMLButtonElement {
    const key = type === SELECT ? "s" : type === ERASE ? "x" : this.keys.get(type) ?? "";
    const b = h("button", { type: "button", class: "ed-tool", "data-tool": type, "aria-pressed": "false" });
    if (key) {
      b.setAttribute("aria-keyshortcuts", key === key.toUpperCase() && /[A-Z]/.test(key) ? `Shift+${key}` : key);
      b.title = `${text} (${keyName(key)})`;
    }
    if (icon) b.appendChild(icon);
    b.append(h("span", { class: "ed-tool-name" }, text), h("kbd", {}, keyName(key)));
    b.addEventListener("click", () => this.setTool(type));
    return b;
  }

  /** A tool's icon (none for Select and Erase): the element drawn as on the board. */
  private toolIcon(type: string): SVGSVGElement | null {
    const spec = specOf(this.catalog, type);
    return spec ? paletteIcon(makeElement(spec, [0, 0], isSided(spec) ? { side: "W" } : {})) : null;
  }

  private buildPalette(): void {
    // Grouped by layer, from the same list as the phone's strip (wording.toolList).
    let group: HTMLElement | null = null;
    let groupLayer: string | null | undefined;
    for (const tool of toolList(this.catalog)) {
      if (!group || tool.layer !== groupLayer) {
        groupLayer = tool.layer;
        group = tool.layer === null
          ? h("div", { class: "ed-group", role: "group", "aria-label": "Tools" })
          : h("div", { class: "ed-group", role: "group", "aria-labelledby": `ed-layer-${tool.layer}` });
        if (tool.layer !== null) group.appendChild(h("h3", { id: `ed-layer-${tool.layer}` }, layerName(tool.layer)));
        this.palette.appendChild(group);
      }
      group.appendChild(this.toolButton(tool.type, tool.name, this.toolIcon(tool.type)));
    }
  }

  /** The phone's tool strip: every palette tool, icon and name, a 44 px target each; shown only <= 700 px. */
  private buildStrip(): void {
    for (const tool of toolList(this.catalog)) {
      const b = h("button", { type: "button", class: "ed-strip-tool", "data-tool": tool.type, "aria-pressed": "false", title: tool.name });
      const icon = this.toolIcon(tool.type);
      if (icon) b.appendChild(icon);
      else b.appendChild(h("span", { class: "ed-strip-glyph", "aria-hidden": "true" }, tool.type === SELECT ? "⬚" : "⌫"));
      b.appendChild(h("span", { class: "ed-strip-name" }, tool.name));
      b.addEventListener("click", () => this.setTool(tool.type));
      this.strip.appendChild(b);
    }
  }

  private buildKeyList(): void {
    const rows: [string, string][] = [
      ["S", "Select tool: click a square, or drag a rectangle; drag inside a selection to move it"],
      ["X", "Erase tool: click or drag over squares"],
      ...this.catalog.elements.map((s): [string, string] => [keyName(this.keys.get(s.type) ?? ""), `${label(s.type)} tool`]),
      ["Arrow keys", "Move the cursor (Shift: extend the selection; Alt: move the selection)"],
      ["Enter / Space", "Place the tool's element at the cursor (Select: select the square)"],
      ["Shift+Enter", "Place a line from the last placed square to the cursor"],
      [".", "Next side for edges, walls and mounts placed by keyboard"],
      ["R", "Rotate what is selected (or on the cursor's square) a quarter clockwise"],
      ["Delete / Backspace", "Delete what is selected (or on the cursor's square)"],
      ["Ctrl+C / Ctrl+X / Ctrl+V", "Copy / cut the selection, paste it at the cursor"],
      ["Ctrl+Z", "Undo"],
      ["Ctrl+Y / Ctrl+Shift+Z", "Redo"],
      ["Ctrl+S", "Save"],
      ["Escape", "Clear the selection"],
      ["?", "Show these shortcuts"],
    ];
    for (const [k, what] of rows) this.keyList.append(h("dt", {}, k), h("dd", {}, what));
  }

  private buildFiles(body: HTMLElement): void {
    const fileId = "ed-import-file";
    const file = h("input", { type: "file", id: fileId, accept: ".json,application/json" });
    file.addEventListener("change", async () => {
      const f = file.files?.[0];
      if (f) await this.importText(await f.text());
      file.value = "";
    });
    const pasteId = "ed-import-text";
    const area = h("textarea", { id: pasteId, rows: "4", spellcheck: "false" });
    const go = this.button("Import pasted JSON", () => void this.importText(area.value), { id: "ed-import-paste" });
    const exp = this.button("Export (download JSON)", () => this.exportFile(), { id: "ed-export" });
    body.append(
      h("label", { for: fileId }, "Import a course file"), file,
      h("label", { for: pasteId }, "…or paste a course's JSON"), area, go, this.importMsg,
      h("hr"), exp,
    );
  }

  // ---------------- tools ----------------

  private setTool(type: string): void {
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

  private toolValues(type: string): Record<string, unknown> {
    let v = this.values.get(type);
    if (!v) {
      const spec = specOf(this.catalog, type);
      v = {};
      if (spec) for (const [k, val] of Object.entries(makeElement(spec, [0, 0]))) if (k !== "type" && k !== "at" && k !== "side") v[k] = val;
      this.values.set(type, v);
    }
    return v;
  }

  private renderToolProps(): void {
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

  private get dirty(): boolean {
    return exportCourse(this.course) !== this.saved;
  }

  /** Apply a new course (or report why not), redraw and revalidate. */
  private apply(make: () => EditorCourse, what: string): boolean {
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

  private changed(validate: boolean): void {
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

  private scheduleDraft(): void {
    window.clearTimeout(this.draftTimer);
    this.draftTimer = window.setTimeout(() => this.writeDraft(), DRAFT_DELAY);
  }

  /** Write the pending local copy now (the tab is closing). */
  private flushDraft(): void {
    if (this.draftTimer === undefined) return;
    window.clearTimeout(this.draftTimer);
    this.writeDraft();
  }

  /** Keep the working course locally while it differs from what was loaded or last saved, else drop it. */
  private writeDraft(): void {
    this.draftTimer = undefined;
    if (this.offered) return; // the older copy is still on offer: keep it until the author chooses
    if (canonical(this.course) === this.baseline) dropDraft(this.storage, this.draftKey);
    else storeDraft(this.storage, this.draftKey, makeDraft(this.course, Date.now()));
  }

  /** On opening: a local copy that differs from the loaded course is offered, never restored silently. */
  private offerDraft(): void {
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

  private undo(): void {
    if (this.history.undo()) { this.changed(true); this.say("Undone"); }
  }

  private redo(): void {
    if (this.history.redo()) { this.changed(true); this.say("Redone"); }
  }

  private say(text: string): void {
    this.status.textContent = text;
  }

  private targets(): number[] {
    return this.selection ? selected(this.course, this.selection) : elementsAt(this.course, this.cursorAt);
  }

  private rotateHere(): void {
    const idx = this.targets();
    if (!idx.length) { this.say("Nothing here to rotate"); return; }
    this.apply(() => rotate(this.course, this.catalog, idx), `Rotated ${idx.length} element${idx.length > 1 ? "s" : ""}`);
  }

  private deleteHere(): void {
    const idx = this.targets();
    if (!idx.length) { this.say("Nothing here to delete"); return; }
    this.apply(() => remove(this.course, this.catalog, idx), `Deleted ${idx.length} element${idx.length > 1 ? "s" : ""}`);
  }

  private copy(cut = false): void {
    const r = this.selection ?? { x0: this.cursorAt[0], y0: this.cursorAt[1], x1: this.cursorAt[0], y1: this.cursorAt[1] };
    this.clip = copyRect(this.course, r);
    this.say(`Copied ${this.clip.elements.length} element${this.clip.elements.length === 1 ? "" : "s"}`);
    if (cut && this.clip.elements.length) {
      const idx = selected(this.course, r);
      this.apply(() => remove(this.course, this.catalog, idx), `Cut ${idx.length} element${idx.length > 1 ? "s" : ""}`);
    }
  }

  private pasteHere(): void {
    const clip = this.clip;
    if (!clip) { this.say("Nothing copied yet"); return; }
    const at = this.cursorAt;
    if (this.apply(() => paste(this.course, this.catalog, clip, at), `Pasted ${clip.elements.length} elements at ${squareText(at)}`)) {
      this.selection = { x0: at[0], y0: at[1], x1: Math.min(this.course.width - 1, at[0] + clip.width - 1), y1: Math.min(this.course.height - 1, at[1] + clip.height - 1) };
      this.view.mark("selection", this.selection);
    }
  }

  private moveSelection(dx: number, dy: number): void {
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
  private placeTool(a: Coord, b: Coord, side: Dir): void {
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

  // ---------------- pointer ----------------

  private bindPointer(): void {
    const wrap = this.view.board.wrap;
    wrap.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      const p = this.view.pointAt(e.clientX, e.clientY);
      if (!p || !p.inside) return;
      e.preventDefault();
      wrap.setPointerCapture?.(e.pointerId);
      const moving = this.tool === SELECT && !!this.selection && inRect(this.selection, p.at);
      this.drag = { start: p.at, side: p.side, now: p.at, moving, pointer: e.pointerId };
      this.cursorAt = p.at;
      this.cursorSide = p.side;
      this.preview();
    });
    wrap.addEventListener("pointermove", (e) => {
      const p = this.view.pointAt(e.clientX, e.clientY);
      if (!p) return;
      if (!this.drag) {
        if (p.inside && specOf(this.catalog, this.tool) && isSided(specOf(this.catalog, this.tool)) && e.pointerType === "mouse") {
          this.view.cursor(p.at, this.sideChoice === "auto" ? p.side : this.sideChoice);
        }
        return;
      }
      const c = this.course;
      const now: Coord = [Math.max(0, Math.min(c.width - 1, p.at[0])), Math.max(0, Math.min(c.height - 1, p.at[1]))];
      if (now[0] !== this.drag.now[0] || now[1] !== this.drag.now[1]) {
        this.drag.now = now;
        this.preview();
      }
    });
    const end = (commit: boolean) => {
      const d = this.drag;
      this.drag = null;
      this.view.mark("preview", null);
      if (!d || !commit) { this.drawCursor(); return; }
      if (this.tool === SELECT) {
        if (d.moving && this.selection) {
          const dx = d.now[0] - d.start[0], dy = d.now[1] - d.start[1];
          if (dx || dy) this.moveSelection(dx, dy);
        } else if (d.start[0] === d.now[0] && d.start[1] === d.now[1]) {
          this.selection = null;
          this.anchor = d.start;
          this.view.mark("selection", null);
          this.say(`Square ${squareText(d.start)}`);
        } else {
          this.selection = normRect(d.start, d.now);
          this.anchor = d.start;
          this.view.mark("selection", this.selection);
          this.say(`Selected ${this.selection.x1 - this.selection.x0 + 1} by ${this.selection.y1 - this.selection.y0 + 1} squares`);
        }
        this.cursorAt = d.now;
      } else {
        this.placeTool(d.start, d.now, d.side);
        this.cursorAt = d.now;
      }
      this.renderSquareProps();
      this.drawCursor();
    };
    wrap.addEventListener("pointerup", () => end(true));
    wrap.addEventListener("pointercancel", () => end(false));
  }

  private preview(): void {
    const d = this.drag;
    if (!d) return;
    if (this.tool === SELECT) {
      if (d.moving && this.selection) {
        const dx = d.now[0] - d.start[0], dy = d.now[1] - d.start[1];
        const r = this.selection;
        this.view.mark("preview", { x0: r.x0 + dx, y0: r.y0 + dy, x1: r.x1 + dx, y1: r.y1 + dy });
      } else {
        this.view.mark("preview", normRect(d.start, d.now));
      }
    } else {
      this.view.mark("preview", runSquares(d.start, d.now));
    }
    this.view.cursor(d.now, null);
  }

  private drawCursor(): void {
    const spec = specOf(this.catalog, this.tool);
    const side = spec && isSided(spec) ? (this.sideChoice === "auto" ? this.cursorSide : this.sideChoice) : null;
    this.view.cursor(this.cursorAt, side);
  }

  // ---------------- keyboard ----------------

  private onKey(e: KeyboardEvent): void {
    if (isTyping(e.target)) return;
    const ctrl = e.ctrlKey || e.metaKey;
    const k = e.key;
    if (ctrl) {
      const lower = k.toLowerCase();
      const handled: Record<string, () => void> = {
        z: () => (e.shiftKey ? this.redo() : this.undo()),
        y: () => this.redo(),
        c: () => this.copy(),
        x: () => this.copy(true),
        v: () => this.pasteHere(),
        s: () => void this.save(),
      };
      if (handled[lower]) { e.preventDefault(); handled[lower](); }
      return;
    }
    if (e.altKey && k.startsWith("Arrow")) {
      const [dx, dy] = ARROWS[k] ?? [0, 0];
      e.preventDefault();
      this.moveSelection(dx, dy);
      return;
    }
    if (ARROWS[k]) {
      // arrow keys move the cursor only when the board (or nothing in particular) has the focus
      const [dx, dy] = ARROWS[k];
      e.preventDefault();
      const c = this.course;
      const next: Coord = [Math.max(0, Math.min(c.width - 1, this.cursorAt[0] + dx)), Math.max(0, Math.min(c.height - 1, this.cursorAt[1] + dy))];
      if (e.shiftKey) {
        this.anchor = this.anchor ?? this.cursorAt;
        this.selection = normRect(this.anchor, next);
        this.view.mark("selection", this.selection);
      } else {
        this.anchor = null;
      }
      this.cursorAt = next;
      this.drawCursor();
      this.renderSquareProps();
      this.say(`Cursor ${squareText(next)}${this.describeSquare(next)}`);
      return;
    }
    const focusOnControl = (e.target as HTMLElement | null)?.closest?.("button, a, summary");
    if ((k === "Enter" || k === " ") && !focusOnControl) {
      e.preventDefault();
      if (this.tool === SELECT) {
        this.selection = null;
        this.anchor = this.cursorAt;
        this.view.mark("selection", null);
        this.renderSquareProps();
        this.say(`Square ${squareText(this.cursorAt)}${this.describeSquare(this.cursorAt)}`);
      } else {
        const from = e.shiftKey && this.lastPlaced ? this.lastPlaced : this.cursorAt;
        this.placeTool(from, this.cursorAt, this.cursorSide);
        this.lastPlaced = this.cursorAt;
        this.renderSquareProps();
      }
      return;
    }
    if (k === "Delete" || k === "Backspace") { e.preventDefault(); this.deleteHere(); return; }
    if (k === "r" || k === "R") { this.rotateHere(); return; }
    if (k === ".") {
      this.cursorSide = DIRS[(DIRS.indexOf(this.cursorSide) + 1) % 4];
      if (this.sideChoice !== "auto") this.sideChoice = this.cursorSide;
      this.renderToolProps();
      this.drawCursor();
      this.say(`Side: ${DIR_WORD[this.cursorSide]}`);
      return;
    }
    if (k === "Escape") {
      this.selection = null;
      this.anchor = null;
      this.view.mark("selection", null);
      this.say("Selection cleared");
      return;
    }
    if (k === "?") {
      const d = document.getElementById("ed-keys-panel") as HTMLDetailsElement | null;
      if (d) { d.open = true; d.scrollIntoView({ block: "nearest" }); d.querySelector("summary")?.focus(); }
      return;
    }
    if (e.altKey) return;
    if (k === "s") { this.setTool(SELECT); return; }
    if (k === "x") { this.setTool(ERASE); return; }
    for (const [type, key] of this.keys) {
      if (key === k) { this.setTool(type); return; }
    }
  }

  private describeSquare(at: Coord): string {
    const here = elementsAt(this.course, at).map((i) => this.course.elements[i]);
    return here.length ? `: ${here.map((e) => label(e.type) + (typeof e.side === "string" ? ` (${e.side})` : "")).join(", ")}` : ": empty";
  }

  // ---------------- properties ----------------

  private renderSquareProps(): void {
    const r = this.selection;
    const at = this.cursorAt;
    const idx = elementsAt(this.course, at);
    const n = r ? selected(this.course, r).length : 0;
    // An element is found again by identity when it is changed: a change before may have moved its index.
    const change = (el: EditorElement, make: (now: number) => EditorCourse, what: string): void => {
      const now = this.course.elements.indexOf(el);
      if (now >= 0) this.apply(() => make(now), what);
    };
    show(this.squareProps, squarePanel({
      selection: r && (r.x0 !== r.x1 || r.y0 !== r.y1)
        ? `Selection ${squareText([r.x0, r.y0])}–${squareText([r.x1, r.y1])}: ${n} element${n === 1 ? "" : "s"}. Drag it (or Alt+arrows) to move it.`
        : null,
      heading: `Square ${squareText(at)}${idx.length ? "" : ": empty"}`,
      elements: idx.map((i) => ({ el: this.course.elements[i], spec: specOf(this.catalog, this.course.elements[i].type) ?? null })),
      rotateAll: () => this.rotateHere(),
      deleteAll: () => this.deleteHere(),
      copy: () => this.copy(),
      setField: (el, name, v) => change(el, (now) => setField(this.course, this.catalog, now, name, v), `${label(el.type)}: ${fieldLabel(name)} changed`),
      rotate: (el) => change(el, (now) => rotate(this.course, this.catalog, [now]), `Rotated the ${label(el.type)}`),
      remove: (el) => change(el, (now) => remove(this.course, this.catalog, [now]), `Deleted the ${label(el.type)}`),
    }));
  }

  private renderCourseProps(): void {
    const c = this.course;
    // keep the focus on the control being used when the panel is rebuilt
    const focused = (document.activeElement as HTMLElement | null)?.id;
    show(this.courseProps, coursePanel({
      course: c,
      catalog: this.catalog,
      pendingSize: this.pendingSize,
      rename: (v) => this.apply(() => setProps(this.course, { name: v.trim() }), "Renamed the course"),
      resize: (w, hh) => {
        this.pendingSize = {};
        const lost = c.elements.filter((e) => e.at && (e.at[0] >= w || e.at[1] >= hh)).length;
        const max = this.catalog.max_side || 64;
        this.apply(() => resize(this.course, w, hh, max), `Resized to ${w} by ${hh}${lost ? `; ${lost} element${lost > 1 ? "s" : ""} outside removed` : ""}`);
      },
      setPlayers: (lo, hi) => this.apply(() => setProps(this.course, { players: [lo, hi] }), `Players ${lo} to ${hi}`),
      setMode: (mode) => this.apply(() => setProps(this.course, {
        mode, puzzle: mode === "puzzle" ? (this.course.puzzle ?? newPuzzleBlock()) : undefined,
      }), `Mode: ${mode}`),
      setRulesets: (picked) => this.apply(() => setProps(this.course, { rulesets: picked }), "Rulesets changed"),
      setPuzzle: (change, what) => {
        const next = { ...(this.course.puzzle ?? {}), ...change } as Record<string, unknown>;
        for (const [k, v] of Object.entries(change)) if (v === null) delete next[k];
        this.apply(() => setProps(this.course, { puzzle: next as PuzzleBlock }), what);
      },
    }));
    if (focused) document.getElementById(focused)?.focus();
  }

  // ---------------- validation ----------------

  private scheduleValidation(delay: number): void {
    window.clearTimeout(this.validateTimer);
    this.validateTimer = window.setTimeout(() => void this.validate(), delay);
  }

  private async validate(): Promise<void> {
    const seq = ++this.validateSeq;
    this.problemList.setAttribute("aria-busy", "true");
    const answer = await send<Validation>("POST", this.urls.validate, this.course);
    if (seq !== this.validateSeq) return; // a newer change is being checked
    this.problemList.removeAttribute("aria-busy");
    if (!answer.ok) {
      this.problemList.replaceChildren(h("p", { class: "ed-bad" }, `Could not validate: ${answer.detail}`));
      return;
    }
    this.showProblems(problems(answer.data));
  }

  private showProblems(v: Validation, into: HTMLElement = this.problemList): void {
    into.replaceChildren();
    if (!v.errors.length && !v.warnings.length) {
      into.appendChild(h("p", { class: "ed-ok" }, "No errors or warnings: the course is valid."));
      return;
    }
    const list = (title: string, items: Validation["errors"], cls: string) => {
      if (!items.length) return;
      into.appendChild(h("h3", {}, `${title} (${items.length})`));
      const ul = h("ul", { class: `ed-problem-list ${cls}` });
      for (const p of items) {
        const li = h("li");
        const text = problemText(p.message);
        const b = this.button(text + (p.squares.length ? ` — ${p.squares.map(squareText).join(" ")}` : ""), () => {
          this.view.mark("problem", p.squares);
          if (p.squares.length) {
            this.cursorAt = [p.squares[0][0], p.squares[0][1]];
            this.drawCursor();
            this.renderSquareProps();
          }
          this.say(p.squares.length ? `Shown on the board: ${text}` : text);
        }, { class: "ed-problem" });
        li.appendChild(b);
        ul.appendChild(li);
      }
      into.appendChild(ul);
    };
    list("Errors", v.errors, "ed-errors");
    list("Warnings", v.warnings, "ed-warnings");
  }

  // ---------------- import / export ----------------

  private async importText(text: string): Promise<void> {
    this.importMsg.replaceChildren();
    let course: EditorCourse;
    try {
      course = parseCourse(text);
    } catch (e) {
      this.importMsg.appendChild(h("p", { class: "ed-bad" }, `Not imported: ${(e as Error).message}`));
      return;
    }
    const answer = await send<Validation>("POST", this.urls.validate, course);
    if (!answer.ok) {
      this.importMsg.appendChild(h("p", { class: "ed-bad" }, `Not imported: could not validate (${answer.detail})`));
      return;
    }
    const v = problems(answer.data);
    if (v.errors.length) {
      this.importMsg.appendChild(h("p", { class: "ed-bad" }, "Not imported: the validator found errors. The course is unchanged."));
      const box = h("div");
      this.showProblems({ errors: v.errors, warnings: v.warnings }, box);
      this.importMsg.appendChild(box);
      return;
    }
    this.selection = null;
    this.history.push(course);
    this.changed(true);
    this.importMsg.appendChild(h("p", { class: "ed-ok" }, `Imported ${course.name} (${course.width}×${course.height}, ${course.elements.length} elements).`));
    this.say("Course imported");
  }

  private exportFile(): void {
    const c = this.course;
    const blob = new Blob([exportCourse(c)], { type: "application/json" });
    const a = h("a", { download: `${slugify(c.name) || "course"}.json` });
    a.href = URL.createObjectURL(blob);
    document.body.appendChild(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    this.say("Exported");
  }

  // ---------------- save, transitions, test drive ----------------

  private async save(): Promise<boolean> {
    const body = { data: this.course };
    const answer = this.detail && this.urls.detail
      ? await send<CourseDetail>("PUT", this.urls.detail, body)
      : await send<CourseDetail>("POST", this.urls.create, body);
    if (!answer.ok) {
      this.say(`Not saved: ${answer.detail}`);
      const v = problems(answer.body);
      if (v.errors.length || v.warnings.length) this.showProblems(v);
      this.renderPublish(answer.detail);
      return false;
    }
    const fresh = answer.data;
    const newSlug = !this.detail || fresh.slug !== this.detail.slug;
    this.detail = fresh;
    if (newSlug) {
      this.urls = urlsFor(this.urls, fresh.slug);
      window.history.replaceState(null, "", `/courses/${encodeURIComponent(fresh.slug)}/edit/`);
    }
    this.saved = exportCourse(this.course);
    // Saved: the local copy is no longer needed (the old key and the new slug's, and no write pending).
    window.clearTimeout(this.draftTimer);
    this.draftTimer = undefined;
    dropDraft(this.storage, this.draftKey);
    this.draftKey = draftKey(fresh.slug);
    dropDraft(this.storage, this.draftKey);
    this.baseline = canonical(this.course);
    this.offered = null;
    this.restoreBox.hidden = true;
    this.restoreBox.replaceChildren();
    this.changed(false);
    this.say(answer.status === 201 && fresh.version > 1 ? `Saved as a new version (v${fresh.version}, ${fresh.slug}): the stable one stays as it was` : `Saved (${fresh.slug})`);
    return true;
  }

  private async transition(to: string, reason: string): Promise<void> {
    if (!this.urls.transition) return;
    const answer = await send<CourseDetail>("POST", this.urls.transition, { to, reason });
    if (!answer.ok) { this.renderPublish(answer.detail); this.say(answer.detail); return; }
    this.detail = answer.data;
    this.renderPublish();
    this.say(`The course is now ${STATE_NAMES[answer.data.state] ?? answer.data.state}`);
  }

  private async testDrive(seats: number): Promise<void> {
    if ((this.dirty || !this.detail) && !(await this.save())) return;
    if (!this.urls.test_drive) return;
    const answer = await send<{ game: number; url: string }>("POST", this.urls.test_drive, { seats });
    if (!answer.ok) { this.renderPublish(answer.detail); this.say(answer.detail); return; }
    window.location.assign(answer.data.url);
  }

  /** The lineage's versions the viewer may see (GET versions), each linking to its course page. */
  private async showVersions(box: HTMLElement): Promise<void> {
    const url = this.urls.versions;
    if (!url) return;
    const answer = await send<{ slug: string; version: number; state: string; created: string }[]>("GET", url);
    if (!answer.ok || !Array.isArray(answer.data) || answer.data.length < 2 || !box.isConnected) return;
    const ul = h("ul", { class: "ed-versions" });
    for (const v of answer.data) {
      const li = h("li");
      const a = h("a", { href: `/courses/${encodeURIComponent(v.slug)}/` }, `v${v.version} · ${v.state}`);
      if (v.slug === this.detail?.slug) li.append(a, " (this one)"); else li.append(a);
      ul.appendChild(li);
    }
    box.append(h("h3", {}, "Versions"), ul);
  }

  private renderPublish(error?: string): void {
    const box = this.publish;
    box.replaceChildren();
    const d = this.detail;
    const saveRow = h("div", { class: "ed-row" });
    const saveButton = this.button(d ? "Save" : "Save as a new course", () => void this.save(), { id: "ed-save", "aria-keyshortcuts": "Control+S" });
    // A course in review can't change (the API answers 409): say so before a save is tried.
    const inReview = d?.state === "review";
    saveButton.disabled = inReview;
    saveRow.append(saveButton);
    saveRow.appendChild(h("span", { class: "ed-muted" }, inReview
      ? `In review: it can't change until it is withdrawn or sent back${this.dirty ? " (these changes are not saved)" : ""}`
      : this.dirty ? "Unsaved changes" : d ? "All changes saved" : "Not saved yet"));
    box.appendChild(saveRow);
    if (error) box.appendChild(h("p", { class: "ed-bad", role: "alert" }, error));
    if (d) {
      this.stateLine.textContent = `${d.slug} · version ${d.version} · ${d.state}`;
      box.appendChild(h("p", { class: "ed-state-words", "data-state": d.state }, STATE_WORDS[d.state] ?? d.state));
      if (d.state === "stable") box.appendChild(h("p", { class: "ed-muted" }, "Saving a stable course makes a new private version; games keep the version they started on."));
      if (d.can?.length) {
        const reasonId = "ed-reason";
        const reason = h("textarea", { id: reasonId, rows: "2", maxlength: "500" });
        box.append(h("label", { for: reasonId }, "Reason (recorded with the change; required to send a course back)"), reason);
        const row = h("div", { class: "ed-row" });
        for (const to of d.can) {
          row.appendChild(this.button(transitionText(d.state, to), () => void this.transition(to, reason.value), { "data-to": to, class: "ed-transition" }));
        }
        box.appendChild(row);
      }
      if (Array.isArray(d.history) && d.history.length) {
        const ol = h("ol", { class: "ed-history" });
        for (const t of d.history) ol.appendChild(h("li", {}, `${t.from} → ${t.to} by ${t.by ?? "someone"}${t.reason ? `: “${t.reason}”` : ""} (${t.at.slice(0, 16).replace("T", " ")})`));
        box.append(h("h3", {}, "History"), ol);
      }
      if (this.urls.versions) void this.showVersions(box);
    } else {
      this.stateLine.textContent = "Not saved yet: saving makes it a private draft";
    }
    const max = Array.isArray(this.course.players) ? Number(this.course.players[1]) || 1 : 1;
    const tdRow = h("div", { class: "ed-row" });
    const seatsWrap = h("div", { class: "ed-field ed-num" });
    const seats = h("input", { id: "ed-seats", type: "number", min: "1", max: String(max), value: "1", inputmode: "numeric" });
    seatsWrap.append(h("label", { for: "ed-seats" }, "Seats (1: solo)"), seats);
    tdRow.append(seatsWrap, this.button("Test drive", () => {
      const n = Number(seats.value);
      if (!Number.isInteger(n) || n < 1 || n > max) { this.say(`Seats: 1 to ${max}`); return; }
      void this.testDrive(n);
    }, { id: "ed-test-drive" }));
    box.append(h("h3", {}, "Test drive"), h("p", { class: "ed-muted" }, "Saves, then starts a private game on this draft: alone with 1 seat, or a private lobby whose invite link you share."), tdRow);
  }
}

const ARROWS: Record<string, [number, number]> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

function keyName(key: string): string {
  if (!key) return "";
  return /[A-Z]/.test(key) ? `Shift+${key}` : key.toUpperCase();
}

function layerName(layer: string): string {
  const names: Record<string, string> = {
    tile: "Floor tiles", marker: "Markers", ceiling: "Ceiling", cover: "Covers", liquid: "Liquids", mount: "Mounted on a side", edge: "Edges and walls",
  };
  return names[layer] ?? label(layer);
}

function transitionText(from: string, to: string): string {
  if (to === "stable") return "Approve (make stable)";
  if (to === "review") return "Submit for review";
  if (from === "review") return `Back to ${to} (withdraw or send back)`;
  if (from === "stable") return "Retire to development";
  if (to === "development") return "Open for development (unrated games)";
  if (to === "private") return "Make private";
  return `Move to ${to}`;
}

function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

function mount(): void {
  const root = document.getElementById("editor-root");
  const data = document.getElementById("editor-init");
  if (!root || !data) return;
  let init: EditorInit;
  try {
    init = JSON.parse(data.textContent ?? "null") as EditorInit;
    if (!init || !init.catalog || !Array.isArray(init.catalog.elements) || !init.urls) throw new Error("incomplete");
  } catch {
    root.textContent = "The editor could not start: its settings are missing.";
    return;
  }
  injectStyles();
  const editor = new Editor(root, init);
  root.setAttribute("data-ready", "1");
  (window as unknown as { roboracerEditor?: Editor }).roboracerEditor = editor;
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount, { once: true });
else mount();
