// Entry point. Mounts the game screen into #game-root (live, or the offline demo when the root has
// data-demo-src) and course previews into every [data-course-preview]. Keeps the game screen in
// step with the server: snapshot first, then events in version order, then a sync.
import { Animator, type Speed } from "./animate";
import { Board, type BoardMemory, drawLegend, TILE } from "./board";
import { h } from "./dom";
import { TurnLog, turnPriority } from "./log";
import { confirmStart, GameActions } from "./actions";
import { ChatPanel } from "./chat";
import { clockOffset, parseServerTime, seatClock } from "./clock";
import {
  fetchJson, fetchSnapshot, gameActionUrl, GameSocket, joinUrl, postJson, postProgram, programResult, turnUrl, wsUrlFromPath,
  type PostResult, type ProgramBody,
} from "./net";
import { Notifications } from "./notify";
import { botName, ejectedNotice, expiredNotice, Panel, seatNames, statusText } from "./panel";
import { ProgramUI } from "./program";
import { mountPriceCharts } from "./pricechart";
import { ResultsScreen } from "./results";
import { applyEvent, checkpointMarks, cloneBots, pricesAfter, type Bots } from "./state";
import { robotLegend, rulesOf } from "./ruleset";
import { autopilotNotice } from "./computers";
import { isCoord } from "./types";
import { kindEntry, type KindScreen } from "./kinds";
import { type Playback, playbackShown, speedsShown } from "./playback";
import { GameSync } from "./sync";
import css from "./styles.css?inline";
import type {
  Chip, ScanResult,
  ClocksData, Course, EngineEvent, EventMessage, SeatReadyData, SeatsEjectedData, Snapshot,
  TurnRecord,
  TurnResolvedData,
} from "./types";

function injectStyles(): void {
  if (document.getElementById("roboracer-styles")) return;
  const style = document.createElement("style");
  style.id = "roboracer-styles";
  style.textContent = css;
  document.head.appendChild(style);
}

/** Phones (one column, styles.css): the board's box shares the screen with the hand while programming. */
function isNarrow(): boolean {
  return window.matchMedia?.("(max-width: 800px)").matches ?? false;
}

/** Smooth scrolling, unless the player asked for reduced motion. */
function scrollBehavior(): ScrollBehavior {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}

/** The smallest board box while programming on a phone, and the smallest square a whole board is shrunk
 * to so that it fits the box (below that, the box scrolls to my robot instead). */
const MIN_BOX_PX = 180;
const MIN_FIT_SQUARE_PX = 28;

const SPEEDS: { value: Speed; label: string }[] = [
  { value: 0.5, label: "0.5×" },
  { value: 1, label: "1×" },
  { value: 2, label: "2×" },
  { value: 4, label: "4×" },
  { value: 0, label: "Instant" },
];

const STEP_NAMES: Record<string, string> = {
  start: "start", chips: "chips", belts: "belts", pushers: "pushers", turntables: "turntables",
  bot_lasers: "robot lasers", wall_lasers: "wall lasers", crushers: "crushers", checkpoints: "check points",
  repairs: "repairs", virtuality: "virtuality", respawn: "respawn", winning: "winning", priority: "priority",
  // roborace (004)
  cards: "cards", spaces: "spaces", revitalize: "robots back",
  // fused (001) and classic (000)
  fusing: "fusing", express: "express belts", lasers: "lasers",
};

interface Options {
  apiUrl: string;
  wsPath: string;
  /** Offline demo: a JSON file {game: Snapshot, turns: TurnRecord[]}; no server, no socket. */
  demoSrc: string;
}

export class GameScreen {
  private snap: Snapshot | null = null;
  /** Versions, the event queue, gaps and syncs (sync.ts). */
  private readonly sync: GameSync;
  private courseKey = "";
  /** The live bots (from the last snapshot, updated by the events of a live turn as it plays). */
  private bots: Bots = new Map();
  /** What the panel and the board show: the live bots, or a replayed turn's bots. */
  private view: Bots = new Map();
  private viewPriority: string[] = [];
  /** The module prices the panel shows (the live ones, or a replayed turn's as it plays). */
  private viewPrices: Record<string, number> = {};
  private moving = false;
  private replaying: number | null = null;
  private loggedTurn: number | null = null; // the turn whose events the log shows
  private demoTurns: TurnRecord[] = [];
  private legend: HTMLElement | null = null;
  private readonly controls: HTMLElement;
  private readonly playbackGroup: HTMLElement;
  private readonly speedsGroup: HTMLElement;
  private readonly replayGroup: HTMLElement;
  /** A game kind other than RoboRacer (kinds.ts): its board, panel and log; null for RoboRacer, whose board,
   * program and log are this screen's own (board, animator, program, log). Mounted by the first snapshot. */
  private kindScreen: KindScreen | null = null;
  private readonly cols: { board: HTMLElement; panel: HTMLElement; log: HTMLElement };

  private readonly root: HTMLElement;
  private readonly board: Board;
  private readonly animator: Animator;
  private readonly panel: Panel;
  private readonly log: TurnLog;
  private readonly program: ProgramUI;
  private readonly skipBtn: HTMLButtonElement;
  private readonly pauseBtn: HTMLButtonElement;
  private readonly stepBtn: HTMLButtonElement;
  private readonly replaySelect: HTMLSelectElement;
  private readonly replayBtn: HTMLButtonElement;
  private readonly speedBtns: HTMLButtonElement[] = [];
  private readonly socket: GameSocket | null;
  private readonly chat: ChatPanel | null = null;
  private readonly actions: GameActions | null = null;
  private readonly results: ResultsScreen | null = null;
  private readonly zoomBtn: HTMLButtonElement;
  private zoomed = false;
  /** fitBoardBox limited the board's box (and maybe narrowed the board) for programming on a phone. */
  private boxFitted = false;
  /** The turn whose programming last scrolled the board to my robot (showMyRobot). */
  private robotShownTurn = -1;
  /** Server time (ms) the clocks were last reported at: older reports are ignored. */
  private clocksAsOf = -Infinity;

