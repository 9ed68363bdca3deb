// The legend under a course: each element type it uses drawn by the registry on a one-square board, each
// linking to its explanation on the how-to-play page.
import { drawSample, LEGEND, svgEl } from "./elements";
import type { Course } from "./types";

/** The how-to-play page (games/urls.py), where every element type has an anchor `element-<type>`. */
export const HOW_TO_PLAY = "/how-to-play/";

/** A legend for the element types a course uses: each drawn by the registry on a one-square board, each
 * linking to its explanation on the how-to-play page. */
export function drawLegend(
  parent: HTMLElement, course: Course,
  robotText = "Robot: seat colour and number, the nose shows its heading; ♥ lives, red badge damage; faded and dashed = virtual",
): HTMLDetailsElement {
  const details = document.createElement("details");
  details.className = "rr-legend";
  const summary = document.createElement("summary");
  summary.textContent = "Legend";
  const list = document.createElement("ul");
  details.append(summary, list);
  const elements = Array.isArray(course.elements) ? course.elements : [];
  // Each entry links to its explanation on the how-to-play page (an anchor per element type there).
  const entry = (draw: (svg: SVGSVGElement) => void, text: string, anchor: string): void => {
    const li = document.createElement("li");
    const svg = svgEl("svg", { viewBox: "-6 -6 112 112", "aria-hidden": "true", class: "legend-icon" });
    svgEl("rect", { x: 0, y: 0, width: 100, height: 100, class: "tile" }, svg);
    draw(svg);
    const link = document.createElement("a");
    link.href = `${HOW_TO_PLAY}#${anchor}`;
    link.textContent = text;
    li.append(svg, link);
    list.appendChild(li);
  };
  // classic's wrench/hammer squares are repair elements drawn apart, so they get a line of their own.
  const upgradeSquare = (e: unknown): boolean => !!e && (e as { upgrade?: unknown }).upgrade === true;
  for (const [type, text] of Object.entries(LEGEND)) {
    const sample = elements.find((e) => e && e.type === type && !upgradeSquare(e));
    if (!sample) continue;
    entry((svg) => drawSample(svg, sample), text, `element-${type}`);
  }
  const upgrades = elements.find(upgradeSquare);
  if (upgrades) {
    entry((svg) => drawSample(svg, upgrades), "Upgrade square (wrench and hammer): repairs and gives the upgrade named on it",
      "element-repair");
  }
  entry((svg) => {
    const g = svgEl("g", { class: "legend-bot", transform: "translate(50 50) scale(0.8)" }, svg);
    svgEl("path", { d: "M0 -46L21 -20H-21z", class: "bot-nose", fill: "#1d4ed8" }, g);
    svgEl("circle", { r: 29, class: "bot-shell", fill: "#1d4ed8" }, g);
    svgEl("text", { y: 10, "text-anchor": "middle", class: "bot-label" }, g, "2");
  }, robotText, "robots");
  parent.appendChild(details);
  return details;
}
