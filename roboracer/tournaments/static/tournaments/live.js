// The tournament page follows its tournament (organisers' issue item 1; docs/tournaments.md "A live page"). The
// socket /ws/tournaments/<id>/ says only "tournament_changed"; the page then asks for its live part again
// (?part=live, rendered for this viewer, so a player's own "your game is ready" card reaches only them) and swaps
// it in. A page whose socket comes back, or that comes back into view, asks again: the channel layer is
// at-most-once. The start countdown ticks here. Without this script the page refreshes itself (<noscript>).
const root = document.getElementById("tournament-live");

/** "2 days 3 h", "3 h 4 min", "4 min 05 s", "12 s": how long until `ms` from now. */
export function countdownText(ms) {
  if (ms <= 0) return "now";
  const s = Math.ceil(ms / 1000);
  const days = Math.floor(s / 86400), hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60), seconds = s % 60;
  if (days) return `in ${days} day${days === 1 ? "" : "s"}${hours ? ` ${hours} h` : ""}`;
  if (hours) return `in ${hours} h ${minutes} min`;
  if (minutes) return `in ${minutes} min ${String(seconds).padStart(2, "0")} s`;
  return `in ${seconds} s`;
}

if (root) {
  const id = root.dataset.tournament;
  let fetching = false;
  let again = false;
  let last = "";
  let delay = 1000;
  let opened = false;

  const swap = (html) => {
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : "";
    root.innerHTML = html;
    if (focused) document.getElementById(focused)?.focus();
    root.dataset.updates = String(Number(root.dataset.updates || 0) + 1);
    tick();
  };

  // One request at a time; a change that arrives meanwhile asks once more when it is back (never out of order).
  const refresh = async () => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        again = false;
        const response = await fetch(`${location.pathname}?part=live`, { credentials: "same-origin", cache: "no-store" });
        if (!response.ok) break;
        const html = await response.text();
        if (html !== last) {
          last = html;
          swap(html);
        }
      } while (again);
    } catch {
      // offline: the socket's return asks again
    } finally {
      fetching = false;
    }
  };

  const connect = () => {
    const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tournaments/${id}/`);
    socket.addEventListener("open", () => {
      delay = 1000;
      root.dataset.socket = "open";
      if (opened) refresh(); // it may have missed a change while it was away
      opened = true;
    });
    socket.addEventListener("message", (e) => {
      try {
        if (JSON.parse(e.data).type === "tournament_changed") refresh();
      } catch {
        // not ours
      }
    });
    socket.addEventListener("close", (e) => {
      root.dataset.socket = "closed";
      if (e.code === 4404) return; // no such tournament
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  };

  // The countdown to the start: the time from the server's page, counted here each second.
  const tick = () => {
    const box = root.querySelector("#start-countdown[data-starts]");
    const text = box?.querySelector("[data-countdown]");
    if (!box || !text) return;
    const left = Date.parse(box.dataset.starts) - Date.now();
    text.textContent = countdownText(left);
  };

  setInterval(tick, 1000);
  tick();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  connect();
}