  constructor(root: HTMLElement, private readonly opts: Options) {
    injectStyles();
    this.sync = new GameSync({
      applySnapshot: (game, _version, at) => this.applySnapshot(game, at),
      playEvent: (msg, at) => this.handleEvent(msg, at),
      replay: (turn) => this.replay(turn),
      early: (msg, at) => {
        if (msg.kind === "chat") this.chat?.add(msg.data);
        else if (msg.kind === "clocks") this.applyClocks(msg.data, at);
        else if (msg.kind === "seat_ready") this.applyClocks((msg.data as unknown as SeatReadyData | null)?.clocks, at);
      },
      other: (msg) => {
        if (msg.type === "team_chat") this.chat?.add(msg.message); // my team's line: never a public event, shown at once
      },
      sendSync: () => this.socket?.sync() ?? false,
    });
    this.root = root;
    root.classList.add("rr-game");
    root.replaceChildren();
    root.dataset.animating = "0";
    const boardCol = h("div", { class: "rr-board-col" });
    const panelCol = h("aside", { class: "rr-panel", "aria-label": "Game status and program" });
    const controlsCol = h("div", { class: "rr-controls-col" });
    const logCol = h("div", { class: "rr-log-col" });
    root.append(boardCol, panelCol, controlsCol, logCol);
    this.cols = { board: boardCol, panel: panelCol, log: logCol };

    // The board scrolls inside its own box when zoomed (phones, big courses): see setZoom.
    const scroller = h("div", { class: "rr-board-scroll" });
    boardCol.appendChild(scroller);
    this.board = new Board(scroller);
    this.zoomBtn = h("button", {
      type: "button", id: "board-zoom", class: "rr-zoom", "aria-pressed": "false", "aria-controls": "rr-board-scroll",
    }, "Zoom board");
    scroller.id = "rr-board-scroll";
    this.zoomBtn.hidden = true;
    this.zoomBtn.addEventListener("click", () => this.setZoom(!this.zoomed, true));
    boardCol.insertBefore(this.zoomBtn, scroller);
    try { this.zoomed = localStorage.getItem("roboracer-zoom") === "1"; } catch { /* storage unavailable */ }
    window.addEventListener("resize", () => {
      this.updateZoom();
      this.fitBoardBox();
    });
    this.animator = new Animator(this.board);
    this.animator.onGroup = (phase, step) => {
      this.panel.setPhase(`${this.replaying !== null ? `Replay of turn ${this.replaying} · ` : ""}Phase ${phase} · ${STEP_NAMES[step] ?? step}`);
    };

    // ---- playback: pause, step, skip, speed, replay ----
    const playback = h("div", { class: "rr-playback", role: "group", "aria-label": "Animation controls" });
    this.pauseBtn = h("button", { type: "button", id: "pause-animation", "aria-pressed": "false" }, "Pause");
    this.pauseBtn.addEventListener("click", () => this.togglePause());
    this.stepBtn = h("button", { type: "button", id: "step-animation", "aria-label": "Play the next step, then pause" }, "Step");
    this.stepBtn.addEventListener("click", () => this.player.step());
    this.skipBtn = h("button", { type: "button", id: "skip-animation", "aria-label": "Skip to the end of this turn's animation" }, "Skip");
    this.skipBtn.addEventListener("click", () => {
      if (this.player.isPaused) this.togglePause();
      this.player.skip();
    });
    playback.append(this.pauseBtn, this.stepBtn, this.skipBtn);

    const speeds = h("div", { class: "rr-speeds", role: "group", "aria-label": "Animation speed" });
    speeds.appendChild(h("span", { class: "rr-playback-label", "aria-hidden": "true" }, "Speed"));
    // Without a choice of their own, people who ask for reduced motion get instant turns.
    let saved: Speed = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? 0 : 1;
    try {
      const raw = new URLSearchParams(location.search).get("speed") ?? localStorage.getItem("roboracer-speed");
      if (raw !== null && SPEEDS.some((s) => s.value === Number(raw))) saved = Number(raw) as Speed;
    } catch { /* storage unavailable */ }
    for (const s of SPEEDS) {
      const b = h("button", {
        type: "button", class: "rr-speed", "data-speed": String(s.value),
        "aria-label": s.value === 0 ? "Instant animation" : `Animation speed ${s.label}`,
      }, s.label);
      b.addEventListener("click", () => this.setSpeed(s.value, true));
      this.speedBtns.push(b);
      speeds.appendChild(b);
    }

    const replay = h("div", { class: "rr-replay" });
    const replayLabel = h("label", { for: "replay-turn" }, "Replay turn");
    this.replaySelect = h("select", { id: "replay-turn" });
    this.replayBtn = h("button", { type: "button", id: "replay-button" }, "Replay");
    this.replayBtn.addEventListener("click", () => {
      const n = Number(this.replaySelect.value);
      if (n > 0) this.sync.enqueue({ kind: "replay", turn: n });
    });
    replay.append(replayLabel, this.replaySelect, this.replayBtn);
    const controls = h("div", { class: "rr-controls" });
    controls.append(playback, speeds, replay);
    this.playbackGroup = playback;
    this.speedsGroup = speeds;
    this.replayGroup = replay;
    controlsCol.append(controls);
    this.controls = controls;
    this.setSpeed(saved, false);

    this.panel = new Panel(panelCol);
    if (!opts.demoSrc && opts.apiUrl) {
      // Team play in the lobby (docs/modes.md): the answer is the new snapshot.
      const apply = (res: { ok: boolean; data?: unknown; detail?: string }) => {
        const game = res.ok ? (res.data as Snapshot | undefined) : undefined;
        if (game && this.sync.offerSnapshot(game, Date.now(), true)) return;
        if (!res.ok) this.panel.setNotice(res.detail ?? "That did not work.");
      };
      const api = opts.apiUrl;
      this.panel.onTeam = (team, seat) => void postJson(gameActionUrl(api, "team"), seat ? { team, seat } : { team }, "the team").then(apply);
      this.panel.onBalance = () => void postJson(joinUrl(api, "teams/balance/"), {}, "balancing the teams").then(apply);
      // Computer players (issue 20): the creator adds one to a free seat, or removes one, in the lobby. The
      // seat_joined event's sync brings the new seat (and a full game's start); removing answers with the
      // snapshot itself. No extra sync here: the socket allows a few a second, and a refused one would cost the
      // event's own.
      this.panel.onAddComputer = async (strength, seat) => {
        const res = await postJson(joinUrl(api, "computers/"), { strength, seat }, "the computer player");
        return res.ok ? null : res.detail;
      };
      this.panel.onTakeBack = async () => {
        const res = await postJson(joinUrl(api, "take-back/"), {}, "taking your robot back");
        if (!res.ok) return res.detail;
        apply(res);
        return null;
      };
      this.panel.onRemoveComputer = async (seat) => {
        const res = await postJson(joinUrl(api, `computers/${seat}/remove/`), {}, "removing the computer player");
        if (!res.ok) return res.detail;
        apply(res);
        return null;
      };
    }
    // The demo sends nothing: it shows the program it would send.
    this.program = new ProgramUI(panelCol, opts.demoSrc
      ? async (body) => {
        root.dataset.demoProgram = JSON.stringify(body);
        this.panel.setConnection(`Demo: would send ${JSON.stringify(body)}`);
        // As if the server held it: a later render must not read "no program" as a cleared one.
        const me = this.snap?.me;
        if (me) Object.assign(me, { program: body.chips, reboot: body.reboot, action: body.action ?? null });
        return { ok: true };
      }
      : async (body) => {
        const res = await this.sendProgram(body);
        // The server holds this program now: a later render (its own seat_ready may come after the
        // answer) must not read the snapshot's old "no program" as the program having been cleared.
        const me = this.snap?.me;
        if (res.ok && me && this.snap?.turn === body.turn) {
          me.program = body.chips;
          me.reboot = body.reboot;
          me.action = (body.action ?? null) as typeof me.action;
          if (rulesOf(this.snap).powerDown) {
            me.power_down = !!(body.action as { power_down?: boolean } | undefined)?.power_down;
            this.renderSeats(); // the robots panel's "power down next turn requested"
          }
        }
        return res;
      }, async (turn) => {
        if (opts.demoSrc) return { ok: false, detail: "The demo does not scan." };
        const res = await postJson<ScanResult>(gameActionUrl(opts.apiUrl, "scan"), { turn }, "the scan");
        if (!res.ok) return res;
        const data = res.data;
        return data && typeof data === "object" && data.programs && typeof data.programs === "object"
          ? { ok: true, result: { turn: Number(data.turn) || turn, programs: data.programs } }
          : { ok: false, detail: "The scan's answer could not be read." };
      });
    panelCol.insertBefore(this.program.el, this.panel.seatsSection);
    if (!opts.demoSrc && opts.apiUrl) {
      // classic's Recompile upgrade (POST /api/games/<id>/recompile/): new instructions for 2 damage.
      this.program.onRecompile = async (turn) => {
        const res = await postJson<{ turn: number; hand: Chip[] }>(gameActionUrl(opts.apiUrl, "recompile"), { turn }, "the recompile");
        if (!res.ok) return res;
        return Array.isArray(res.data?.hand) ? { ok: true, hand: res.data.hand.map(String) } : { ok: false, detail: "The recompile's answer could not be read." };
      };
    }
    if (!opts.demoSrc && opts.apiUrl) {
      this.actions = new GameActions(panelCol,
        (action) => postJson(gameActionUrl(opts.apiUrl, action), {}, action === "leave" ? "leaving" : "the cancellation"),
        (action, status) => {
          // Leaving a lobby or cancelling: back to the lobby. Forfeiting a race: stay and watch.
          if (action === "cancel" || status === "lobby") location.assign("/");
          else this.sync.requestSync();
        });
      confirmStart(() => this.snap);
      this.chat = new ChatPanel(panelCol,
        (text) => postJson(gameActionUrl(opts.apiUrl, "chat"), { text }, "the message"),
        () => this.sync.requestSync(),
        (before) => fetchJson<{ messages?: unknown[] }>(`${gameActionUrl(opts.apiUrl, "chat")}?before=${before}`)
          .then((r) => (Array.isArray(r.messages) ? r.messages : []), () => null));
    }
    if (!opts.demoSrc && opts.apiUrl) {
      // The results screen of a finished game (results.ts), at the top of the panel.
      this.results = new ResultsScreen(panelCol, {
        replay: () => {
          for (let n = 1; n <= this.lastResolvedTurn(); n++) this.sync.enqueue({ kind: "replay", turn: n });
        },
        playAgain: async () => {
          const res = await postJson<{ url?: unknown }>(gameActionUrl(opts.apiUrl, "play-again"), {}, "play again");
          return res.ok && typeof res.data?.url === "string" ? { ok: true, url: res.data.url }
            : { ok: false, detail: res.ok ? "The new game could not be opened." : res.detail };
        },
      });
    }
    this.log = new TurnLog(logCol);
    window.setInterval(() => this.panel.tickClocks(), 1000);

    this.socket = opts.wsPath
      ? new GameSocket(wsUrlFromPath(opts.wsPath), (m) => this.sync.onMessage(m, Date.now()), (state) => {
        if (state === "open") {
          this.sync.socketOpened();
          this.panel.setConnection("");
        } else if (state === "closed") {
          this.panel.setConnection("Connection lost — reconnecting…");
        } else if (this.snap === null) {
          this.panel.setConnection("Connecting…");
        }
      })
      : null;

    if (opts.demoSrc) {
      void this.loadDemo(opts.demoSrc);
    } else if (opts.apiUrl) {
      fetchSnapshot(opts.apiUrl)
        .then((game) => {
          // A snapshot from the socket may have won the race; only take a newer one.
          this.sync.offerSnapshot(game, Date.now());
        })
        .catch(() => {
          if (this.snap === null) this.panel.setStatus("Could not load the game. Retrying over the live connection…");
        });
    }
    this.socket?.connect();
    this.updateControls();
  }

