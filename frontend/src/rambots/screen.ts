// The RAMbots game screen's own parts (kinds.ts): the board with its stacks, the programming panel and the
// turn log. The game screen (screen.ts) keeps everything shared and calls these through the KindScreen
// interface: a snapshot draws the live state; a resolved turn plays event by event through RamAnimator,
// updating the model (model.ts), the stacks, the seat list and the log as it goes.
import { h } from "../dom";
import type { CustomResults } from "../results";
import type { KindHost, KindScreen } from "../kinds";
import type { SeatView } from "../panel";
import type { EngineEvent, Seat, Snapshot, TurnRecord } from "../types";
import { RamAnimator } from "./animate";
import { pieceIcon, RamBoard } from "./board";
import { describePlayed, describeTurn, playerWord } from "./log";
import { applyRamEvent, cloneState, goalsHidden, playerById, precedenceOrder, readMe, sortPieces } from "./model";
import { RambotsPanel } from "./panel";
import { nameOfSeat, ramStatusText, seatFor, seatGoalText, stateOf } from "./status";
import { COLOUR_HEX, COLOUR_NAMES, parsePiece, pieceLabel, type RamState } from "./types";
import css from "./rambots.css?inline";

/** Phones (one column): as styles.css and roboracer/boardbox.ts isNarrow. */
const NARROW = "(max-width: 800px)";

function injectStyles(): void {
  if (document.getElementById("rambots-styles")) return;
  const style = document.createElement("style");
  style.id = "rambots-styles";
  style.textContent = css;
  document.head.appendChild(style);
}

export class RambotsScreen implements KindScreen {
  readonly player: RamAnimator;
  onPhase: ((text: string) => void) | null = null;
  private readonly board: RamBoard;
  private readonly panel: RambotsPanel;
  private readonly logSection: HTMLElement;
  private readonly logTitle: HTMLHeadingElement;
  private readonly logList: HTMLOListElement;
  /** The live state (from the snapshot, then the events of a live turn as they play). */
  private live: RamState = cloneState(null);
  /** What the board and the stacks show: the live state or a replayed turn's. */
  private view: RamState = cloneState(null);
  private snap: Snapshot | null = null;
  private replayTitle = "";

  constructor(private readonly host: KindHost) {
    injectStyles();
    host.root.classList.add("kind-rambots");
    this.board = new RamBoard(host.boardCol);
    this.player = new RamAnimator(this.board);
    this.player.onGroup = (index, count, first) => {
      const r = first as Record<string, unknown>;
      const what = first.type === "instruction" ? `${playerWord(this.view, r.player)}'s ${String(r.piece)}` : "";
      this.onPhase?.(`${this.replayTitle}${what ? `${what} · ` : ""}step ${index + 1} of ${count}`);
    };
    this.panel = new RambotsPanel(host.panelCol, (body) => host.postMove(body), () => host.changed());
    this.panel.fetchMine = () => host.fetchSnapshot();
    host.panelCol.insertBefore(this.panel.el, host.panel.seatsSection);
    window.matchMedia?.(NARROW).addEventListener?.("change", () => this.placePanel());
    this.logSection = h("section", { class: "ram-log-section rr-log-section", "aria-labelledby": "ram-log-title" });
    this.logTitle = h("h2", { id: "ram-log-title" }, "Turn log");
    this.logList = h("ol", { id: "ram-turn-log", class: "ram-log" });
    this.logSection.append(this.logTitle, this.logList, h("p", { class: "rr-log-empty" }, "No round played yet."));
    host.logCol.appendChild(this.logSection);
  }

  private names = (id: string): string => (this.snap ? nameOfSeat(seatFor(this.snap, id), id) : `Player ${id}`);

  show(snap: Snapshot): void {
    this.player.cancel();
    this.snap = snap;
    this.live = stateOf(snap);
    this.showLive(snap);
  }

  showLive(snap: Snapshot): void {
    this.snap = snap;
    this.replayTitle = "";
    this.view = this.live;
    this.draw(snap);
  }

  showBefore(snap: Snapshot, record: TurnRecord): boolean {
    const before = (record.before ?? {}) as Record<string, unknown>;
    const raw = before.rambots ?? (Array.isArray(before.players) ? before : null);
    if (!raw) return false;
    this.view = cloneState(raw);
    this.replayTitle = `Replay of ${record.turn === 0 ? "the goal step" : `round ${record.turn}`} · `;
    this.draw(snap);
    return true;
  }

  private draw(snap: Snapshot): void {
    void this.player.animate({ kind: "reset", state: this.view, seats: snap.seats, names: this.names }, 0);
    this.drawStacks(snap);
    this.describe();
  }

