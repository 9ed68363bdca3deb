// Bot accounts (issue 41, docs/bot-api.md): a program plays the account through the Bot API. Its name shows a
// BOT badge wherever it appears (robot list, results, lobby rows), as the server's pages show one.
import { h } from "./dom";

/** The seat (or summary) says its account is a bot account. Older servers and the demo files say nothing. */
export function isBotAccount(flag: unknown): boolean {
  return flag === true;
}

/** `span.badge.bot-badge`: "BOT". */
export function botBadge(): HTMLSpanElement {
  const badge = h("span", { class: "badge bot-badge" }, "BOT");
  badge.title = "A bot account: a program plays it";
  return badge;
}
