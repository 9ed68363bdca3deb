// Entry point of game.js, the game page's bundle (game.html, demo.html): mounts the game screen into
// #game-root (live, or the offline demo when the root has data-demo-src; screen.ts) and the per-user
// notifications socket. The other pages' previews, price charts and notices are site.js's (site.ts).
import { GameScreen } from "./screen";
import { injectStyles, mountNotifications, onReady } from "./pagemount";

onReady(() => {
  injectStyles();
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
});
