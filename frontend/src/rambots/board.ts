// The RAMbots board as SVG: an 8x8 chessboard and Icehouse pyramids on it. An upright piece is drawn from
// above (a square pyramid: four shaded faces and a nested square), a lying piece as a triangle pointing its
// way. Bots are large pieces, ringed in their player's seat colour and labelled with the player's name;
// beacons are small. Beside the board: the precedence stack and every player's goal stack top. No timing
// here: animate.ts decides when things change and calls the setters.
import { h } from "../dom";
import { svgEl } from "../elements";
import type { Coord } from "../types";
import { type Colour, COLOUR_HEX, COLOUR_NAMES, dirLabel, parsePiece, type Piece, pieceLabel, type RDir } from "./types";
import type { RamMe, RamState } from "./types";
import { goalsHidden } from "./model";

export const SQ = 100;
export const BOARD_SQUARES = 8;
/** The frame around the squares: wide enough for the compass letters (N at the top). */
const PAD = 34;
/** A name label's widest extent (board units): a little less than a square, so neighbours' labels never touch. */
const NAME_MAX = 88;
export const RDIR_ANGLE: Record<Exclude<RDir, "up">, number> = { N: 0, E: 90, S: 180, W: 270 };
const STEP: Record<Exclude<RDir, "up">, [number, number]> = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const BUBBLE_FONT = 18;
const BUBBLE_MIN_PX = 13;

/** Half the width of an upright piece seen from above, and a lying piece's length and base, by size. */
const DIMS: Record<"S" | "M" | "L", { half: number; length: number; base: number }> = {
  S: { half: 15, length: 40, base: 28 },
  M: { half: 24, length: 62, base: 44 },
  L: { half: 33, length: 84, base: 60 },
};

/** Draw one pyramid into `g`, centred on (0, 0): from above when upright, a triangle pointing `dir` when lying. */
export function drawPyramid(g: SVGGElement, colour: Colour, size: "S" | "M" | "L", dir: RDir): void {
  g.replaceChildren();
  const fill = COLOUR_HEX[colour];
  const { half: s, length: l, base: b } = DIMS[size];
  const pips = size === "S" ? 1 : size === "M" ? 2 : 3;
  if (dir === "up") {
    svgEl("rect", { x: -s, y: -s, width: 2 * s, height: 2 * s, rx: 2, fill, class: "ram-face" }, g);
    // Four faces meeting at the apex, lit from the north-west.
    svgEl("path", { d: `M${-s} ${-s}L${s} ${-s}L0 0Z`, fill: "#fff", opacity: 0.3 }, g);
    svgEl("path", { d: `M${-s} ${-s}L${-s} ${s}L0 0Z`, fill: "#fff", opacity: 0.12 }, g);
    svgEl("path", { d: `M${s} ${-s}L${s} ${s}L0 0Z`, fill: "#000", opacity: 0.16 }, g);
    svgEl("path", { d: `M${-s} ${s}L${s} ${s}L0 0Z`, fill: "#000", opacity: 0.3 }, g);
    const k = s * 0.45;
    svgEl("rect", { x: -k, y: -k, width: 2 * k, height: 2 * k, fill: "none", class: "ram-nest" }, g);
    svgEl("rect", { x: -s, y: -s, width: 2 * s, height: 2 * s, rx: 2, fill: "none", class: "ram-edge" }, g);
    for (let i = 0; i < pips; i++) {
      svgEl("circle", { cx: (i - (pips - 1) / 2) * s * 0.34, cy: s * 0.72, r: Math.max(2, s * 0.09), class: "ram-pip" }, g);
    }
    return;
  }
  const body = svgEl("g", { transform: `rotate(${RDIR_ANGLE[dir]})` }, g);
  const top = -l / 2, bottom = l / 2;
  svgEl("path", { d: `M0 ${top}L${b / 2} ${bottom}L${-b / 2} ${bottom}Z`, fill, class: "ram-face" }, body);
  svgEl("path", { d: `M0 ${top}L0 ${bottom}L${-b / 2} ${bottom}Z`, fill: "#fff", opacity: 0.22 }, body);
  svgEl("path", { d: `M0 ${top}L0 ${bottom}L${b / 2} ${bottom}Z`, fill: "#000", opacity: 0.12 }, body);
  svgEl("path", { d: `M0 ${top}L${b / 2} ${bottom}L${-b / 2} ${bottom}Z`, fill: "none", class: "ram-edge" }, body);
  for (let i = 0; i < pips; i++) {
    svgEl("circle", { cx: (i - (pips - 1) / 2) * b * 0.22, cy: bottom - l * 0.14, r: Math.max(2, b * 0.045), class: "ram-pip" }, body);
  }
}

