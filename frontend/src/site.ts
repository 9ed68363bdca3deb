// Entry point of site.js, the bundle of the site's pages that show courses or notices but no game screen
// (the lobby, how to play, the invitation, the course gallery, a course's page and its review): the
// board's styles, course previews into every [data-course-preview] (previews.ts), a course's price chart
// (pricechart.ts) and the per-user notifications socket. It holds none of the game screen (game.js).
import { injectStyles, mountNotifications, onReady } from "./pagemount";
import { mountPriceCharts } from "./pricechart";
import { mountPreviews } from "./previews";

onReady(() => {
  injectStyles();
  mountPreviews();
  mountPriceCharts();
  mountNotifications(null);
});