  /** A program goes over the open game socket (answered there by its id); when the socket is not open, or
   * closes or stays silent before the answer, it goes as POST .../program/ (sending it twice is harmless:
   * the server replaces the seat's program for the turn with the same one). */
  private async sendProgram(body: ProgramBody): Promise<PostResult> {
    const reply = this.socket ? await this.socket.request({ type: "program", ...body }) : null;
    return reply ? programResult(reply) : postProgram(this.opts.apiUrl, body);
  }

  private async loadDemo(src: string): Promise<void> {
    const data = await fetchJson<{ game: Snapshot; turns: TurnRecord[] }>(src);
    this.demoTurns = data.turns;
    this.sync.snapshot(data.game, data.game.version, Date.now());
    const play = Number(new URLSearchParams(location.search).get("play"));
    if (play > 0) this.sync.enqueue({ kind: "replay", turn: play });
  }

  /** The board animation the playback controls drive: RoboRacer's, or the game kind's (kinds.ts). */
  private get player(): Playback {
    return this.kindScreen?.player ?? this.animator;
  }

  /** The first snapshot of a game of another kind than RoboRacer mounts that kind's board and panel (kinds.ts)
   * in place of RoboRacer's, which stay hidden. A game never changes kind. */
  private useKind(game: Snapshot): void {
    if (this.kindScreen) return;
    const entry = kindEntry(game);
    if (!entry.mount) return;
    for (const el of [this.board.wrap.parentElement, this.zoomBtn, this.program.el, this.log.el]) {
      if (el instanceof HTMLElement) el.style.display = "none";
    }
    this.legend?.remove();
    this.legend = null;
    const api = this.opts.apiUrl;
    const screen = entry.mount({
      root: this.root, boardCol: this.cols.board, panelCol: this.cols.panel, logCol: this.cols.log, panel: this.panel,
      postMove: this.opts.demoSrc
        ? async (body) => {
          // The demo sends nothing: it shows the move it would send.
          this.root.dataset.demoMove = JSON.stringify(body);
          this.panel.setConnection(`Demo: would send ${JSON.stringify(body)}`);
          return { ok: true, status: 200, data: body };
        }
        : (body) => postJson(joinUrl(api, "move/"), body, "the move"),
      changed: () => this.render(),
      fetchSnapshot: () => (this.opts.demoSrc || !api ? Promise.resolve(null) : fetchSnapshot(api)),
    });
    screen.player.speed = this.animator.speed;
    screen.onPhase = (text) => this.panel.setPhase(text);
    this.panel.kindStats = (snap, seat) => screen.seatStats(snap, seat);
    this.panel.kindMode = (snap) => screen.modeText(snap);
    this.kindScreen = screen;
  }