  private drawStacks(snap: Snapshot): void {
    const me = snap.me ? String(snap.me.bot ?? snap.me.seat) : null;
    this.board.renderStacks(this.view, this.names, (id) => seatFor(snap, id)?.color ?? "#9ca3af", {
      id: me, rambots: readMe((snap.me as { rambots?: unknown } | null)?.rambots),
    });
  }

  private describe(): void {
    const parts = this.player.pieces().map((p) => {
      const [kind, id] = p.ref.split(":");
      const what = kind === "bot" ? `${this.names(id)}'s ${playerById(this.view, id)?.colour ?? ""} bot` : `${id} beacon`;
      return `${what} at (${p.at[0]},${p.at[1]}) ${p.dir === "up" ? "upright" : `lying, pointing ${p.dir}`}`;
    });
    this.board.describe(`RAMbots board, 8 by 8. ${parts.join("; ") || "No pieces yet"}.`);
  }

  showLog(snap: Snapshot, turn: number, events: EngineEvent[]): void {
    this.snap = snap;
    this.writeLog(turn === 0 ? "Goal step" : `Round ${turn} log`, describeTurn(this.live, events));
  }

  private writeLog(title: string, lines: ReturnType<typeof describeTurn>): void {
    this.logTitle.textContent = title;
    this.logList.replaceChildren(...lines.map((line) => {
      const li = h("li", { class: line.player ? `ram-log-line${line.pending ? " ram-log-pending" : ""}` : "ram-log-line ram-log-turn" });
      if (line.player) {
        li.dataset.player = line.player;
        const p = playerById(this.view, line.player) ?? playerById(this.live, line.player);
        const who = h("span", { class: "ram-log-who" }, `${p ? COLOUR_NAMES[p.colour] : `Player ${line.player}`} (${this.names(line.player)})`);
        if (p) who.style.borderColor = COLOUR_HEX[p.colour];
        li.append(who, h("span", { class: "ram-log-ins" }, line.instruction),
          h("span", { class: "ram-log-text" }, line.pending ? "running…" : line.text));
      } else li.append(h("span", { class: "ram-log-text" }, line.text));
      return li;
    }));
    const empty = this.logSection.querySelector<HTMLElement>(".rr-log-empty");
    if (empty) empty.hidden = lines.length > 0;
  }

  async playTurn(snap: Snapshot, turn: number, events: EngineEvent[], title: string): Promise<boolean> {
    this.snap = snap;
    const state = this.view;
    const before = cloneState(state);
    const played: EngineEvent[] = [];
    const heading = turn === 0 ? title.replace(/Turn 0 log/, "Goal step") : title.replace(/^Turn (\d+) log$/, "Round $1 log").replace(/Replay of turn/, "Replay of round");
    this.writeLog(heading, []);
    const finished = await this.player.play(events, (e) => {
      played.push(e);
      // A line describes a whole instruction: the one still playing waits for its last event.
      this.writeLog(heading, describePlayed(before, events, played.length));
      if (applyRamEvent(state, e)) {
        this.drawStacks(snap);
        this.host.changed();
      }
    });
    if (!finished) return false;
    this.writeLog(heading, describeTurn(before, events));
    this.describe();
    return true;
  }

  render(snap: Snapshot, moving: boolean, _replaying: number | null): void {
    this.snap = snap;
    this.host.root.dataset.kind = "rambots";
    this.panel.update(snap, this.live, readMe((snap.me as { rambots?: unknown } | null)?.rambots ?? null), moving);
    this.placePanel();
    // The stacks may show my own goal stack now (the owner's, once all are built).
    if (!moving) this.drawStacks(snap);
  }

  /** My own seat's ready / unready: the panel takes the server's program unless it was this page's move. */
  seatEvent(snap: Snapshot, kind: "seat_ready" | "seat_unready", data: unknown): void {
    const seat = (data as { seat?: unknown } | null)?.seat;
    if (snap.me && typeof seat === "number" && seat === snap.me.seat) this.panel.ownSeat(kind === "seat_ready");
  }

  clockSlot(): HTMLElement {
    return this.panel.clockSlot;
  }

  /** Phones: while I build a goal stack or a program, the panel (pool, slots, Compile) goes right under the
   * board, before the stacks, the controls and the log, so that the board and the pieces are one short scroll
   * apart. Otherwise (desktops, nothing to program) it stays in the panel column in front of the seat list. */
  private placePanel(): void {
    const el = this.panel.el;
    const programming = el.dataset.mode === "goals" || el.dataset.mode === "program";
    const narrow = window.matchMedia?.(NARROW).matches ?? false;
    if (narrow && programming) {
      if (el.parentElement !== this.board.wrap) this.board.wrap.insertBefore(el, this.board.stacks);
    } else if (el.parentElement !== this.host.panelCol) {
      this.host.panelCol.insertBefore(el, this.host.panel.seatsSection);
    }
  }

