// Review comments on a course version (docs/course-builder.md "Review comments"): a numbered marker per
// thread on its square of the board, the list beside it (lit-html; a click on an entry highlights its square),
// the form a reviewer writes a comment with (on the square picked on the board, or the whole course), and the
// replies and Resolve of the course's author. Shared by the editor (editor.ts) and the review page (review.ts);
// the server decides every rule (`may_comment`, `may_reply`).
import { html, nothing, render, type TemplateResult } from "lit-html";
import { live } from "lit-html/directives/live.js";
import { svgEl, TILE } from "../elements";
import type { Coord } from "../types";
import { send } from "./api";

export interface ReviewComment {
  id: number;
  number: number | null;
  reply_to: number | null;
  author: string | null;
  by_course_author: boolean;
  text: string;
  x: number | null;
  y: number | null;
  on_board: boolean;
  resolved: boolean;
  resolved_by: string | null;
  resolved_at: string | null;
  created_at: string;
}
export interface CommentList { comments: ReviewComment[]; may_comment: boolean; may_reply: boolean }

/** What the page around the comments gives them. */
export interface CommentsHost {
  /** The group on the board's top layer the markers and the highlight are drawn in. */
  layer: SVGGElement;
  /** The board's width and height now (a marker off it is listed, not drawn). */
  size: () => [number, number];
  /** A square was shown from the list (the editor moves its cursor there). */
  shown?: (at: Coord) => void;
  /** The editor's cursor square, offered as the new comment's square ("Use the cursor square"). */
  cursor?: () => Coord;
  /** Called after every load (the editor hides its panel while there is nothing to show). */
  loaded?: (list: CommentList) => void;
}

export const TEXT_MAX = 2000; // services.COMMENT_LENGTH

export const squareWords = (c: { x: number | null; y: number | null }): string =>
  c.x === null || c.y === null ? "the whole course" : `(${c.x}, ${c.y})`;

function when(iso: string | null): string {
  const d = iso ? new Date(iso) : null;
  return d && !Number.isNaN(d.getTime()) ? d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "";
}

function num(value: string): number | null {
  return value.trim() === "" || !/^\d+$/.test(value.trim()) ? null : Number(value.trim());
}

export class ReviewComments {
  readonly box: HTMLElement;
  private data: CommentList = { comments: [], may_comment: false, may_reply: false };
  private state: "loading" | "ready" | "failed" = "loading";
  private square: Coord | null = null;
  private active: number | null = null;
  private replying: number | null = null;
  private message = "";
  private busy = false;

  constructor(public url: string, private readonly host: CommentsHost) {
    this.box = document.createElement("div");
    this.box.className = "rv-comments";
    this.box.id = "rv-comments";
  }

  get list(): CommentList {
    return this.data;
  }

  async load(): Promise<void> {
    const answer = await send<CommentList>("GET", this.url);
    if (answer.ok && answer.data && Array.isArray(answer.data.comments)) {
      this.data = answer.data;
      this.state = "ready";
    } else {
      this.state = "failed";
      this.message = answer.ok ? "The comments could not be read." : answer.detail;
    }
    this.render();
    this.host.loaded?.(this.data);
  }

  /** The new comment's square (a click on the review page's board; null: the whole course). */
  pick(at: Coord | null): void {
    this.square = at;
    this.highlight(at);
    this.render();
  }

  private threads(): ReviewComment[] {
    return this.data.comments.filter((c) => c.reply_to === null);
  }

  private onBoard(c: ReviewComment): boolean {
    const [w, h] = this.host.size();
    return c.x !== null && c.y !== null && c.x < w && c.y < h;
  }