/** A small picture of a piece (the panel's pool, the stacks): an inline SVG. */
export function pieceIcon(piece: Piece, dir: RDir = "up", px = 28): SVGSVGElement {
  const svg = svgEl("svg", { viewBox: "-50 -50 100 100", width: px, height: px, class: "ram-icon", "aria-hidden": "true" });
  const parsed = parsePiece(piece);
  if (!parsed) {
    svgEl("text", { y: 10, "text-anchor": "middle", class: "ram-icon-unknown" }, svg, "?");
    return svg;
  }
  // Sizes show as sizes: a small piece is small in its box too.
  const g = svgEl("g", { transform: `scale(${parsed.size === "L" ? 1.3 : parsed.size === "M" ? 1.45 : 1.7})` }, svg);
  drawPyramid(g, parsed.colour, parsed.size, dir);
  return svg;
}

export interface PieceShape {
  ref: string;
  g: SVGGElement;
  body: SVGGElement;
  colour: Colour;
  size: "S" | "L";
}

export class RamBoard {
  readonly wrap: HTMLDivElement;
  readonly svg: SVGSVGElement;
  readonly piecesLayer: SVGGElement;
  readonly fx: SVGGElement;
  /** The precedence stack and the goal stacks, beside the board. */
  readonly stacks: HTMLDivElement;

