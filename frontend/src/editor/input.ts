// The course editor's input: the pointer on the board (place, drag, select), the keyboard, and the property
// panels (panels.ts) of the square and the course.
import type { Coord } from "../types";
import { DIRS } from "../types";
import { DIR_WORD, fieldLabel } from "./fields";
import { coursePanel, show, showInPlace, squarePanel } from "./panels";
import { elementName, resizeQuestion, squareText } from "./wording";
import {
  type EditorCourse, elementsAt, inRect, isSided, newPuzzleBlock, normRect, type EditorElement, type PuzzleBlock, remove, resize, rotate, runSquares, selected, setField, setProps, specOf,
} from "./model";
import { ARROWS, ERASE, isTyping, SELECT } from "./common";
import { EditorIO } from "./io";

export abstract class EditorInput extends EditorIO {
  // ---------------- pointer ----------------

  protected bindPointer(): void {
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

  protected preview(): void {
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

  protected drawCursor(): void {
    const spec = specOf(this.catalog, this.tool);
    const side = spec && isSided(spec) ? (this.sideChoice === "auto" ? this.cursorSide : this.sideChoice) : null;
    this.view.cursor(this.cursorAt, side);
  }

  // ---------------- keyboard ----------------

  protected onKey(e: KeyboardEvent): void {
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

  protected describeSquare(at: Coord): string {
    const here = elementsAt(this.course, at).map((i) => this.course.elements[i]);
    return here.length ? `: ${here.map((e) => elementName(this.catalog, e.type) + (typeof e.side === "string" ? ` (${e.side})` : "")).join(", ")}` : ": empty";
  }

  // ---------------- properties ----------------

  protected renderSquareProps(): void {
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
      setField: (el, name, v) => change(el, (now) => setField(this.course, this.catalog, now, name, v), `${elementName(this.catalog, el.type)}: ${fieldLabel(name)} changed`),
      rotate: (el) => change(el, (now) => rotate(this.course, this.catalog, [now]), `Rotated the ${elementName(this.catalog, el.type)}`),
      remove: (el) => change(el, (now) => remove(this.course, this.catalog, [now]), `Deleted the ${elementName(this.catalog, el.type)}`),
    }));
  }

  protected renderCourseProps(): void {
    const c = this.course;
    showInPlace(this.courseProps, coursePanel({
      course: c,
      catalog: this.catalog,
      pendingSize: this.pendingSize,
      rename: (v) => this.apply(() => setProps(this.course, { name: v.trim() }), "Renamed the course"),
      resize: (w, hh) => {
        const max = this.catalog.max_side || 64;
        if (!Number.isInteger(w) || !Number.isInteger(hh) || w < 1 || hh < 1 || w > max || hh > max) return;
        if (w === this.course.width && hh === this.course.height) {
          this.pendingSize = {};
          return;
        }
        const lost = this.course.elements.filter((e) => e.at && (e.at[0] >= w || e.at[1] >= hh)).length;
        // A resize that would drop elements asks first, and says how many (organisers' issue item 16).
        if (lost && !window.confirm(resizeQuestion(w, hh, lost))) {
          this.pendingSize = {};
          this.renderCourseProps();
          return;
        }
        this.pendingSize = {};
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
  }

}
