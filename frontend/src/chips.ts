// Labels and icons for program chips, shared by the program UI, the board and the turn log.
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
};

export function chipLabel(chip: Chip): string {
  return CHIPS[chip]?.label ?? `Chip ${chip}`;
}

export function chipShort(chip: Chip): string {
  return CHIPS[chip]?.short ?? chip;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A small inline SVG icon for a chip (a "?" for chips this client does not know). */
export function chipIcon(chip: Chip): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "chip-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const info = CHIPS[chip];
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
