// The RoboRacer board's box on the page: zoom (larger squares, the board scrolls in its box), and on phones
// the box sharing the screen with my hand while I program (docs/frontend.md).
import { type Board, TILE } from "../board";
import { h } from "../dom";
import type { Course, Snapshot } from "../types";
import { isCoord } from "../types";

/** Phones (one column, styles.css): the board's box shares the screen with the hand while programming. */
export function isNarrow(): boolean {
  return window.matchMedia?.("(max-width: 800px)").matches ?? false;
}

/** Smooth scrolling, unless the player asked for reduced motion. */
function scrollBehavior(): ScrollBehavior {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}

/** The smallest board box while programming on a phone, and the smallest square a whole board is shrunk
 * to so that it fits the box (below that, the box scrolls to my robot instead). */
const MIN_BOX_PX = 180;
const MIN_FIT_SQUARE_PX = 28;

export class BoardBox {
  readonly zoomBtn: HTMLButtonElement;
  private zoomed = false;
  /** fit() limited the board's box (and maybe narrowed the board) for programming on a phone. */
  private boxFitted = false;
  /** The turn whose programming last scrolled the board to my robot (showMyRobot). */
  private robotShownTurn = -1;
  /** Where my robot was last seen (zooming in centres it; issue 37, item 5). */
  private myRobotAt: unknown = null;
  private course: Course | null = null;

  /** `handEnd`: the end of what a phone keeps on screen with the board while I program. */
  constructor(
    private readonly board: Board, scroller: HTMLElement, boardCol: HTMLElement, private readonly controls: HTMLElement,
    private readonly root: HTMLElement, private readonly handEnd: () => Element | null,
  ) {
    this.zoomBtn = h("button", {
      type: "button", id: "board-zoom", class: "rr-zoom", "aria-pressed": "false", "aria-controls": "rr-board-scroll",
    }, "Zoom board");
    scroller.id = "rr-board-scroll";
    this.zoomBtn.hidden = true;
    this.zoomBtn.addEventListener("click", () => this.setZoom(!this.zoomed, true));
    boardCol.insertBefore(this.zoomBtn, scroller);
    try { this.zoomed = localStorage.getItem("roboracer-zoom") === "1"; } catch { /* storage unavailable */ }
    window.addEventListener("resize", () => {
      this.updateZoom();
      this.fit();
    });
  }

  /** The course drawn (zoom is offered by its size). */
  setCourse(course: Course | null): void {
    this.course = course;
  }

  /** Zoom: on a phone, a 16x16 board has ~23 px squares and its small labels cannot be read; zoomed,
   * every square is 44 px and the board scrolls inside its box (see docs/frontend.md). */
  private setZoom(on: boolean, remember: boolean): void {
    this.zoomed = on;
    if (remember) {
      try { localStorage.setItem("roboracer-zoom", on ? "1" : "0"); } catch { /* ignore */ }
    }
    this.updateZoom();
    // Zoomed in: my robot in the middle of the box, not wherever the box happened to be scrolled.
    if (this.zoomed && isCoord(this.myRobotAt)) {
      const at = this.myRobotAt;
      requestAnimationFrame(() => this.centreOn(at, false));
    }
  }

  /** Scroll the board's box to put the square `at` in its middle. */
  private centreOn(at: [number, number], smooth: boolean): void {
    const scroller = this.board.wrap.parentElement;
    if (!scroller) return;
    const vb = this.board.svg.viewBox.baseVal, wrap = this.board.wrap.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const x = wrap.left + ((at[0] + 0.5) * TILE - vb.x) / vb.width * wrap.width;
    const y = wrap.top + ((at[1] + 0.5) * TILE - vb.y) / vb.height * wrap.height;
    scroller.scrollTo({ top: scroller.scrollTop + y - (box.top + box.height / 2),
      left: scroller.scrollLeft + x - (box.left + box.width / 2), behavior: smooth ? scrollBehavior() : "auto" });
  }

  /** While a turn plays on a zoomed board, my robot moved to `at`: keep it in view (the box follows it once
   * it comes within a square and a half of the box's edge). */
  follow(at: unknown): void {
    this.myRobotAt = at;
    const scroller = this.board.wrap.parentElement;
    if (!this.zoomed || !scroller || !isCoord(at) || !scroller.parentElement?.classList.contains("rr-zoomed")) return;
    const vb = this.board.svg.viewBox.baseVal, wrap = this.board.wrap.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const square = wrap.width / (vb.width / TILE);
    const x = wrap.left + ((at[0] + 0.5) * TILE - vb.x) / vb.width * wrap.width;
    const y = wrap.top + ((at[1] + 0.5) * TILE - vb.y) / vb.height * wrap.height;
    const margin = 1.5 * square;
    // At once, not smoothly: a smooth scroll still under way when the robot moves on loses it again.
    if (x < box.left + margin || x > box.right - margin || y < box.top + margin || y > box.bottom - margin) {
      this.centreOn(at, false);
    }
  }

