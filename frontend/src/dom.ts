// Building HTML elements: every text goes in as textContent, never as markup.
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Record<string, string> = {}, text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The game page's note for a viewer without a seat, when the server has one (`data-watch-note` on #game-root:
 * "You were replaced by bob in this tournament ..."). */
export function pageWatchNote(): string | undefined {
  try {
    const root = typeof document.getElementById === "function" ? document.getElementById("game-root") : null;
    return root?.dataset?.watchNote;
  } catch {
    return undefined;
  }
}

/** What the program panel says to a viewer without a seat: the page's note for them, else "You are watching this
 * game." */
export function watchingText(note: string | null | undefined = pageWatchNote()): string {
  return typeof note === "string" && note.trim() ? note.trim() : "You are watching this game.";
}