  private setSpeed(speed: Speed, remember: boolean): void {
    this.animator.speed = speed;
    if (this.kindScreen) this.kindScreen.player.speed = speed;
    for (const b of this.speedBtns) b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === speed));
    if (remember) {
      try { localStorage.setItem("roboracer-speed", String(speed)); } catch { /* ignore */ }
    }
  }

  private togglePause(): void {
    if (this.player.isPaused) this.player.resume();
    else this.player.pause();
    this.updateControls();
  }

  private updateControls(): void {
    const paused = this.player.isPaused;
    this.pauseBtn.textContent = paused ? "Resume" : "Pause";
    this.pauseBtn.setAttribute("aria-pressed", String(paused));
    this.pauseBtn.setAttribute("aria-label", paused ? "Resume the animation" : "Pause the animation");
    this.stepBtn.disabled = !paused || !this.moving;
    this.skipBtn.disabled = !this.moving;
    const last = this.lastResolvedTurn();
    const options = [...this.replaySelect.options].map((o) => Number(o.value));
    const wanted = Array.from({ length: last }, (_, i) => last - i);
    if (options.join() !== wanted.join()) {
      this.replaySelect.replaceChildren(...wanted.map((n) => h("option", { value: String(n) }, String(n))));
    }
    // While a turn is replayed (one by one from "Replay the game" too) the box shows that turn.
    if (this.replaying !== null && this.replaySelect.value !== String(this.replaying)) this.replaySelect.value = String(this.replaying);
    // Nothing to play back yet (a lobby, the first turn): the playback and replay controls hide, and the
    // speeds in a lobby.
    const shown = playbackShown(last, this.moving, this.snap?.turn ?? 0);
    this.playbackGroup.hidden = this.replayGroup.hidden = !shown;
    this.speedsGroup.hidden = !shown && !speedsShown(this.opts.demoSrc ? "demo" : this.snap?.status);
    this.replaySelect.disabled = last === 0;
    this.replayBtn.disabled = last === 0 || this.moving;
    this.root.dataset.animating = this.moving ? "1" : "0";
  }

  private lastResolvedTurn(): number {
    if (this.opts.demoSrc) return this.demoTurns.length ? Math.max(...this.demoTurns.map((t) => t.turn)) : 0;
    return this.snap?.last_turn?.turn ?? 0;
  }

  private applyClocks(raw: unknown, receivedAt: number): void {
    const data = raw as ClocksData | null;
    if (!data || !Array.isArray(data.seats)) return;
    this.takeClocks(data.server_time, data.seats, false, receivedAt);
    if (this.snap) {
      for (const c of data.seats) {
        const seat = this.snap.seats.find((s) => s.number === c?.number);
        if (seat) Object.assign(seat, { move_left: c.move_left, game_left: c.game_left, clock_running: c.clock_running, expired: c.expired });
      }
      this.renderSeats();
    }
  }

  /** A snapshot is the truth: whatever was playing stops and the current state is drawn at once. */
  private applySnapshot(game: Snapshot, receivedAt: number): void {
    this.animator.cancel();
    this.snap = game;
    this.useKind(game);
    if (this.kindScreen) {
      this.applyKindSnapshot(this.kindScreen, game, receivedAt);
      return;
    }
    // What the ruleset has (ruleset.ts): no lives or damage badges, no lives lost, the log's words.
    const rules = rulesOf(game);
    this.animator.countsLives = this.board.showLives = rules.lives;
    this.animator.hasDamage = this.board.showDamage = rules.damage;
    this.animator.hitPoints = this.board.hitPoints = rules.hitPoints ? rules.maxDamage : null;
    this.log.setRules(rules);
    this.bots = cloneBots(Array.isArray(game.bots) ? game.bots : []);
    this.takeClocks(game.server_time, Array.isArray(game.seats) ? game.seats : [], true, receivedAt);
    this.chat?.setMessages(game.chat);
    const key = JSON.stringify(game.course);
    if (key !== this.courseKey) {
      this.courseKey = key;
      void this.animator.animate({ kind: "course", course: game.course }, 0);
      this.legend?.remove();
      this.legend = drawLegend(this.controls, game.course, robotLegend(rules));
      this.updateZoom();
    }
    this.showLive();
    this.settleSnapshot(game, (turn, events) => {
      this.log.start(`Turn ${turn} log`, turnPriority(events));
      for (const e of events) this.log.add(game, e);
    });
  }

  /** The end of applying a snapshot, whatever the game's kind: nothing playing or replaying, the panel's notes
   * cleared, the last resolved turn's log written once (`showLog`), then a render. */
  private settleSnapshot(game: Snapshot, showLog: (turn: number, events: EngineEvent[]) => void): void {
    this.moving = false;
    this.replaying = null;
    this.panel.setConnection("");
    this.panel.setPhase("");
    const last = game.last_turn;
    if (last && Array.isArray(last.events) && last.turn !== this.loggedTurn) {
      this.loggedTurn = last.turn;
      showLog(last.turn, last.events);
    }
    this.render();
  }

  /** applySnapshot for a game of another kind (kinds.ts): the shared parts as for RoboRacer, the board,
   * panel and log by the kind's screen. */
  private applyKindSnapshot(kind: KindScreen, game: Snapshot, receivedAt: number): void {
    this.takeClocks(game.server_time, Array.isArray(game.seats) ? game.seats : [], true, receivedAt);
    this.chat?.setMessages(game.chat);
    kind.show(game);
    this.settleSnapshot(game, (turn, events) => kind.showLog(game, turn, events));
  }

  /** Seat clocks as of a server time; the offset to the browser's clock is taken at `receivedAt`, when the
   * report arrived (a report applied after a turn's animation is still as old as the server said). */
  private takeClocks(
    serverTime: unknown, seats: ClocksData["seats"] | Snapshot["seats"], replace: boolean, receivedAt: number,
  ): void {
    const asOf = parseServerTime(serverTime);
    if (!Number.isFinite(asOf)) {
      if (replace) this.panel.clocks.clear();
      return;
    }
    if (!replace && asOf < this.clocksAsOf) return; // an older report than what we have
    this.clocksAsOf = asOf;
    this.panel.clockOffset = clockOffset(serverTime, receivedAt);
    if (replace) this.panel.clocks.clear();
    for (const s of seats) {
      if (typeof s?.number === "number") this.panel.clocks.set(s.number, seatClock(s, asOf));
    }
  }

  /** Zoom: on a phone, a 16x16 board has ~23 px squares and its small labels cannot be read; zoomed,
   * every square is 44 px and the board scrolls inside its box (see docs/frontend.md). */
  private setZoom(on: boolean, remember: boolean): void {
    this.zoomed = on;
    if (remember) {
      try { localStorage.setItem("roboracer-zoom", on ? "1" : "0"); } catch { /* ignore */ }
    }
    this.updateZoom();
  }

  private updateZoom(): void {
    const course = this.snap?.course;
    const col = this.board.wrap.parentElement?.parentElement;
    if (!course || !col) return;
    const cols = Math.max(1, Number(course.width) || 1);
    const rows = Math.max(1, Number(course.height) || 1);
    // Zoom is offered when the squares are smaller than 36 px as laid out.
    col.classList.remove("rr-zoomed");
    this.board.wrap.style.width = "";
    const square = this.board.wrap.getBoundingClientRect().width / cols;
    const offer = square > 0 && square < 36;
    this.zoomBtn.hidden = !offer;
    // Phones: right above the board. Two columns: with the playback controls under the board, so the
    // board keeps its height budget (BOARD_CHROME) and the controls stay on screen.
    const narrow = window.matchMedia?.("(max-width: 800px)").matches ?? false;
    const home = narrow ? col : this.controls;
    if (this.zoomBtn.parentElement !== home) {
      if (narrow) col.insertBefore(this.zoomBtn, col.firstChild);
      else this.controls.appendChild(this.zoomBtn);
    }
    const on = offer && this.zoomed;
    col.classList.toggle("rr-zoomed", on);
    this.zoomBtn.setAttribute("aria-pressed", String(on));
    this.zoomBtn.textContent = on ? "Fit board" : "Zoom board";
    this.zoomBtn.setAttribute("aria-label", on ? "Fit the whole board on screen" : "Zoom the board: larger squares and labels, scroll to move around");
    if (on) {
      const px = 44;
      this.board.wrap.style.width = `${cols * px + 16 * px / 100}px`;
      this.board.wrap.style.setProperty("--rr-rows", String(rows));
    }
  }

  private showLive(): void {
    if (!this.snap) return;
    if (this.kindScreen) {
      this.kindScreen.showLive(this.snap);
      return;
    }
    this.view = this.bots;
    this.viewPriority = Array.isArray(this.snap.priority) ? this.snap.priority.map(String) : [];
    this.viewPrices = { ...(this.snap.prices ?? {}) };
    void this.animator.animate({ kind: "reset", bots: [...this.bots.values()], seats: this.snap.seats }, 0);
    this.board.markBoard(boardOf(this.snap));
    this.markRadiation(this.snap.radiation);
    this.markRemains(this.snap.remains);
  }

  private markRemains(squares: unknown): void {
    void this.animator.animate({ kind: "remains", squares: Array.isArray(squares) ? squares.filter(isCoord) : [] }, 0);
  }

  private markRadiation(squares: unknown): void {
    for (const at of Array.isArray(squares) ? squares : []) {
      if (isCoord(at)) void this.animator.animate({ kind: "radiation", at }, 0);
    }
  }

  private render(): void {
    const snap = this.snap;
    if (!snap) return;
    const kind = this.kindScreen;
    this.panel.setStatus(this.replaying !== null ? `Replaying turn ${this.replaying}`
      : kind ? kind.statusText(snap, this.moving) : statusText(snap, this.moving));
    this.panel.setTimers(snap);
    this.panel.setRated(snap);
    this.panel.setMode(snap);
    this.panel.setAutopilot(snap);
    // The last turn of a finished game has no next turn: no "next turn's priority" under its log.
    if (!kind) this.log.setFinished(snap.status === "finished" && this.loggedTurn === this.lastResolvedTurn());
    this.renderSeats();
    if (kind) kind.render(snap, this.moving && this.replaying === null, this.replaying);
    else this.program.update(snap, this.moving && this.replaying === null);
    const me = snap.me;
    const mySeat = me ? snap.seats.find((x) => x.number === me.seat) : undefined;
    if (this.chat) this.chat.nameSeats = (seats) => seatNames(snap, seats);
    this.chat?.setViewer({ seat: me?.seat ?? null, user: mySeat?.user ?? null },
      typeof snap.can_chat === "boolean" ? snap.can_chat : !!me);
    this.chat?.setTeamChat(!!snap.teams && !!mySeat?.team);
    this.actions?.update(snap);
    this.results?.update(snap, this.lastResolvedTurn(), kind?.results(snap, this.lastResolvedTurn()));
    showLobbyAction("join-game", snap.can_join);
    showLobbyAction("start-game", snap.can_start);
    if (kind) {
      this.updateControls();
      return;
    }
    const c = snap.course;
    this.board.describe(`${c.name}, ${c.width} by ${c.height} course. ` +
      this.animator.describeBots((id) => botName(snap, id)));
    this.updateControls();
    this.showMyRobot();
  }

  /** Phones (and a zoomed board): while I program, the board's box and my hand share the screen
   * (fitBoardBox); once a turn, the page is scrolled to show the hand with the submit button and the
   * box to put my robot in its middle. */
  private showMyRobot(): void {
    const snap = this.snap, bot = snap?.me?.bot;
    const programming = !!snap && bot != null && snap.status === "programming" && !this.moving &&
      this.replaying === null && !snap.seats.some((s) => s.number === snap.me?.seat && s.ejected);
    // styles.css: on a phone the board's box is shorter only while I program (the whole board otherwise).
    this.root.classList.toggle("rr-my-programming", programming);
    const laidOut = this.fitBoardBox();
    if (!snap || !programming || !laidOut || this.robotShownTurn === snap.turn) return;
    const scroller = this.board.wrap.parentElement;
    const at = this.bots.get(String(bot))?.at;
    if (!scroller || !isCoord(at)) return;
    const first = this.robotShownTurn < 0;
    this.robotShownTurn = snap.turn;
    // From the robot's square (its shape may not be posed yet: the animator draws on the next frame).
    const vb = this.board.svg.viewBox.baseVal, wrap = this.board.wrap.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const x = wrap.left + ((at[0] + 0.5) * TILE - vb.x) / vb.width * wrap.width;
    const y = wrap.top + ((at[1] + 0.5) * TILE - vb.y) / vb.height * wrap.height;
    scroller.scrollTop += y - (box.top + box.height / 2);
    scroller.scrollLeft += x - (box.left + box.width / 2);
    // The new hand (or the first one, on opening the page) is brought on screen with the board's box.
    const end = this.handEnd();
    if (isNarrow() && end) {
      const bottom = end.getBoundingClientRect().bottom + 8;
      const by = Math.min(bottom - window.innerHeight, scroller.getBoundingClientRect().top);
      if (bottom > window.innerHeight || box.top < 0) window.scrollBy({ top: by, behavior: first ? "auto" : scrollBehavior() });
    }
  }

  /** Phones while I program: the board's box takes the height the status and the hand (down to the submit
   * button) leave on the screen. A board that fits that height at readable squares is drawn whole (no part
   * hidden); a bigger one scrolls inside the box (showMyRobot centres my robot). Otherwise, no limits.
   * False while the hand is not laid out yet (the box could not be sized). */
  private fitBoardBox(): boolean {
    const scroller = this.board.wrap.parentElement, course = this.snap?.course;
    if (!scroller || !course) return false;
    const compact = isNarrow() && this.root.classList.contains("rr-my-programming");
    const zoomed = !!scroller.parentElement?.classList.contains("rr-zoomed");
    if (!compact) {
      if (this.boxFitted) {
        scroller.style.maxHeight = "";
        if (!zoomed) this.board.wrap.style.width = "";
        this.boxFitted = false;
      }
      return true;
    }
    const end = this.handEnd();
    if (!end || end.getBoundingClientRect().height === 0) return false;
    this.boxFitted = true;
    if (!zoomed && this.board.wrap.style.width) this.board.wrap.style.width = "";
    // What must stay on screen under the box: from its bottom down to the submit button and the line
    // under it saying what the reboot toggle does. (Its own height is left alone while measuring: taking
    // it off would scroll the box back to the top.)
    const below = end.getBoundingClientRect().bottom - scroller.getBoundingClientRect().bottom + 8;
    const height = Math.max(MIN_BOX_PX, Math.floor(window.innerHeight - below - 4));
    scroller.style.maxHeight = `${height}px`;
    if (zoomed) return true;
    const cols = Math.max(1, Number(course.width) || 1), rows = Math.max(1, Number(course.height) || 1);
    const width = this.board.wrap.getBoundingClientRect().width;
    const aspect = this.board.svg.viewBox.baseVal.width / this.board.svg.viewBox.baseVal.height || cols / rows;
    if (width / aspect <= height) return true; // the whole board fits as it is
    const fitted = Math.floor(height * aspect);
    if (fitted / cols >= MIN_FIT_SQUARE_PX) this.board.wrap.style.width = `${fitted}px`;
    return true;
  }

  /** The end of what a phone keeps on screen with the board while I program: the hand, the reboot toggle
   * with its explanation and the submit button. */
  private handEnd(): Element | null {
    return this.program.el.querySelector(".rr-program-controls") ?? this.program.el.querySelector("#submit-program");
  }

  /** Phones: a turn starts playing, maybe while the page is scrolled down to the program: bring the
   * whole board on screen (its top at the top), so that the player sees the turn play out. */
  private showBoard(): void {
    const scroller = this.board.wrap.parentElement;
    if (!isNarrow() || !scroller) return;
    const box = scroller.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    window.scrollBy({ top: box.top - 4, behavior: scrollBehavior() });
  }

  private renderSeats(): void {
    const snap = this.snap;
    if (!snap) return;
    if (this.kindScreen) {
      this.panel.renderSeats(snap, new Map(), this.kindScreen.seatOrder(snap));
      return;
    }
    this.panel.renderSeats(snap, this.view, this.viewPriority, this.log.destroyed);
    this.panel.setPrices(snap.modules, this.viewPrices);
    const marks = checkpointMarks(this.view.values(), snap.me?.bot ?? null, this.viewPriority);
    this.board.markCheckpoints(marks.mine, marks.leader);
  }

  private async fetchTurn(n: number): Promise<TurnRecord> {
    if (this.opts.demoSrc) {
      const t = this.demoTurns.find((x) => x.turn === n);
      if (!t) throw new Error(`no turn ${n}`);
      return t;
    }
    return fetchJson<TurnRecord>(turnUrl(this.opts.apiUrl, n));
  }

  /** Replay a past turn from its stored "before" state, then return to the live state. */
  private async replay(n: number): Promise<void> {
    const snap = this.snap;
    if (!snap) return;
    let record: TurnRecord;
    try {
      record = await this.fetchTurn(n);
    } catch {
      this.panel.setConnection(`Could not load turn ${n}.`);
      return;
    }
    if (this.snap !== snap) return; // a snapshot arrived meanwhile
    if (this.kindScreen) {
      await this.replayKind(this.kindScreen, snap, n, record);
      return;
    }
    this.replaying = n;
    this.view = cloneBots(record.before.bots);
    this.viewPriority = record.before.priority.map(String);
    const before = (record.before as { prices?: unknown }).prices;
    this.viewPrices = before && typeof before === "object" ? { ...(before as Record<string, number>) } : { ...(snap.prices ?? {}) };
    void this.animator.animate({ kind: "reset", bots: [...this.view.values()], seats: snap.seats }, 0);
    this.board.markBoard(boardOf(record.before));
    this.markRadiation(record.before.radiation);
    this.markRemains(record.before.remains);
    const finished = await this.playTurn(snap, n, record.events, this.view, `Replay of turn ${n}`);
    if (!finished) return;
    this.root.dataset.replayed = String(n);
    if (this.sync.nextIsReplay()) {
      // The next turn of a whole-game replay starts from its own stored state: no jump to the live one.
    } else if (this.opts.demoSrc) {
      // The demo has no live game to return to: it stays on the replayed turn's end.
      this.viewPriority = record.after.priority.map(String);
      this.board.markBoard(boardOf(record.after));
    } else {
      this.showLive();
    }
    this.replaying = null;
    this.render();
  }

  /** A replay of another kind's turn (kinds.ts): from the record's starting position, then back to the live one. */
  private async replayKind(kind: KindScreen, snap: Snapshot, n: number, record: TurnRecord): Promise<void> {
    if (!kind.showBefore(snap, record)) {
      this.panel.setConnection(`Turn ${n} can't be replayed: its record has no starting position.`);
      return;
    }
    this.replaying = n;
    const finished = await this.playTurn(snap, n, Array.isArray(record.events) ? record.events : [], this.bots, `Replay of turn ${n}`);
    if (!finished) return;
    this.root.dataset.replayed = String(n);
    // The next turn of a whole-game replay starts from its own record; the demo stays on the replayed turn.
    if (!this.sync.nextIsReplay() && !this.opts.demoSrc) this.showLive();
    this.replaying = null;
    this.render();
  }

  /** Animate one turn's events, feeding the log and the panel as they play. */
  private async playTurn(
    snap: Snapshot, turn: number, events: EngineEvent[], bots: Bots, title: string,
  ): Promise<boolean> {
    if (this.kindScreen) {
      this.moving = true;
      this.loggedTurn = turn;
      this.render();
      const finished = await this.kindScreen.playTurn(snap, turn, events, title);
      if (!finished) return false;
      this.moving = false;
      this.panel.setPhase("");
      return true;
    }
    this.moving = true;
    this.loggedTurn = turn;
    this.log.start(title, turnPriority(events));
    this.render();
    this.showBoard();
    const finished = await this.animator.play(events, (e) => {
      this.log.add(snap, e);
      if (e.type === "priority" && Array.isArray((e as { order?: unknown }).order)) {
        this.viewPriority = ((e as { order: unknown[] }).order).map(String);
        this.renderSeats();
      } else if (applyEvent(bots, e, this.animator.countsLives)) {
        if (e.type === "module_charged") this.viewPrices = pricesAfter(this.viewPrices, e);
        this.renderSeats();
      }
    });
    if (!finished) return false;
    this.moving = false;
    this.panel.setPhase("");
    return true;
  }

  /** The next event in version order (sync.ts checked its version). */
  private async handleEvent(msg: EventMessage, receivedAt: number): Promise<void> {
    if (!this.snap) return;
    switch (msg.kind) {
      case "seat_ready": {
        const data = msg.data as unknown as SeatReadyData;
        const seat = this.snap.seats.find((s) => s.number === data?.seat);
        if (seat) seat.ready = true;
        this.applyClocks(data?.clocks, receivedAt); // the seat's clock stopped (and reloaded) with its program
        this.kindScreen?.seatEvent?.(this.snap, "seat_ready", data);
        this.render();
        return;
      }
      case "turn_executing": {
        // Nothing to fetch: every program is in. (Asking for a snapshot here could race the
        // resolution and skip the turn's animation.)
        this.snap.status = "resolving";
        this.render();
        return;
      }
      case "chat":
        this.chat?.add(msg.data);
        return;
      case "clocks":
        this.applyClocks(msg.data, receivedAt);
        return;
      case "seats_ejected": {
        const data = msg.data as unknown as SeatsEjectedData;
        this.panel.setNotice(ejectedNotice(this.snap, data) +
          (data?.resubmit && this.snap.me ? " Every program was cleared: submit yours again." : ""));
        this.sync.requestSync();
        return;
      }
      case "timer_expired": {
        // The clocks event that follows marks the seats; the sync brings the system chat line.
        let seats = Array.isArray((msg.data as { seats?: unknown })?.seats) ? (msg.data as { seats: unknown[] }).seats : [];
        // Under the "computer" policy my own seat has its banner (Panel.setAutopilot): the notice names the others.
        if (this.snap.timers?.policy === "computer") seats = seats.filter((n) => n !== this.snap?.me?.seat);
        if (seats.length) this.panel.setNotice(expiredNotice(this.snap, seats, this.snap.timers?.policy));
        this.sync.requestSync();
        return;
      }
      case "game_cancelled":
        this.panel.setNotice("The game was cancelled.");
        this.sync.requestSync();
        return;
      case "seat_autopilot": {
        // A computer player takes over a seat whose game time ran out (on), or its owner is back (off).
        const data = msg.data as { seat?: unknown; on?: unknown };
        const text = autopilotNotice(this.snap, data);
        if (text) this.panel.setNotice(text);
        const seat = this.snap.seats.find((s) => s.number === data?.seat);
        if (seat && typeof data?.on === "boolean") seat.autopilot = data.on;
        if (this.snap.me && this.snap.me.seat === data?.seat && typeof data?.on === "boolean") this.snap.me.autopilot = data.on;
        this.render();
        this.sync.requestSync();
        return;
      }

      case "turn_resolved": {
        const data = msg.data as unknown as TurnResolvedData;
        const events: EngineEvent[] = Array.isArray(data?.events) ? data.events : [];
        const snap = this.snap;
        const turn = typeof data?.turn === "number" ? data.turn : snap.turn;
        this.view = this.bots;
        const finished = await this.playTurn(snap, turn, events, this.bots, `Turn ${turn} log`);
        if (!finished) return; // a snapshot replaced everything meanwhile
        this.render();
        this.sync.awaitPush(!!this.snap?.me); // the deal's snapshot, or game_finished (whose sync ends the wait)
        return;
      }
      case "turn_dealt":
        this.sync.awaitPush(!!this.snap?.me);
        return;
      case "seat_unready":
        // Another kind's screen (RAMbots: uncompiled) learns of it at once; the sync brings the rest, as before.
        if (this.kindScreen) {
          const data = msg.data as { seat?: unknown; clocks?: unknown } | null;
          const seat = this.snap.seats.find((s) => s.number === data?.seat);
          if (seat) seat.ready = false;
          this.applyClocks(data?.clocks, receivedAt);
          this.kindScreen.seatEvent?.(this.snap, "seat_unready", data);
          this.render();
        }
        this.sync.requestSync();
        return;
      default:
        this.sync.requestSync();
    }
  }
}