  /** A numbered marker in the top left corner of each thread's square (elements put their badges top right): a
   * resolved one faded, several on a square side by side. */
  drawMarkers(): void {
    const layer = this.host.layer;
    for (const old of layer.querySelectorAll(".rv-marker")) old.remove();
    const perSquare = new Map<string, number>();
    for (const c of this.threads()) {
      if (!this.onBoard(c) || c.x === null || c.y === null) continue;
      const key = `${c.x},${c.y}`;
      const slot = perSquare.get(key) ?? 0;
      perSquare.set(key, slot + 1);
      const cx = c.x * TILE + 18 + (slot % 3) * 30, cy = c.y * TILE + 18 + Math.floor(slot / 3) * 30;
      const g = svgEl("g", {
        class: `rv-marker${c.resolved ? " rv-resolved" : ""}${this.active === c.id ? " rv-active" : ""}`,
        "data-number": String(c.number), "data-x": String(c.x), "data-y": String(c.y),
        transform: `translate(${cx} ${cy})`,
      }, layer);
      svgEl("circle", { r: 16 }, g);
      svgEl("text", { y: 6, "text-anchor": "middle" }, g, String(c.number));
    }
  }

  private highlight(at: Coord | null): void {
    for (const old of this.host.layer.querySelectorAll(".rv-highlight")) old.remove();
    if (!at) return;
    const rect = svgEl("rect", { class: "rv-highlight", x: at[0] * TILE + 3, y: at[1] * TILE + 3, width: TILE - 6, height: TILE - 6, rx: 8 });
    this.host.layer.insertBefore(rect, this.host.layer.firstChild);
  }

  /** A click on an entry: its square highlighted (and the marker), the board brought into view. */
  private show(c: ReviewComment): void {
    this.active = c.id;
    const at: Coord | null = this.onBoard(c) && c.x !== null && c.y !== null ? [c.x, c.y] : null;
    this.highlight(at);
    this.render();
    if (at) {
      this.host.shown?.(at);
      this.host.layer.ownerSVGElement?.parentElement?.scrollIntoView?.({ block: "nearest" });
    }
  }

