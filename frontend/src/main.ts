// Entry point of game.js. Mounts the game screen into #game-root (live, or the offline demo when the root
// has data-demo-src; screen.ts), course previews into every [data-course-preview] (previews.ts), the price
// charts and the per-user notifications socket.
import { Notifications } from "./notify";
import { mountPriceCharts } from "./pricechart";
import { mountPreviews } from "./previews";
import { GameScreen } from "./screen";
import css from "./styles.css?inline";

function injectStyles(): void {
  if (document.getElementById("roboracer-styles")) return;
  const style = document.createElement("style");
  style.id = "roboracer-styles";
  style.textContent = css;
  document.head.appendChild(style);
}

/** The per-user notifications socket, for signed-in users: the path from a [data-notifications-url]
 * (the game page sets it), else the default when the page header shows a signed-in user. */
function mountNotifications(root: HTMLElement | null): void {
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

function mount(): void {
  injectStyles();
  mountPreviews();
  mountPriceCharts();
  const root = document.getElementById("game-root");
  mountNotifications(root);
  if (!root || root.dataset.mounted === "1") return;
  root.dataset.mounted = "1";
  const screen = new GameScreen(root, {
    apiUrl: root.dataset.apiUrl ?? "",
    wsPath: root.dataset.wsUrl ?? "",
    demoSrc: root.dataset.demoSrc ?? "",
  });
  (window as unknown as { roboracer?: unknown }).roboracer = { screen };
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount, { once: true });
else mount();
