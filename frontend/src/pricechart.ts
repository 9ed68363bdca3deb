// A course's module prices and how they moved (the course page, issue 15): from
// GET /api/courses/<slug>/prices/ into a table and a small SVG line chart. No chart library: a polyline per
// module, the time axis by point order (points come oldest first).
import { h } from "./dom";
import { svgEl } from "./elements";
import { moduleLabel, MODULE_NAMES } from "./modules";

export interface PricePoint { at: string; game: number | null; prices: Record<string, number> }
export interface CoursePrices {
  course: string;
  finished_games: number;
  source: "course" | "site" | string;
  prices: Record<string, number>;
  history: PricePoint[];
}

/** 17 distinguishable colours (one per module, in MODULE_NAMES order). */
const COLOURS = [
  "#e6194b", "#3cb44b", "#b8860b", "#4363d8", "#f58231", "#911eb4", "#0f9fb5", "#d020c8", "#6b8e23", "#c0506f",
  "#008080", "#7a4fc7", "#9a6324", "#4b5563", "#800000", "#2e8b57", "#000075",
];

export function moduleColour(name: string): string {
  const i = (MODULE_NAMES as readonly string[]).indexOf(name);
  return COLOURS[(i < 0 ? 0 : i) % COLOURS.length];
}

/** Where a new game on this course starts from, in words. */
export function sourceText(data: Pick<CoursePrices, "source" | "finished_games">): string {
  const games = `${data.finished_games} finished game${data.finished_games === 1 ? "" : "s"}`;
  return data.source === "course"
    ? `A new game here starts from these prices: this course's own price book (${games}).`
    : `This course has ${games}, too few for its own prices: a new game here starts from the average across all courses.`;
}

export interface Chart {
  /** The polyline points of each module that has a price in the history, in board units. */
  lines: { module: string; points: [number, number][] }[];
  min: number;
  max: number;
}

/** The chart's geometry: x from 0 to `width` by point order, y from `height` (the lowest price) to 0. */
export function chartLines(history: readonly PricePoint[], width: number, height: number): Chart {
  const modules = MODULE_NAMES.filter((m) => history.some((p) => typeof p.prices?.[m] === "number"));
  let min = Infinity, max = -Infinity;
  for (const p of history) {
    for (const m of modules) {
      const v = p.prices?.[m];
      if (typeof v === "number") { min = Math.min(min, v); max = Math.max(max, v); }
    }
  }
  if (!Number.isFinite(min)) return { lines: [], min: 0, max: 0 };
  if (max === min) { max += 1; min -= 1; }
  const n = history.length;
  const x = (i: number): number => (n <= 1 ? width / 2 : (i / (n - 1)) * width);
  const y = (v: number): number => height - ((v - min) / (max - min)) * height;
  const lines = modules.map((m) => ({
    module: m,
    points: history.flatMap((p, i) => (typeof p.prices?.[m] === "number" ? [[x(i), y(p.prices[m])] as [number, number]] : [])),
  }));
  return { lines, min, max };
}

const W = 600, H = 220, PAD_L = 44, PAD_R = 10, PAD_T = 10, PAD_B = 26;

/** Draw the prices of `data` into `el` (replacing its content). */
export function renderPrices(el: HTMLElement, data: CoursePrices): void {
  const history = Array.isArray(data.history) ? data.history : [];
  const first = history[0]?.prices ?? {};
  const status = h("p", { class: "prices-source" }, sourceText(data));
  const table = h("table", { class: "prices-table", id: "course-price-table" });
  const head = h("thead");
  const hr = h("tr");
  for (const c of ["Module", "Price of 1 charge", "Since the first point"]) hr.appendChild(h("th", { scope: "col" }, c));
  head.appendChild(hr);
  const body = h("tbody");
  for (const m of MODULE_NAMES) {
    const price = data.prices?.[m];
    if (typeof price !== "number") continue;
    const tr = h("tr", { "data-module": m, "data-price": String(price) });
    const name = h("th", { scope: "row" });
    const sw = h("span", { class: "price-swatch", "aria-hidden": "true" });
    sw.style.background = moduleColour(m);
    name.append(sw, document.createTextNode(moduleLabel(m)));
    const was = first[m];
    const delta = typeof was === "number" ? price - was : 0;
    tr.append(name, h("td", {}, String(price)),
      h("td", { class: delta > 0 ? "up" : delta < 0 ? "down" : "" }, delta > 0 ? `▲ ${delta}` : delta < 0 ? `▼ ${-delta}` : "–"));
    body.appendChild(tr);
  }
  table.append(head, body);

  const figure = h("figure", { class: "prices-chart" });
  const chart = chartLines(history, W - PAD_L - PAD_R, H - PAD_T - PAD_B);
  if (history.length >= 2 && chart.lines.length) {
    const svg = svgEl("svg", {
      viewBox: `0 0 ${W} ${H}`, role: "img", id: "course-price-chart",
      "aria-label": `Module prices over the last ${history.length} changes, from ${history[0].at.slice(0, 10)} to ${history[history.length - 1].at.slice(0, 10)}`,
    });
    const plot = svgEl("g", { transform: `translate(${PAD_L} ${PAD_T})` }, svg);
    const ph = H - PAD_T - PAD_B, pw = W - PAD_L - PAD_R;
    svgEl("rect", { x: 0, y: 0, width: pw, height: ph, class: "chart-bg" }, plot);
    for (const [v, yy] of [[chart.max, 0], [Math.round((chart.max + chart.min) / 2), ph / 2], [chart.min, ph]] as [number, number][]) {
      svgEl("line", { x1: 0, x2: pw, y1: yy, y2: yy, class: "chart-grid" }, plot);
      svgEl("text", { x: -6, y: yy + 4, "text-anchor": "end", class: "chart-label" }, plot, String(Math.round(v)));
    }
    svgEl("text", { x: 0, y: ph + 18, class: "chart-label" }, plot, history[0].at.slice(0, 10));
    svgEl("text", { x: pw, y: ph + 18, "text-anchor": "end", class: "chart-label" }, plot, history[history.length - 1].at.slice(0, 10));
    for (const line of chart.lines) {
      const pl = svgEl("polyline", {
        points: line.points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "),
        class: "chart-line", stroke: moduleColour(line.module), "data-module": line.module,
      }, plot);
      svgEl("title", {}, pl, `${moduleLabel(line.module)}: ${data.prices?.[line.module] ?? "?"} now`);
    }
    figure.appendChild(svg);
    figure.appendChild(h("figcaption", {}, `How the prices moved over the last ${history.length} changes (every charge bought on this course moves them).`));
  } else {
    figure.appendChild(h("figcaption", {}, "No charge has been bought on this course yet: the prices have not moved."));
  }
  el.replaceChildren(status, figure, table);
  el.dataset.loaded = "1";
}

/** Every [data-course-prices][data-url] on the page: fetch and draw. */
export function mountPriceCharts(): void {
  for (const el of document.querySelectorAll<HTMLElement>("[data-course-prices][data-url]")) {
    const target = el.querySelector<HTMLElement>("[data-prices-body]") ?? el;
    fetch(el.dataset.url ?? "", { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() as Promise<CoursePrices> : Promise.reject(new Error(String(r.status)))))
      .then((data) => renderPrices(target, data))
      .catch(() => {
        target.replaceChildren(h("p", { class: "prices-source" }, "The module prices could not be loaded."));
        el.dataset.loaded = "error";
      });
  }
}
