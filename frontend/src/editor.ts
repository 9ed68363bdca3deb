// The course editor page (/courses/new/, /courses/<slug>/edit/): reads `editor-init` (json_script: the
// course detail or null, the engine's element catalog, the API URLs, the user), draws the course with the
// game's board renderer and edits it through the pure model (editor/model.ts). Every change goes into the
// undo history, is redrawn, and is checked by the engine's validator through the API (debounced).
import { h } from "./dom";
import css from "./styles.css?inline";
import editorCss from "./editor/editor.css?inline";
import commentsCss from "./editor/comments.css?inline";
import { ReviewComments } from "./editor/comments";
import { svgEl } from "./elements";
import { label } from "./editor/fields";
import { toolList } from "./editor/wording";
import { isSided, makeElement, specOf } from "./editor/model";
import { paletteIcon } from "./editor/view";
import { ERASE, type EditorInit, keyName, layerName, SELECT } from "./editor/common";
import { EditorInput } from "./editor/input";
export type { EditorInit } from "./editor/common";

function injectStyles(): void {
  if (!document.getElementById("roboracer-styles")) {
    const style = document.createElement("style");
    style.id = "roboracer-styles";
    style.textContent = css;
    document.head.appendChild(style);
  }
  const mine = document.createElement("style");
  mine.id = "roboracer-editor-styles";
  mine.textContent = editorCss + commentsCss;
  document.head.appendChild(mine);
}

function panel(title: string, id: string, open: boolean): [HTMLDetailsElement, HTMLElement] {
  const d = h("details", { class: "ed-panel", id });
  d.open = open;
  d.appendChild(h("summary", {}, title));
  const body = h("div", { class: "ed-panel-body" });
  d.appendChild(body);
  return [d, body];
}
export class Editor extends EditorInput {
  constructor(root: HTMLElement, init: EditorInit) {
    super(root, init);
    this.build();
    this.renderToolProps();
    this.changed(false);
    this.offerDraft();
  }

  // ---------------- layout ----------------

  protected build(): void {
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
    boardCol.append(this.toolbar, this.strip, this.checkLine, boardHost, this.status, hint);
    this.boardHost = boardHost;
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
    side.append(checkPanel, this.buildComments(), propsPanel, coursePanel, pubPanel, filePanel, keyPanel);

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

  // ---------------- review comments (editor/comments.ts) ----------------

  protected comments: ReviewComments | null = null;
  protected readonly commentsPanel = panel("Review comments", "ed-comments-panel", true)[0];

  /** The review comments' panel: hidden until there is something to show (comments, or a reviewer may write one). */
  protected buildComments(): HTMLElement {
    const body = this.commentsPanel.querySelector<HTMLElement>(".ed-panel-body");
    this.commentsPanel.hidden = true;
    if (!body || !this.urls.comments) return this.commentsPanel;
    const layer = svgEl("g", { class: "rv-markers" }, this.view.board.top);
    this.comments = new ReviewComments(this.urls.comments, {
      layer,
      size: () => [this.course.width, this.course.height],
      cursor: () => [...this.cursorAt],
      shown: (at) => { this.cursorAt = at; this.drawCursor(); this.say(`Comment on (${at[0]}, ${at[1]})`); },
      loaded: (list) => { this.commentsPanel.hidden = !list.comments.length && !list.may_comment; },
    });
    body.appendChild(this.comments.box);
    void this.comments.load();
    return this.commentsPanel;
  }

  protected changed(validate: boolean): void {
    super.changed(validate);
    const c = this.comments;
    if (!c) return;
    if (this.urls.comments && this.urls.comments !== c.url) { // saved as a new version: its own comments
      c.url = this.urls.comments;
      void c.load();
    } else {
      c.drawMarkers();
    }
  }

  /** The board's box, for the zoom. */
  protected boardHost: HTMLElement | null = null;

  /** Zoom: the board twice as wide inside a box that scrolls (issue 38 item 17); again to fit it back. */
  protected toggleZoom(): void {
    const host = this.boardHost;
    if (!host) return;
    const on = host.classList.toggle("ed-zoomed");
    this.root.querySelector("#ed-zoom")?.setAttribute("aria-pressed", String(on));
    // The board's own width limit (it fits the window's height) is lifted while zoomed, and put back after.
    const wrap = this.view.board.wrap;
    if (on) {
      wrap.dataset.fitWidth = wrap.style.maxWidth;
      wrap.style.maxWidth = "none";
    } else {
      wrap.style.maxWidth = wrap.dataset.fitWidth ?? "";
    }
    if (on) host.scrollLeft = (host.scrollWidth - host.clientWidth) / 2;
  }

  protected buildToolbar(): void {
    this.toolbar.append(
      this.button("Undo", () => this.undo(), { id: "ed-undo", "aria-keyshortcuts": "Control+Z", title: "Undo (Ctrl+Z)" }),
      this.button("Redo", () => this.redo(), { id: "ed-redo", "aria-keyshortcuts": "Control+Y Control+Shift+Z", title: "Redo (Ctrl+Y)" }),
      this.button("Rotate", () => this.rotateHere(), { id: "ed-rotate", "aria-keyshortcuts": "R", title: "Rotate a quarter clockwise (R)" }),
      this.button("Delete", () => this.deleteHere(), { id: "ed-delete", "aria-keyshortcuts": "Delete", title: "Delete (Delete)" }),
      this.button("Copy", () => this.copy(), { id: "ed-copy", "aria-keyshortcuts": "Control+C", title: "Copy the selection (Ctrl+C)" }),
      this.button("Paste", () => this.pasteHere(), { id: "ed-paste", "aria-keyshortcuts": "Control+V", title: "Paste at the cursor (Ctrl+V)" }),
      this.button("Zoom", () => this.toggleZoom(), { id: "ed-zoom", "aria-pressed": "false", title: "Zoom the board in or out" }),
    );
  }

  protected toolButton(type: string, text: string, icon: SVGSVGElement | null): HTMLButtonElement {
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
  protected toolIcon(type: string): SVGSVGElement | null {
    const spec = specOf(this.catalog, type);
    return spec ? paletteIcon(makeElement(spec, [0, 0], isSided(spec) ? { side: "W" } : {})) : null;
  }

  protected buildPalette(): void {
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
  protected buildStrip(): void {
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

  protected buildKeyList(): void {
    const rows: [string, string][] = [
      ["S", "Select tool: click a square, or drag a rectangle; drag inside a selection to move it"],
      ["X", "Erase tool: click or drag over squares"],
      ...this.catalog.elements.map((s): [string, string] => [keyName(this.keys.get(s.type) ?? ""), `${s.name || label(s.type)} tool`]),
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

  protected buildFiles(body: HTMLElement): void {
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
