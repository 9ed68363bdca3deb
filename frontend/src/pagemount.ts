// What every page bundle that loads on a site page does first (game.js, site.js): inject the board's and
// the screen's styles once, and open the per-user notifications socket for a signed-in user.
import { Notifications } from "./notify";
import css from "./styles.css?inline";

export function injectStyles(): void {
  if (document.getElementById("roboracer-styles")) return;
  const style = document.createElement("style");
  style.id = "roboracer-styles";
  style.textContent = css;
  document.head.appendChild(style);
}

/** The per-user notifications socket, for signed-in users: the path from a [data-notifications-url]
 * (the game page sets it), else the default when the page header shows a signed-in user. */
export function mountNotifications(root: HTMLElement | null): void {
  if (root?.dataset.demoSrc !== undefined) return;
  const marked = document.querySelector<HTMLElement>("[data-notifications-url]");
  const path = marked ? marked.dataset.notificationsUrl : document.querySelector(".site-header .who") ? "/ws/notifications/" : "";
  if (!path) return;
  const game = Number(root?.dataset.gameId);
  const notices = new Notifications(Number.isInteger(game) && game > 0 ? game : null,
    document.querySelector("main") ?? document.body);
  notices.connect(path);
  (window as unknown as { roboracerNotices?: unknown }).roboracerNotices = notices;
}

/** Run `mount` once the document is parsed. */
export function onReady(mount: () => void): void {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount, { once: true });
  else mount();
}
