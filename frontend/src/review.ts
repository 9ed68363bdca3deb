// Entry point of review.js, the review page of one course (/courses/<slug>/review/): the course's board, drawn
// by the game's own renderer, with its review comments beside it (editor/comments.ts): a numbered marker per
// comment on its square and the list (a click on an entry highlights the square). A reviewer clicks or taps a
// square to comment on it (or types its x and y); the course's author reads, replies and marks resolved.
// Reads `review-init` (json_script): the course's data and the comments' API URL.
import { Board, svgEl, TILE } from "./board";
import { ReviewComments } from "./editor/comments";
import commentsCss from "./editor/comments.css?inline";
import { injectStyles, mountNotifications, onReady } from "./pagemount";
import type { Coord, Course } from "./types";

interface ReviewInit { course: Course; comments: string }

/** The square under a client position, or null off the board. */
function squareAt(board: Board, clientX: number, clientY: number): Coord | null {
  const m = board.svg.getScreenCTM?.();
  if (!m) return null;
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  const x = Math.floor(p.x / TILE), y = Math.floor(p.y / TILE);
  return board.inside(x, y) ? [x, y] : null;
}

function mount(): void {
  const root = document.getElementById("review-root");
  const data = document.getElementById("review-init");
  const boardBox = root?.querySelector<HTMLElement>("#review-board");
  const listBox = root?.querySelector<HTMLElement>("#review-comments");
  if (!root || !data || !boardBox || !listBox) return;
  let init: ReviewInit;
  try {
    init = JSON.parse(data.textContent ?? "null") as ReviewInit;
    if (!init?.course || !Array.isArray(init.course.elements) || typeof init.comments !== "string") throw new Error("incomplete");
  } catch {
    listBox.textContent = "The review could not start: its settings are missing.";
    return;
  }
  injectStyles();
  const style = document.createElement("style");
  style.id = "roboracer-review-styles";
  style.textContent = commentsCss;
  document.head.appendChild(style);

  const course = init.course;
  boardBox.replaceChildren();
  const board = new Board(boardBox);
  board.drawCourse(course);
  board.describe(`${course.name}, ${course.width} by ${course.height}. The review comments' squares are listed beside it.`);
  const comments = new ReviewComments(init.comments, {
    layer: svgEl("g", { class: "rv-markers" }, board.top),
    size: () => [course.width, course.height],
  });
  listBox.replaceChildren(comments.box);
  board.wrap.addEventListener("click", (e) => {
    if (!comments.list.may_comment) return;
    const at = squareAt(board, e.clientX, e.clientY);
    if (!at) return;
    comments.pick(at);
    document.getElementById("rv-text")?.focus({ preventScroll: true });
  });
  void comments.load().then(() => {
    board.wrap.classList.toggle("rv-pickable", comments.list.may_comment);
    root.dataset.ready = "1";
  });
  mountNotifications(null);
}

onReady(mount);
