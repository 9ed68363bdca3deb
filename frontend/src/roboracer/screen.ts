// The RoboRacer game screen's own parts (kinds.ts): the board and its animation (board.ts, animate.ts),
// the programming panel (program.ts, modmenu.ts), the turn log (log.ts) and the robots' lines in the seat
// list. The game screen (screen.ts) keeps everything shared and calls these through the KindScreen interface.
import { Animator } from "../animate";
import { Board, type BoardMemory, drawLegend } from "../board";
import { h } from "../dom";
import type { ScanReply } from "../modmenu";
import type { KindHost, KindScreen } from "../kinds";
import { nameOf, TurnLog, turnPriority } from "../log";
import { postJson, postProgram, programResult, gameActionUrl, type PostResult, type ProgramBody } from "../net";
import type { SeatView, SeatsMode } from "../panel";
import { ProgramUI } from "../program";
import type { CustomResults } from "../results";
import { robotLegend, rulesOf } from "../ruleset";
import { applyEvent, checkpointMarks, cloneBots, pricesAfter, type Bots } from "../state";
import { isCoord } from "../types";
import type { Chip, EngineEvent, ScanResult, Seat, Snapshot, TurnRecord } from "../types";
import { BoardBox } from "./boardbox";
import { robotResults } from "./results";
import { modeText, robotSeatView, statusText } from "./seats";

const STEP_NAMES: Record<string, string> = {
  start: "start", chips: "chips", belts: "belts", pushers: "pushers", turntables: "turntables",
  bot_lasers: "robot lasers", wall_lasers: "wall lasers", crushers: "crushers", checkpoints: "check points",
  repairs: "repairs", virtuality: "virtuality", respawn: "respawn", winning: "winning", priority: "priority",
  // roborace (004)
  cards: "cards", spaces: "spaces", revitalize: "robots back",
  // fused (001) and classic (000)
  fusing: "fusing", express: "express belts", lasers: "lasers",
};

/** What the elements remember (snapshots and turn records carry it since issue 6's elements). */
function boardOf(state: object): BoardMemory | null {
  const board = (state as { board?: unknown }).board;
  return board && typeof board === "object" ? (board as BoardMemory) : null;
}

/** The events that put a robot on another square (a shot's `to` is where its beam ends, not the robot). */
const MOVES_A_ROBOT = new Set(["moved", "pushed", "carried", "slid", "teleported", "respawned"]);

export class RoboRacerScreen implements KindScreen {
  readonly player: Animator;
  onPhase: ((text: string) => void) | null = null;
  private readonly board: Board;
  private readonly box: BoardBox;
  private readonly log: TurnLog;
  private readonly program: ProgramUI;
  private legend: HTMLElement | null = null;
  private courseKey = "";
  private snap: Snapshot | null = null;
  /** The live bots (from the last snapshot, updated by the events of a live turn as it plays). */
  private bots: Bots = new Map();
  /** What the panel and the board show: the live bots, or a replayed turn's bots. */
  private view: Bots = new Map();
  private viewPriority: string[] = [];
  /** The module prices the panel shows (the live ones, or a replayed turn's as it plays). */
  private viewPrices: Record<string, number> = {};
  /** The turn whose events the log shows, and the last resolved turn (as of the last render). */
  private loggedTurn: number | null = null;
  private lastTurn = 0;
  /** "Replay of turn 3 · " in the phase line while a replay plays. */
  private phasePrefix = "";
  /** The record a replay started from (the demo stays on its end). */
  private replayRecord: TurnRecord | null = null;

  constructor(private readonly host: KindHost) {
    // The board scrolls inside its own box when zoomed (phones, big courses): see BoardBox.
    const scroller = h("div", { class: "rr-board-scroll" });
    host.boardCol.appendChild(scroller);
    this.board = new Board(scroller);
    this.player = new Animator(this.board);
    this.player.onGroup = (phase, step) => {
      this.onPhase?.(`${this.phasePrefix}Phase ${phase} · ${STEP_NAMES[step] ?? step}`);
    };
    this.program = new ProgramUI(host.panelCol, (body) => this.sendProgram(body), (turn) => this.scan(turn));
    host.panelCol.insertBefore(this.program.el, host.panel.seatsSection);
    this.box = new BoardBox(this.board, scroller, host.boardCol, host.controls, host.root, () => this.handEnd());
    if (!host.demo && host.apiUrl) {
      // classic's Recompile upgrade (POST /api/games/<id>/recompile/): new instructions for 2 damage.
      this.program.onRecompile = async (turn) => {
        const res = await postJson<{ turn: number; hand: Chip[] }>(gameActionUrl(host.apiUrl, "recompile"), { turn }, "the recompile");
        if (!res.ok) return res;
        return Array.isArray(res.data?.hand) ? { ok: true, hand: res.data.hand.map(String) } : { ok: false, detail: "The recompile's answer could not be read." };
      };
    }
    this.log = new TurnLog(host.logCol);
  }