  private async write(body: Record<string, unknown>, done: () => void): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const answer = await send<ReviewComment>("POST", this.url, body);
    this.busy = false;
    if (!answer.ok) { this.message = answer.detail; this.render(); return; }
    this.message = "";
    done();
    await this.load();
  }

  private async resolve(c: ReviewComment, resolved: boolean): Promise<void> {
    const answer = await send<ReviewComment>("PATCH", `${this.url.replace(/\/?$/, "/")}${c.id}/`, { resolved });
    this.message = answer.ok ? "" : answer.detail;
    await this.load();
  }

  private addComment(form: HTMLFormElement): void {
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement).value;
    const x = num(field("x")), y = num(field("y"));
    if ((x === null) !== (y === null) || (field("x").trim() !== "" && x === null) || (field("y").trim() !== "" && y === null)) {
      this.message = "Give the square as two whole numbers (column x and row y), or leave both empty for the whole course.";
      this.render();
      return;
    }
    void this.write({ text: field("text"), x, y }, () => { form.reset(); this.pick(null); });
  }

  render(): void {
    this.drawMarkers();
    render(this.template(), this.box);
  }

  private template(): TemplateResult {
    if (this.state === "loading") return html`<p class="rv-muted">Loading the review comments…</p>`;
    if (this.state === "failed") return html`<p class="rv-bad" role="alert">${this.message}</p>`;
    const threads = this.threads();
    const open = threads.filter((c) => !c.resolved).length;
    return html`
      <p class="rv-count" data-threads=${threads.length} data-open=${open}>${threads.length
        ? `${threads.length} comment${threads.length === 1 ? "" : "s"}, ${open} open` : "No review comments yet."}</p>
      ${threads.length ? html`<ol class="rv-list">${threads.map((c) => this.thread(c))}</ol>` : nothing}
      ${this.message ? html`<p class="rv-bad" role="alert">${this.message}</p>` : nothing}
      ${this.data.may_comment ? this.form() : nothing}`;
  }

  private thread(c: ReviewComment): TemplateResult {
    const replies = this.data.comments.filter((r) => r.reply_to === c.id);
    const where = c.x !== null && !this.onBoard(c) ? `${squareWords(c)}, now off the board` : squareWords(c);
    return html`<li class="rv-thread ${c.resolved ? "rv-done" : ""} ${this.active === c.id ? "rv-on" : ""}" data-id=${c.id}
        data-number=${String(c.number)}>
      <button type="button" class="rv-show" aria-label=${`Comment ${c.number} on ${where}: show its square`}
        @click=${() => this.show(c)}><span class="rv-num">${c.number}</span> ${where}</button>
      <p class="rv-meta">${c.author ?? "a former player"} · ${when(c.created_at)}${c.resolved
        ? html` · <strong>resolved</strong>${c.resolved_by ? ` by ${c.resolved_by}` : ""}` : nothing}</p>
      <p class="rv-text">${c.text}</p>
      ${replies.length ? html`<ul class="rv-replies">${replies.map((r) => html`<li data-id=${r.id}><p class="rv-meta">${r.author ?? "a former player"}${r.by_course_author ? " (author)" : ""} · ${when(r.created_at)}</p><p class="rv-text">${r.text}</p></li>`)}</ul>` : nothing}
      ${this.data.may_reply ? html`<div class="rv-actions">
        <button type="button" class="rv-reply" @click=${() => { this.replying = this.replying === c.id ? null : c.id; this.render(); }}>Reply</button>
        <button type="button" class="rv-resolve" @click=${() => void this.resolve(c, !c.resolved)}>${c.resolved ? "Reopen" : "Mark resolved"}</button>
      </div>` : nothing}
      ${this.replying === c.id ? html`<form class="rv-reply-form" @submit=${(e: Event) => {
        e.preventDefault();
        const form = e.target as HTMLFormElement;
        const text = (form.elements.namedItem("text") as HTMLTextAreaElement).value;
        void this.write({ text, reply_to: c.id }, () => { this.replying = null; });
      }}><label for=${`rv-reply-${c.id}`}>Your reply</label>
        <textarea id=${`rv-reply-${c.id}`} name="text" rows="2" maxlength=${TEXT_MAX} required></textarea>
        <button type="submit">Send reply</button></form>` : nothing}
    </li>`;
  }

  private form(): TemplateResult {
    const [x, y] = this.square ? [String(this.square[0]), String(this.square[1])] : ["", ""];
    const [w, h] = this.host.size();
    const cursor = this.host.cursor;
    return html`<form class="rv-form" id="rv-form" @submit=${(e: Event) => { e.preventDefault(); this.addComment(e.target as HTMLFormElement); }}>
      <h3>New comment</h3>
      <p class="rv-muted" id="rv-square-help">${cursor ? "On the cursor's square, or any square you type" : "Click a square on the board to comment on it"}; leave the square empty for the whole course.</p>
      <div class="rv-square" role="group" aria-label="Square" aria-describedby="rv-square-help">
        <label>x <input id="rv-x" name="x" type="number" inputmode="numeric" min="0" max=${w - 1} step="1" .value=${live(x)}
          @change=${(e: Event) => this.typed(e, 0)}></label>
        <label>y <input id="rv-y" name="y" type="number" inputmode="numeric" min="0" max=${h - 1} step="1" .value=${live(y)}
          @change=${(e: Event) => this.typed(e, 1)}></label>
        ${cursor ? html`<button type="button" id="rv-use-cursor" @click=${() => this.pick(cursor())}>Use the cursor square</button>` : nothing}
        <button type="button" id="rv-whole" @click=${() => this.pick(null)}>Whole course</button>
      </div>
      <p class="rv-picked" id="rv-picked">Comment on ${squareWords({ x: this.square?.[0] ?? null, y: this.square?.[1] ?? null })}</p>
      <label for="rv-text">Comment</label>
      <textarea id="rv-text" name="text" rows="3" maxlength=${TEXT_MAX} required></textarea>
      <button type="submit" id="rv-submit">Add comment</button>
    </form>`;
  }

  /** A square typed in the form's boxes: picked when both are whole numbers on the board. */
  private typed(e: Event, axis: 0 | 1): void {
    const form = (e.target as HTMLInputElement).form;
    if (!form) return;
    const other = (form.elements.namedItem(axis === 0 ? "y" : "x") as HTMLInputElement).value;
    const v = num((e.target as HTMLInputElement).value), o = num(other);
    const [w, h] = this.host.size();
    const at: Coord | null = v === null || o === null ? null : axis === 0 ? [v, o] : [o, v];
    if (at && at[0] < w && at[1] < h) { this.square = at; this.highlight(at); this.render(); }
  }
}
