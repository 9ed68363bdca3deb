// The course editor's exchanges with the server and with files: validation (debounced), import and export,
// save, the publishing transitions, test drives and versions.
import { h } from "../dom";
import { type CourseDetail, problems, send, urlsFor, type Validation } from "./api";
import { canonical, draftKey, dropDraft } from "./draft";
import { problemText, squareText } from "./wording";
import { type EditorCourse, exportCourse, parseCourse } from "./model";

import { slugify, STATE_NAMES, STATE_WORDS, transitionText } from "./common";
import { EditorState } from "./state";

export abstract class EditorIO extends EditorState {
  // ---------------- validation ----------------

  protected scheduleValidation(delay: number): void {
    window.clearTimeout(this.validateTimer);
    this.validateTimer = window.setTimeout(() => void this.validate(), delay);
  }

  protected async validate(): Promise<void> {
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

  protected showProblems(v: Validation, into: HTMLElement = this.problemList): void {
    if (into === this.problemList) this.showCheckLine(v);
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

  protected async importText(text: string): Promise<void> {
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

  protected exportFile(): void {
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

  protected async save(): Promise<boolean> {
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

  protected async transition(to: string, reason: string): Promise<void> {
    if (!this.urls.transition) return;
    const answer = await send<CourseDetail>("POST", this.urls.transition, { to, reason });
    if (!answer.ok) { this.renderPublish(answer.detail); this.say(answer.detail); return; }
    this.detail = answer.data;
    this.renderPublish();
    this.say(`The course is now ${STATE_NAMES[answer.data.state] ?? answer.data.state}`);
  }

  protected async testDrive(seats: number): Promise<void> {
    if ((this.dirty || !this.detail) && !(await this.save())) return;
    if (!this.urls.test_drive) return;
    const answer = await send<{ game: number; url: string }>("POST", this.urls.test_drive, { seats });
    if (!answer.ok) { this.renderPublish(answer.detail); this.say(answer.detail); return; }
    window.location.assign(answer.data.url);
  }

  /** The lineage's versions the viewer may see (GET versions), each linking to its course page. */
  protected async showVersions(box: HTMLElement): Promise<void> {
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

  protected renderPublish(error?: string): void {
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

  /** "2 errors · 1 warning — show" or "Valid course" beside the board; "show" opens the Validation panel. */
  protected showCheckLine(v: Validation): void {
    const parts = [v.errors.length ? `${v.errors.length} error${v.errors.length === 1 ? "" : "s"}` : "",
      v.warnings.length ? `${v.warnings.length} warning${v.warnings.length === 1 ? "" : "s"}` : ""].filter(Boolean);
    this.checkLine.dataset.errors = String(v.errors.length);
    this.checkLine.classList.toggle("ed-check-bad", v.errors.length > 0);
    if (!parts.length) {
      this.checkLine.replaceChildren("✓ Valid course");
      return;
    }
    const show = h("button", { type: "button", class: "ed-check-show" }, "Show");
    show.addEventListener("click", () => {
      const details = this.problemList.closest("details");
      if (details) details.open = true;
      this.problemList.scrollIntoView({ block: "start" });
    });
    this.checkLine.replaceChildren(`${parts.join(" · ")} `, show);
  }
}