  /** A program goes over the open game socket (answered there by its id); when the socket is not open, or
   * closes or stays silent before the answer, it goes as POST .../program/ (sending it twice is harmless:
   * the server replaces the seat's program for the turn with the same one). The demo sends nothing: it
   * shows the program it would send. */
  private async sendProgram(body: ProgramBody): Promise<PostResult> {
    const host = this.host;
    if (host.demo) {
      host.root.dataset.demoProgram = JSON.stringify(body);
      host.panel.setConnection(`Demo: would send ${JSON.stringify(body)}`);
      // As if the server held it: a later render must not read "no program" as a cleared one.
      const me = this.snap?.me;
      if (me) Object.assign(me, { program: body.chips, reboot: body.reboot, action: body.action ?? null });
      return { ok: true };
    }
    const reply = await host.socketRequest({ type: "program", ...body });
    const res = reply ? programResult(reply) : await postProgram(host.apiUrl, body);
    // The server holds this program now: a later render (its own seat_ready may come after the
    // answer) must not read the snapshot's old "no program" as the program having been cleared.
    const me = this.snap?.me;
    if (res.ok && me && this.snap?.turn === body.turn) {
      me.program = body.chips;
      me.reboot = body.reboot;
      me.action = (body.action ?? null) as typeof me.action;
      if (rulesOf(this.snap).powerDown) {
        me.power_down = !!(body.action as { power_down?: boolean } | undefined)?.power_down;
        host.seatsChanged(); // the robots panel's "power down next turn requested"
      }
    }
    return res;
  }

  private async scan(turn: number): Promise<ScanReply> {
    if (this.host.demo) return { ok: false, detail: "The demo does not scan." };
    const res = await postJson<ScanResult>(gameActionUrl(this.host.apiUrl, "scan"), { turn }, "the scan");
    if (!res.ok) return res;
    const data = res.data;
    return data && typeof data === "object" && data.programs && typeof data.programs === "object"
      ? { ok: true, result: { turn: Number(data.turn) || turn, programs: data.programs } }
      : { ok: false, detail: "The scan's answer could not be read." };
  }

  /** A snapshot is the truth: whatever was playing stops and the current state is drawn at once. */
  show(game: Snapshot): void {
    this.player.cancel();
    this.snap = game;
    // What the ruleset has (ruleset.ts): no lives or damage badges, no lives lost, the log's words.
    const rules = rulesOf(game);
    this.player.countsLives = this.board.showLives = rules.lives;
    this.player.hasDamage = this.board.showDamage = rules.damage;
    this.player.hitPoints = this.board.hitPoints = rules.hitPoints ? rules.maxDamage : null;
    this.log.setRules(rules);
    this.bots = cloneBots(Array.isArray(game.bots) ? game.bots : []);
    this.box.setCourse(game.course ?? null);
    const key = JSON.stringify(game.course);
    if (key !== this.courseKey) {
      this.courseKey = key;
      void this.player.animate({ kind: "course", course: game.course }, 0);
      this.legend?.remove();
      this.legend = drawLegend(this.host.controls, game.course, robotLegend(rules));
      this.box.updateZoom();
    }
    this.showLive(game);
  }

  showLive(snap: Snapshot): void {
    this.snap = snap;
    this.view = this.bots;
    this.viewPriority = Array.isArray(snap.priority) ? snap.priority.map(String) : [];
    this.viewPrices = { ...(snap.prices ?? {}) };
    void this.player.animate({ kind: "reset", bots: [...this.bots.values()], seats: snap.seats }, 0);
    this.board.markBoard(boardOf(snap));
    this.markRadiation(snap.radiation);
    this.markRemains(snap.remains);
  }

  showBefore(snap: Snapshot, record: TurnRecord): boolean {
    this.replayRecord = record;
    this.view = cloneBots(record.before.bots);
    this.viewPriority = record.before.priority.map(String);
    const before = (record.before as { prices?: unknown }).prices;
    this.viewPrices = before && typeof before === "object" ? { ...(before as Record<string, number>) } : { ...(snap.prices ?? {}) };
    void this.player.animate({ kind: "reset", bots: [...this.view.values()], seats: snap.seats }, 0);
    this.board.markBoard(boardOf(record.before));
    this.markRadiation(record.before.radiation);
    this.markRemains(record.before.remains);
    return true;
  }