  updateZoom(): void {
    const course = this.course;
    const col = this.board.wrap.parentElement?.parentElement;
    if (!course || !col) return;
    const cols = Math.max(1, Number(course.width) || 1);
    const rows = Math.max(1, Number(course.height) || 1);
    // Zoom is offered when the squares are smaller than 36 px as laid out.
    col.classList.remove("rr-zoomed");
    this.board.wrap.style.width = "";
    const square = this.board.wrap.getBoundingClientRect().width / cols;
    const offer = square > 0 && square < 36;
    this.zoomBtn.hidden = !offer;
    // Phones: right above the board. Two columns: with the playback controls under the board, so the
    // board keeps its height budget (BOARD_CHROME) and the controls stay on screen.
    const narrow = isNarrow();
    const home = narrow ? col : this.controls;
    if (this.zoomBtn.parentElement !== home) {
      if (narrow) col.insertBefore(this.zoomBtn, col.firstChild);
      else this.controls.appendChild(this.zoomBtn);
    }
    const on = offer && this.zoomed;
    col.classList.toggle("rr-zoomed", on);
    this.zoomBtn.setAttribute("aria-pressed", String(on));
    this.zoomBtn.textContent = on ? "Fit board" : "Zoom board";
    this.zoomBtn.setAttribute("aria-label", on ? "Fit the whole board on screen" : "Zoom the board: larger squares and labels, scroll to move around");
    if (on) {
      const px = 44;
      this.board.wrap.style.width = `${cols * px + 16 * px / 100}px`;
      this.board.wrap.style.setProperty("--rr-rows", String(rows));
    }
  }

  /** Phones (and a zoomed board): while I program, the board's box and my hand share the screen (fit);
   * once a turn, the page is scrolled to show the hand with the submit button and the box to put my robot
   * (at `robotAt`) in its middle. */
  showMyRobot(snap: Snapshot | null, programming: boolean, robotAt: unknown): void {
    // styles.css: on a phone the board's box is shorter only while I program (the whole board otherwise).
    this.root.classList.toggle("rr-my-programming", programming);
    if (isCoord(robotAt)) this.myRobotAt = robotAt;
    const laidOut = this.fit();
    if (!snap || !programming || !laidOut || this.robotShownTurn === snap.turn) return;
    const scroller = this.board.wrap.parentElement;
    const at = robotAt;
    if (!scroller || !isCoord(at)) return;
    const first = this.robotShownTurn < 0;
    this.robotShownTurn = snap.turn;
    // From the robot's square (its shape may not be posed yet: the animator draws on the next frame).
    const vb = this.board.svg.viewBox.baseVal, wrap = this.board.wrap.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const x = wrap.left + ((at[0] + 0.5) * TILE - vb.x) / vb.width * wrap.width;
    const y = wrap.top + ((at[1] + 0.5) * TILE - vb.y) / vb.height * wrap.height;
    scroller.scrollTop += y - (box.top + box.height / 2);
    scroller.scrollLeft += x - (box.left + box.width / 2);
    // The new hand (or the first one, on opening the page) is brought on screen with the board's box.
    const end = this.handEnd();
    if (isNarrow() && end) {
      const bottom = end.getBoundingClientRect().bottom + 8;
      const by = Math.min(bottom - window.innerHeight, scroller.getBoundingClientRect().top);
      if (bottom > window.innerHeight || box.top < 0) window.scrollBy({ top: by, behavior: first ? "auto" : scrollBehavior() });
    }
  }

  /** Phones while I program: the board's box takes the height the status and the hand (down to the submit
   * button) leave on the screen. A board that fits that height at readable squares is drawn whole (no part
   * hidden); a bigger one scrolls inside the box (showMyRobot centres my robot). Otherwise, no limits.
   * False while the hand is not laid out yet (the box could not be sized). */
  private fit(): boolean {
    const scroller = this.board.wrap.parentElement, course = this.course;
    if (!scroller || !course) return false;
    const compact = isNarrow() && this.root.classList.contains("rr-my-programming");
    const zoomed = !!scroller.parentElement?.classList.contains("rr-zoomed");
    if (!compact) {
      if (this.boxFitted) {
        scroller.style.maxHeight = "";
        if (!zoomed) this.board.wrap.style.width = "";
        this.boxFitted = false;
      }
      return true;
    }
    const end = this.handEnd();
    if (!end || end.getBoundingClientRect().height === 0) return false;
    this.boxFitted = true;
    if (!zoomed && this.board.wrap.style.width) this.board.wrap.style.width = "";
    // What must stay on screen under the box: from its bottom down to the submit button and the line
    // under it saying what the reboot toggle does. (Its own height is left alone while measuring: taking
    // it off would scroll the box back to the top.)
    const below = end.getBoundingClientRect().bottom - scroller.getBoundingClientRect().bottom + 8;
    const height = Math.max(MIN_BOX_PX, Math.floor(window.innerHeight - below - 4));
    scroller.style.maxHeight = `${height}px`;
    if (zoomed) return true;
    const cols = Math.max(1, Number(course.width) || 1), rows = Math.max(1, Number(course.height) || 1);
    const width = this.board.wrap.getBoundingClientRect().width;
    const aspect = this.board.svg.viewBox.baseVal.width / this.board.svg.viewBox.baseVal.height || cols / rows;
    if (width / aspect <= height) return true; // the whole board fits as it is
    const fitted = Math.floor(height * aspect);
    if (fitted / cols >= MIN_FIT_SQUARE_PX) this.board.wrap.style.width = `${fitted}px`;
    return true;
  }

  /** Phones: a turn starts playing, maybe while the page is scrolled down to the program: bring the
   * whole board on screen (its top at the top), so that the player sees the turn play out. */
  showBoard(): void {
    const scroller = this.board.wrap.parentElement;
    if (!isNarrow() || !scroller) return;
    const box = scroller.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    window.scrollBy({ top: box.top - 4, behavior: scrollBehavior() });
  }
}
