// Labels and icons for program chips, shared by the program UI, the board and the turn log.
// A numbered card (roborace, docs/formats.md "Numbered cards") is written "<chip>@<number>": "R@5" is a
// right turn numbered 5. Its face is the chip's; its number shows beside it ("Turn right · 5").
import type { Chip } from "./types";

interface ChipInfo { label: string; short: string; path: string }

// Icon paths in a 24x24 box, drawn as strokes in currentColor.
const CHIPS: Record<string, ChipInfo> = {
  "1": { label: "Move 1", short: "1", path: "M12 20V5M6 11l6-6 6 6" },
  "2": { label: "Move 2", short: "2", path: "M12 21V8M6 10l6-6 6 6M6 16l6-6 6 6" },
  "3": { label: "Move 3", short: "3", path: "M6 8l6-6 6 6M6 14l6-6 6 6M6 20l6-6 6 6" },
  B: { label: "Back up", short: "B", path: "M12 4v15M6 13l6 6 6-6" },
  L: { label: "Turn left", short: "L", path: "M17 21v-10q0-5-5-5H6M10 2 6 6l4 4" },
  R: { label: "Turn right", short: "R", path: "M7 21v-10q0-5 5-5h6M14 2l4 4-4 4" },
  U: { label: "U-turn", short: "U", path: "M7 21V9q0-5 5-5t5 5v8M13 13l4 4 4-4" },
  "0": { label: "Do nothing", short: "0", path: "M8 12a4 4 0 1 0 8 0a4 4 0 1 0-8 0" },
  // classic (000) with upgrades: Fourth Gear, Brakes (move 0), Reverse Gear (back up 2).
  "4": { label: "Move 4", short: "4", path: "M6 6l6-4 6 4M6 11l6-4 6 4M6 16l6-4 6 4M6 21l6-4 6 4" },
  F0: { label: "Brakes (move 0)", short: "F0", path: "M8 12a4 4 0 1 0 8 0a4 4 0 1 0-8 0M4 20h16" },
  B2: { label: "Back up 2", short: "B2", path: "M12 3v15M6 8l6 6 6-6M6 14l6 6 6-6" },
};

/** A chip this client knows, or a classic double instruction "1+L" (Crab Legs, Dual Processor): both parts'
 * words, the first part's icon. */
function infoOf(chip: Chip): ChipInfo | undefined {
  const known = CHIPS[chip];
  if (known) return known;
  const parts = String(chip).split("+");
  if (parts.length !== 2 || !parts.every((p) => CHIPS[p])) return undefined;
  const [a, b] = parts.map((p) => CHIPS[p]);
  return { label: `${a.label} + ${b.label.toLowerCase()}`, short: `${a.short}+${b.short}`, path: a.path };
}

export interface Card {
  /** The chip ("R"): what the card does. */
  chip: Chip;
  /** The card's number (roborace: the larger acts first), or null for a plain chip. */
  number: number | null;
}

/** A card as written: "R@5" → {chip "R", number 5}; a plain chip "R" → {chip "R", number null}. Anything
 * after "@" that is not a whole number leaves the text as one (unknown) chip. */
export function parseCard(card: Chip): Card {
  const text = String(card);
  const at = text.lastIndexOf("@");
  if (at > 0 && /^\d{1,6}$/.test(text.slice(at + 1))) return { chip: text.slice(0, at), number: Number(text.slice(at + 1)) };
  return { chip: text, number: null };
}

/** The chip of a card ("R@5" → "R"; "R" → "R"). */
export function cardChip(card: Chip): Chip {
  return parseCard(card).chip;
}

/** The number of a card ("R@5" → 5), null for a plain chip. */
export function cardNumber(card: Chip): number | null {
  return parseCard(card).number;
}

/** A chip or card in words: "Turn right", "Turn right · 5". */
export function chipLabel(card: Chip): string {
  const { chip, number } = parseCard(card);
  const label = infoOf(chip)?.label ?? `Chip ${chip}`;
  return number === null ? label : `${label} · ${number}`;
}

/** A played card in the turn log: "Move 2 (70)"; a plain chip as chipLabel. `number` is the event's. */
export function playedText(chip: Chip, number?: unknown): string {
  const card = parseCard(chip);
  const n = typeof number === "number" && Number.isFinite(number) ? number : card.number;
  const label = infoOf(card.chip)?.label ?? `Chip ${card.chip}`;
  return n === null ? label : `${label} (${n})`;
}

export function chipShort(card: Chip): string {
  const { chip, number } = parseCard(card);
  const short = infoOf(chip)?.short ?? chip;
  return number === null ? short : `${short}${number}`;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A small inline SVG icon for a chip or card (a "?" for chips this client does not know). */
export function chipIcon(card: Chip): SVGSVGElement {
  const chip = cardChip(card);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "chip-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const info = infoOf(chip);
  if (info) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", info.path);
    svg.appendChild(p);
  } else {
    const t = document.createElementNS(SVG_NS, "text");
    t.setAttribute("x", "12");
    t.setAttribute("y", "17");
    t.setAttribute("text-anchor", "middle");
    t.textContent = "?";
    svg.appendChild(t);
  }
  return svg;
}