  private markRemains(squares: unknown): void {
    void this.player.animate({ kind: "remains", squares: Array.isArray(squares) ? squares.filter(isCoord) : [] }, 0);
  }

  private markRadiation(squares: unknown): void {
    for (const at of Array.isArray(squares) ? squares : []) {
      if (isCoord(at)) void this.player.animate({ kind: "radiation", at }, 0);
    }
  }

  showLog(snap: Snapshot, turn: number, events: EngineEvent[]): void {
    this.loggedTurn = turn;
    this.log.start(`Turn ${turn} log`, turnPriority(events));
    for (const e of events) this.log.add(snap, e);
  }

  /** Animate one turn's events, feeding the log and the panel as they play. */
  async playTurn(snap: Snapshot, turn: number, events: EngineEvent[], title: string, replay: boolean): Promise<boolean> {
    this.snap = snap;
    if (!replay) this.view = this.bots;
    const bots = this.view;
    this.phasePrefix = replay ? `${title} · ` : "";
    this.loggedTurn = turn;
    this.log.start(title, turnPriority(events));
    this.log.setFinished(snap.status === "finished" && turn === this.lastTurn);
    this.box.showBoard();
    const mine = snap.me?.bot != null ? String(snap.me.bot) : null;
    const finished = await this.player.play(events, (e) => {
      this.log.add(snap, e);
      // A zoomed board follows my robot as it moves (issue 37, item 5).
      if (!replay && mine !== null && e.bot === mine && MOVES_A_ROBOT.has(e.type)) {
        const where = e as { to?: unknown; at?: unknown };
        this.box.follow(e.type === "respawned" ? where.at : where.to);
      }
      if (e.type === "priority" && Array.isArray((e as { order?: unknown }).order)) {
        this.viewPriority = ((e as { order: unknown[] }).order).map(String);
        this.host.seatsChanged();
      } else if (applyEvent(bots, e, this.player.countsLives)) {
        if (e.type === "module_charged") this.viewPrices = pricesAfter(this.viewPrices, e);
        this.host.seatsChanged();
      }
    });
    if (!finished) return false;
    // What the turn took here, for the timing table's check (tests/e2e: the server's figure within 20%).
    if (!replay && this.player.playedMs !== null) this.host.root.dataset.turnPlayedMs = String(Math.round(this.player.playedMs));
    const record = this.replayRecord;
    if (replay && this.host.demo && record) {
      // The demo has no live game to return to: it stays on the replayed turn's end.
      this.viewPriority = record.after.priority.map(String);
      this.board.markBoard(boardOf(record.after));
    }
    return true;
  }

  clockSlot(): HTMLElement {
    return this.program.clockSlot;
  }

  render(snap: Snapshot, moving: boolean, _replaying: number | null, lastTurn: number): void {
    this.snap = snap;
    this.lastTurn = lastTurn;
    // The last turn of a finished game has no next turn: no "next turn's priority" under its log.
    this.log.setFinished(snap.status === "finished" && this.loggedTurn === lastTurn);
    this.program.update(snap, moving);
  }

  layout(snap: Snapshot, moving: boolean, replaying: number | null): void {
    const c = snap.course;
    this.board.describe(`${c.name}, ${c.width} by ${c.height} course. ` +
      this.player.describeBots((id) => nameOf(snap, id)));
    const bot = snap.me?.bot;
    const programming = bot != null && snap.status === "programming" && !moving && replaying === null &&
      !snap.seats.some((s) => s.number === snap.me?.seat && s.ejected);
    this.box.showMyRobot(snap, programming, this.bots.get(String(bot))?.at);
  }

  /** The end of what a phone keeps on screen with the board while I program: the hand, the reboot toggle
   * with its explanation and the submit button. */
  private handEnd(): Element | null {
    return this.program.el.querySelector(".rr-program-controls") ?? this.program.el.querySelector("#submit-program");
  }

  statusText(snap: Snapshot, moving: boolean): string {
    return statusText(snap, moving);
  }

  modeText(snap: Snapshot): SeatsMode {
    return modeText(snap);
  }

  seatOrder(_snap: Snapshot): string[] {
    return this.viewPriority;
  }

  seatView(snap: Snapshot, seat: Seat): SeatView | null {
    return robotSeatView(snap, seat, this.view, this.log.destroyed);
  }

  seatsShown(snap: Snapshot): void {
    this.host.panel.setPrices(snap.modules, this.viewPrices);
    const marks = checkpointMarks(this.view.values(), snap.me?.bot ?? null, this.viewPriority);
    this.board.markCheckpoints(marks.mine, marks.leader);
  }

  results(snap: Snapshot, lastTurn: number): CustomResults {
    return robotResults(snap, lastTurn);
  }
}