  constructor(parent: HTMLElement) {
    this.wrap = document.createElement("div");
    this.wrap.className = "ram-board-wrap";
    const span = BOARD_SQUARES * SQ;
    this.svg = svgEl("svg", {
      class: "ram-board", role: "img", "aria-label": "RAMbots board (loading)",
      viewBox: `${-PAD} ${-PAD} ${span + 2 * PAD} ${span + 2 * PAD}`, preserveAspectRatio: "xMidYMid meet",
    });
    const floor = svgEl("g", { class: "ram-floor" }, this.svg);
    svgEl("rect", { x: -PAD, y: -PAD, width: span + 2 * PAD, height: span + 2 * PAD, rx: 8, class: "ram-frame" }, floor);
    for (let y = 0; y < BOARD_SQUARES; y++) {
      for (let x = 0; x < BOARD_SQUARES; x++) {
        svgEl("rect", { x: x * SQ, y: y * SQ, width: SQ, height: SQ, class: (x + y) % 2 ? "ram-sq ram-sq-dark" : "ram-sq ram-sq-light" }, floor);
      }
    }
    // The centre intersection: where the precedence stack stands in the real game.
    svgEl("circle", { cx: span / 2, cy: span / 2, r: 7, class: "ram-centre" }, floor);
    // The compass: instructions point N, E, S or W, as these letters on the frame say.
    const mid = span / 2, half = PAD / 2;
    for (const [letter, x, y] of [["N", mid, -half], ["S", mid, span + half], ["W", -half, mid], ["E", span + half, mid]] as const) {
      svgEl("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", class: "ram-compass", "aria-hidden": "true" }, floor, letter);
    }
    this.piecesLayer = svgEl("g", { class: "ram-pieces" }, this.svg);
    this.fx = svgEl("g", { class: "ram-fx" }, this.svg);
    const boardBox = document.createElement("div");
    boardBox.className = "ram-board-box";
    boardBox.appendChild(this.svg);
    this.stacks = document.createElement("div");
    this.stacks.className = "ram-stacks";
    this.wrap.append(boardBox, this.stacks);
    parent.appendChild(this.wrap);
  }

  clearPieces(): void {
    this.piecesLayer.replaceChildren();
    this.fx.replaceChildren();
  }

  /** A bot (large, ringed in `seatColor`, labelled `name`) or a beacon (small). */
  createPiece(ref: string, colour: Colour, opts: { bot: boolean; seatColor?: string; name?: string; title: string }): PieceShape {
    const g = svgEl("g", { class: opts.bot ? "ram-piece-g ram-bot" : "ram-piece-g ram-beacon", "data-ref": ref, "data-colour": colour }, this.piecesLayer);
    svgEl("title", {}, g, opts.title);
    if (opts.bot) {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", opts.title);
      svgEl("circle", { r: 46, class: "ram-seat-ring", stroke: opts.seatColor ?? "#374151" }, g);
    }
    const body = svgEl("g", { class: "ram-body" }, g);
    if (opts.bot && opts.name) {
      const label = svgEl("text", { y: 46, "text-anchor": "middle", class: "ram-name" }, g, shortName(opts.name));
      // Wide letters can still overflow the square: squeeze the label to fit (needs layout; 0 without one).
      const width = typeof label.getComputedTextLength === "function" ? label.getComputedTextLength() : 0;
      if (width > NAME_MAX) {
        label.setAttribute("textLength", String(NAME_MAX));
        label.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
    const shape: PieceShape = { ref, g, body, colour, size: opts.bot ? "L" : "S" };
    // Bots above beacons.
    if (!opts.bot && this.piecesLayer.firstChild !== g) this.piecesLayer.insertBefore(g, this.piecesLayer.firstChild);
    return shape;
  }

  setDir(shape: PieceShape, dir: RDir): void {
    drawPyramid(shape.body, shape.colour, shape.size, dir);
    shape.g.setAttribute("data-dir", dir);
  }

  /** Place a piece; x/y may be fractional during a move; `scale` and `turn` (degrees) for effects. */
  pose(shape: PieceShape, x: number, y: number, scale = 1, turn = 0): void {
    const cx = x * SQ + SQ / 2, cy = y * SQ + SQ / 2;
    shape.g.setAttribute("transform", `translate(${cx.toFixed(2)} ${cy.toFixed(2)})`);
    shape.body.setAttribute("transform", `${turn ? `rotate(${turn.toFixed(1)}) ` : ""}${scale !== 1 ? `scale(${scale.toFixed(3)})` : ""}`.trim());
  }

  /** A beam of colour `colour` from the shooter's square along `dir`, to the square it hits (or off the board). */
  beam(from: Coord, dir: RDir, at: Coord | null, colour: Colour): SVGGElement {
    const g = svgEl("g", { class: `ram-fx-beam beam-${colour}` }, this.fx);
    if (dir === "up") {
      // Fired straight upwards: a ring on the shooter.
      svgEl("circle", { cx: from[0] * SQ + SQ / 2, cy: from[1] * SQ + SQ / 2, r: 40, fill: "none", stroke: COLOUR_HEX[colour], "stroke-width": 6 }, g);
      return g;
    }
    const [dx, dy] = STEP[dir];
    const x1 = (from[0] + 0.5 + dx * 0.45) * SQ, y1 = (from[1] + 0.5 + dy * 0.45) * SQ;
    let x2: number, y2: number;
    if (at) {
      x2 = (at[0] + 0.5 - dx * 0.3) * SQ;
      y2 = (at[1] + 0.5 - dy * 0.3) * SQ;
    } else {
      // To the wall.
      x2 = dx > 0 ? BOARD_SQUARES * SQ : dx < 0 ? 0 : x1;
      y2 = dy > 0 ? BOARD_SQUARES * SQ : dy < 0 ? 0 : y1;
    }
    svgEl("line", { x1, y1, x2, y2, class: "ram-beam-glow", stroke: COLOUR_HEX[colour] }, g);
    svgEl("line", { x1, y1, x2, y2, class: "ram-beam-core" }, g);
    if (at) svgEl("circle", { cx: x2, cy: y2, r: 12, fill: COLOUR_HEX[colour], class: "ram-beam-hit" }, g);
    return g;
  }

  flash(x: number, y: number, tone: "damage" | "good" | "info"): SVGGElement {
    const g = svgEl("g", { class: `ram-fx-flash flash-${tone}`, transform: `translate(${x * SQ} ${y * SQ})` }, this.fx);
    svgEl("rect", { x: 4, y: 4, width: SQ - 8, height: SQ - 8, rx: 12 }, g);
    return g;
  }

  bubble(x: number, y: number, text: string, tone: string): SVGGElement {
    const k = Math.min(3.5, Math.max(1, BUBBLE_MIN_PX / (BUBBLE_FONT * this.pxPerUnit())));
    // Keep the bubble inside the board at its edges.
    const w = Math.max(40, text.length * 10.5 + 18);
    const half = (w * k) / 2;
    const cx = Math.min(BOARD_SQUARES * SQ - half, Math.max(half, x * SQ + SQ / 2));
    const cy = Math.max(16 * k, y * SQ + 6);
    const g = svgEl("g", {
      class: `ram-fx-bubble bubble-${tone}`, transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)})${k > 1 ? ` scale(${k.toFixed(3)})` : ""}`,
    }, this.fx);
    svgEl("rect", { x: -w / 2, y: -16, width: w, height: 27, rx: 8 }, g);
    svgEl("text", { y: 4, "text-anchor": "middle" }, g, text);
    return g;
  }

  private pxPerUnit(): number {
    const box = this.svg.viewBox.baseVal;
    const width = this.svg.getBoundingClientRect?.().width ?? 0;
    return box && box.width > 0 && width > 0 ? width / box.width : 1;
  }

  describe(text: string): void {
    this.svg.setAttribute("aria-label", text);
  }

  /** The precedence stack (top first) and each player's goal stack top, beside the board. */
  renderStacks(state: RamState, names: (id: string) => string, seatColor: (id: string) => string, me: { id: string | null; rambots: RamMe | null }): void {
    const prec = h("section", { class: "ram-precedence", "aria-label": "Precedence stack, top first" });
    const ol = h("ol", { class: "ram-prec-list" });
    state.precedence.forEach((c, i) => {
      const li = h("li", { "data-colour": c });
      li.append(pieceIcon(`M-${c}`, "up", 24), document.createTextNode(`${i + 1}. ${COLOUR_NAMES[c]}`));
      ol.appendChild(li);
    });
    prec.append(h("h3", {}, "Precedence"), ol);

    const goals = h("section", { class: "ram-goal-tops", "aria-label": "Goal stacks" });
    const ul = h("ul", { class: "ram-goal-list" });
    for (const p of state.players) {
      const li = h("li", { "data-player": p.id });
      if (p.out) li.classList.add("out");
      const sw = h("span", { class: "ram-swatch" });
      sw.style.background = seatColor(p.id);
      sw.style.borderColor = COLOUR_HEX[p.colour];
      const who = h("span", { class: "ram-goal-who" }, `${names(p.id)}${me.id === p.id ? " (you)" : ""}`);
      const top = h("span", { class: "ram-goal-top" });
      // Before every stack is built nothing is counted yet (goals_left is 0): no "all tagged" then.
      const building = goalsHidden(state);
      if (building) {
        // This player's stack is built by its maker (goals_built: built the stack for the neighbour).
        const maker = p.goal_maker ? state.players.find((q) => q.id === p.goal_maker) : undefined;
        top.textContent = maker?.goals_built || (p.goals?.length ?? 0) > 0 ? "goal stack built (hidden)" : "goal stack being built";
      }
      else if (p.goals_left <= 0) top.textContent = "all tagged";
      else if (p.goal_top) {
        top.append(pieceIcon(p.goal_top, "up", 22), document.createTextNode(`${COLOUR_NAMES[parsePiece(p.goal_top)?.colour ?? "red"]} next`));
        top.title = `Next goal: ${pieceLabel(p.goal_top)}`;
      } else top.textContent = "hidden";
      const left = h("span", { class: "ram-goal-left" }, building ? "" : `${p.goals_left} left`);
      li.append(sw, who, top, left);
      // My whole stack when I may see it (the owner once all are built), and the one I made.
      if (p.goals && p.goals.length) {
        const all = h("span", {
          class: "ram-goal-all",
          "aria-label": `${me.id === p.id ? "Your" : `${names(p.id)}'s`} goal stack, top first: ${p.goals.map(pieceLabel).join(", ")}`,
        });
        for (const g of p.goals) all.appendChild(pieceIcon(g, "up", 18));
        li.appendChild(all);
      }
      ul.appendChild(li);
    }
    goals.append(h("h3", {}, "Goal stacks"), ul);
    this.stacks.replaceChildren(prec, goals);
  }
}

/** A name legible in its square: whole when it fits (at most 8 characters), otherwise a readable abbreviation,
 * not a cut word: "Normal Computer 1" → "Normal 1" (the number keeps two computers of one strength apart),
 * "Easy Computer" → "Easy C.", "ada_phone_long" → "ada_pho…". The whole name is the piece's title and accessible
 * label (createPiece), and the goal stacks beside the board show it in full. */
export function shortName(name: string): string {
  const trimmed = name.trim();
  const chars = [...trimmed];
  if (chars.length <= 8) return trimmed;
  const words = trimmed.split(/\s+/);
  const number = /^\d{1,2}$/.test(words[words.length - 1]) && words.length > 1 ? words[words.length - 1] : "";
  const first = [...words[0]];
  if (number) return `${first.slice(0, 7 - number.length).join("")} ${number}`;
  if (words.length > 1 && first.length <= 5) return `${words[0]} ${[...words[1]][0]}.`;
  return `${chars.slice(0, 7).join("").trimEnd()}…`;
}

export { dirLabel };