  statusText(snap: Snapshot, moving: boolean): string {
    return ramStatusText(snap, this.live, moving);
  }

  modeText(snap: Snapshot): { text: string; seatsTitle: string } {
    const state = this.live;
    const parts = ["RAMbots"];
    if (state.options.speedbots === true || (snap as { options?: { speedbots?: unknown } }).options?.speedbots === true) parts.push("Speedbots");
    parts.push("tag your four goal colours in order");
    return { text: parts.join(" · "), seatsTitle: snap.status === "lobby" ? "Players" : "Players in precedence order" };
  }

  seatOrder(_snap: Snapshot): string[] {
    return precedenceOrder(this.view);
  }

  /** A seat's line: its bot, goal, goals left, tagged and code pool (empty before the state names it). */
  seatView(_snap: Snapshot, seat: Seat): SeatView {
    const stats = this.seatStats(seat);
    return { stats: stats ? [stats] : [], notes: [], out: false };
  }

  private seatStats(seat: Seat): HTMLElement | null {
    const id = String(seat.bot ?? seat.number);
    const p = playerById(this.view, id);
    if (!p) return null;
    const box = h("span", { class: "ram-seat-stats", "data-player": id });
    const bot = h("span", { class: "stat ram-stat-colour", "data-colour": p.colour });
    bot.append(pieceIcon(`L-${p.colour}`, p.bot.dir, 20), `${COLOUR_NAMES[p.colour]} bot`);
    const goal = h("span", { class: "stat ram-stat-goal" });
    // Before every stack is built, goals_left counts nothing (0): say what this seat is doing instead.
    const building = goalsHidden(this.view);
    const words = seatGoalText(this.view, p, !!seat.ready);
    if (words !== null || !p.goal_top) goal.append(words ?? "next goal hidden");
    else goal.append("next goal ", pieceIcon(p.goal_top, "up", 18), parsePiece(p.goal_top)?.colour ?? "");
    box.append(bot, goal);
    if (!building) {
      box.append(h("span", { class: "stat ram-stat-left" }, `${p.goals_left} goal${p.goals_left === 1 ? "" : "s"} left`),
        h("span", { class: "stat ram-stat-tagged" }, `tagged ${p.tagged}`));
    }
    if (p.out) box.append(h("span", { class: "stat" }, "out"));
    const pool = sortPieces(p.pool, this.view.precedence);
    const poolEl = h("span", {
      class: "ram-seat-pool", "data-pool": pool.join(" "),
      "aria-label": `Code pool: ${pool.length ? pool.map(pieceLabel).join(", ") : "empty"}`,
    });
    poolEl.append(h("span", { class: "stat-label" }, `pool ${pool.length}`));
    for (const piece of pool) poolEl.append(pieceIcon(piece, "up", 18));
    box.append(poolEl);
    return box;
  }

  results(snap: Snapshot, lastTurn: number): CustomResults {
    const state = this.live;
    const winner = state.winner ?? (snap.winner == null ? null : String(snap.winner));
    const rows = state.players.map((p) => {
      const seat = seatFor(snap, p.id) ?? null;
      const done = 4 - p.goals_left;
      return {
        bot: p.id, seat, name: nameOfSeat(seat ?? undefined, p.id), place: 0, winner: p.id === winner,
        note: seat?.ejected ? "forfeited" : p.out ? "out" : "",
        cells: [COLOUR_NAMES[p.colour], `${done} of 4`, String(p.pool.length)], done,
      };
    });
    // The winner first, then by goals tagged (the same number shares a place).
    const key = (r: { winner: boolean; done: number }): number => (r.winner ? 100 : 0) + r.done;
    rows.sort((a, b) => key(b) - key(a) || Number(a.bot) - Number(b.bot));
    rows.forEach((r, i) => { r.place = i > 0 && key(rows[i - 1]) === key(r) ? rows[i - 1].place : i + 1; });
    const rounds = Math.max(0, lastTurn);
    const mine = snap.me ? String(snap.me.bot ?? snap.me.seat) : null;
    const w = rows.find((r) => r.winner);
    return {
      summary: w ? `${w.bot === mine ? "You win" : `${w.name} wins`} after ${rounds} round${rounds === 1 ? "" : "s"}: all four goals tagged.`
        : `The game is over after ${rounds} round${rounds === 1 ? "" : "s"}.`,
      columns: [["Bot", "col-colour"], ["Goals tagged", "col-goals"], ["Pool", "col-pool"]],
      rows: rows.map(({ done: _done, ...r }) => r),
    };
  }
}