/** The server-rendered lobby buttons (join, start) follow the live snapshot. */
function showLobbyAction(id: string, show: boolean): void {
  const form = document.getElementById(id)?.closest("form");
  if (form) form.hidden = !show;
}

function readJsonScript<T>(id: string | undefined): T | null {
  const el = id ? document.getElementById(id) : null;
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as T;
  } catch {
    return null;
  }
}

/** Draw a course preview (the same board code as the game) into a [data-course-preview] element. */
function mountPreview(el: HTMLElement, course: Course | null, label: string): void {
  el.replaceChildren();
  if (!course) return;
  const board = new Board(el);
  board.drawCourse(course);
  board.describe(label || `Preview of ${course.name}, ${course.width} by ${course.height}`);
  if (el.dataset.legend !== undefined) drawLegend(el, course).open = true;
}

function mountPreviews(): void {
  injectStyles();
  for (const el of document.querySelectorAll<HTMLElement>("[data-course-preview]")) {
    mountPreview(el, readJsonScript<Course>(el.dataset.courseJson), el.dataset.label ?? "");
  }
  // A preview that follows a <select> of courses (the create-game form).
  for (const el of document.querySelectorAll<HTMLElement>("[data-course-select-preview]")) {
    const select = document.getElementById(el.dataset.select ?? "") as HTMLSelectElement | null;
    if (!select) continue;
    const show = (): void => {
      const course = readJsonScript<Course>(`${el.dataset.prefix ?? "course-data-"}${select.value}`);
      mountPreview(el, course, course ? `Preview of ${course.name}` : "");
    };
    select.addEventListener("change", show);
    followRuleset(select, el.dataset.prefix ?? "course-data-", show);
    show();
  }
}

/** The create-game form: only the courses that suit the chosen rules stay offered (a course's `rulesets`,
 * roboracer when it names none; docs/rulesets.md). The server checks it again. */
function followRuleset(select: HTMLSelectElement, prefix: string, show: () => void): void {
  const rules = select.form?.querySelector<HTMLSelectElement>("select[name=ruleset]");
  if (!rules) return;
  const apply = (): void => {
    const chosen = rules.value || "roboracer";
    let firstFit: HTMLOptionElement | null = null;
    for (const option of Array.from(select.options)) {
      const course = readJsonScript<Course & { rulesets?: string[] }>(`${prefix}${option.value}`);
      const suits = (course?.rulesets ?? ["roboracer"]).includes(chosen);
      option.hidden = !suits;
      option.disabled = !suits;
      if (suits && !firstFit) firstFit = option;
    }
    if (select.selectedOptions[0]?.disabled && firstFit) {
      select.value = firstFit.value;
      show();
    }
  };
  rules.addEventListener("change", apply);
  apply();
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

/** What the elements remember (snapshots and turn records carry it since issue 6's elements). */
function boardOf(state: object): BoardMemory | null {
  const board = (state as { board?: unknown }).board;
  return board && typeof board === "object" ? (board as BoardMemory) : null;
}
