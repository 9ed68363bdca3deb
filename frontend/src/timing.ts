// How long the animation of each engine event holds the turn at 1x: one table, games/kinds/roboracer/timing.json,
// which the server reads to start the next turn's move clocks after the animation (docs/site.md "When the move
// clock starts") and the page embeds for this module (json_script "animation-timing"). No copy lives here.

export interface Timing {
  /** Steps whose events play one robot after the other (003's chips, roborace's cards and spaces). */
  sequential_steps: string[];
  /** ms at 1x that an event of each type holds its robot's chain (absent: no time). */
  events_ms: Record<string, number>;
}

const NONE: Timing = { sequential_steps: [], events_ms: {} };
let table: Timing | null = null;

function valid(t: unknown): t is Timing {
  const r = t as Timing;
  return !!r && Array.isArray(r.sequential_steps) && !!r.events_ms && typeof r.events_ms === "object";
}

/** The page's table (read once); without one (a page that does not embed it) every event is instant. */
export function timing(): Timing {
  if (table) return table;
  let found: unknown = null;
  try {
    const el = typeof document !== "undefined" ? document.getElementById("animation-timing") : null;
    found = el?.textContent ? JSON.parse(el.textContent) : null;
  } catch {
    found = null;
  }
  table = valid(found) ? found : NONE;
  return table;
}

/** Use this table (the node tests read timing.json with it). */
export function useTiming(t: Timing): void {
  table = t;
}

/** ms at 1x of one event of `type`. */
export function eventMs(type: string): number {
  const ms = timing().events_ms[type];
  return typeof ms === "number" && ms > 0 ? ms : 0;
}
