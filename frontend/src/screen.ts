// The game screen, shared by every game kind (kinds.ts): the status panel with the seat list and clocks,
// chat, notices, the game actions, the playback controls, results and play again, the socket, and the
// sync protocol (sync.ts) that keeps it in step with the server: snapshot first, then events in version
// order, then a sync. The board, the programming panel and the log are the mounted kind's (KindScreen).
// It knows no kind: every kind-specific word and drawing is the KindScreen's.
import { confirmStart, GameActions } from "./actions";
import { ChatPanel } from "./chat";
import { clockOffset, parseServerTime, seatClock } from "./clock";
import { autopilotNotice } from "./computers";
import { PlaybackControls } from "./controls";
import { h } from "./dom";
import { kindEntry, type KindScreen } from "./kinds";
import {
  fetchJson, fetchSnapshot, gameActionUrl, GameSocket, joinUrl, postJson, turnUrl, wsUrlFromPath,
} from "./net";
import { ejectedNotice, expiredNotice, Panel, seatNames } from "./panel";
import { ResultsScreen } from "./results";
import { GameSync } from "./sync";
import { wireLobbyActions } from "./lobbyactions";
import type {
  ClocksData, EngineEvent, EventMessage, SeatReadyData, SeatsEjectedData, Snapshot, TurnRecord, TurnResolvedData,
} from "./types";

export interface Options {
  apiUrl: string;
  wsPath: string;
  /** Offline demo: a JSON file {game: Snapshot, turns: TurnRecord[]}; no server, no socket. */
  demoSrc: string;
}

export class GameScreen {
  private snap: Snapshot | null = null;
  /** Versions, the event queue, gaps and syncs (sync.ts). */
  private readonly sync: GameSync;
  private moving = false;
  private replaying: number | null = null;
  private loggedTurn: number | null = null; // the turn whose events the log shows
  private demoTurns: TurnRecord[] = [];
  /** The game kind's board, panel and log (kinds.ts), mounted by the first snapshot. */
  private kind: KindScreen | null = null;
  private readonly cols: { board: HTMLElement; panel: HTMLElement; log: HTMLElement };
  private readonly root: HTMLElement;
  private readonly panel: Panel;
  private readonly controls: PlaybackControls;
  private readonly socket: GameSocket | null;
  private readonly chat: ChatPanel | null = null;
  private readonly actions: GameActions | null = null;
  private readonly results: ResultsScreen | null = null;
  /** Server time (ms) the clocks were last reported at: older reports are ignored. */
  private clocksAsOf = -Infinity;

  constructor(root: HTMLElement, private readonly opts: Options) {
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
    this.controls = new PlaybackControls(controlsCol, (n) => this.sync.enqueue({ kind: "replay", turn: n }),
      () => this.updateControls());
    this.panel = new Panel(panelCol);
    const live = !opts.demoSrc && opts.apiUrl ? opts.apiUrl : "";
    if (live) wireLobbyActions(this.panel, live, (game) => this.sync.offerSnapshot(game, Date.now(), true));
    if (live) {
      this.actions = new GameActions(panelCol,
        (action) => postJson(gameActionUrl(live, action), {}, action === "leave" ? "leaving" : "the cancellation"),
        (action, status) => {
          // Leaving a lobby or cancelling: back to the lobby. Forfeiting a race: stay and watch.
          if (action === "cancel" || status === "lobby") location.assign("/");
          else this.sync.requestSync();
        });
      confirmStart(() => this.snap);
      this.chat = new ChatPanel(panelCol,
        (text) => postJson(gameActionUrl(live, "chat"), { text }, "the message"),
        () => this.sync.requestSync(),
        (before) => fetchJson<{ messages?: unknown[] }>(`${gameActionUrl(live, "chat")}?before=${before}`)
          .then((r) => (Array.isArray(r.messages) ? r.messages : []), () => null));
      // The results screen of a finished game (results.ts), at the top of the panel.
      this.results = new ResultsScreen(panelCol, {
        replay: () => {
          for (let n = 1; n <= this.lastResolvedTurn(); n++) this.sync.enqueue({ kind: "replay", turn: n });
        },
        playAgain: async () => {
          const res = await postJson<{ url?: unknown }>(gameActionUrl(live, "play-again"), {}, "play again");
          return res.ok && typeof res.data?.url === "string" ? { ok: true, url: res.data.url }
            : { ok: false, detail: res.ok ? "The new game could not be opened." : res.detail };
        },
      });
    }
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
        // A snapshot from the socket may have won the race; only take a newer one.
        .then((game) => this.sync.offerSnapshot(game, Date.now()))
        .catch(() => {
          if (this.snap === null) this.panel.setStatus("Could not load the game. Retrying over the live connection…");
        });
    }
    this.socket?.connect();
    this.updateControls();
  }

  private async loadDemo(src: string): Promise<void> {
    const data = await fetchJson<{ game: Snapshot; turns: TurnRecord[] }>(src);
    this.demoTurns = data.turns;
    this.sync.snapshot(data.game, data.game.version, Date.now());
    const play = Number(new URLSearchParams(location.search).get("play"));
    if (play > 0) this.sync.enqueue({ kind: "replay", turn: play });
  }

  /** The first snapshot mounts the game kind's board and panel (kinds.ts). A game never changes kind. */
  private mountKind(game: Snapshot): KindScreen {
    if (this.kind) return this.kind;
    const api = this.opts.apiUrl;
    const demo = !!this.opts.demoSrc;
    const kind = kindEntry(game).mount({
      root: this.root, boardCol: this.cols.board, panelCol: this.cols.panel, logCol: this.cols.log, panel: this.panel,
      controls: this.controls.el, apiUrl: demo ? "" : api, demo,
      socketRequest: (frame) => (this.socket ? this.socket.request(frame) : Promise.resolve(null)),
      postMove: demo
        ? async (body) => {
          // The demo sends nothing: it shows the move it would send.
          this.root.dataset.demoMove = JSON.stringify(body);
          this.panel.setConnection(`Demo: would send ${JSON.stringify(body)}`);
          return { ok: true, status: 200, data: body };
        }
        : (body) => postJson(joinUrl(api, "move/"), body, "the move"),
      changed: () => this.render(),
      seatsChanged: () => this.renderSeats(),
      fetchSnapshot: () => (demo || !api ? Promise.resolve(null) : fetchSnapshot(api)),
    });
    this.controls.drive(kind.player);
    kind.clockSlot?.()?.append(this.panel.myClock.el);
    kind.onPhase = (text) => this.panel.setPhase(text);
    this.kind = kind;
    return kind;
  }

  private updateControls(): void {
    this.controls.update({
      lastTurn: this.lastResolvedTurn(), moving: this.moving, replaying: this.replaying, turn: this.snap?.turn ?? 0,
      status: this.opts.demoSrc ? "demo" : this.snap?.status,
    });
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

  /** A snapshot is the truth: whatever was playing stops and the current state is drawn at once. The kind
   * draws its board; the last resolved turn's log is written once; then a render. */
  private applySnapshot(game: Snapshot, receivedAt: number): void {
    this.snap = game;
    const kind = this.mountKind(game);
    this.takeClocks(game.server_time, Array.isArray(game.seats) ? game.seats : [], true, receivedAt);
    this.chat?.setMessages(game.chat);
    kind.show(game);
    this.moving = false;
    this.replaying = null;
    this.panel.setConnection("");
    this.panel.setPhase("");
    const last = game.last_turn;
    if (last && Array.isArray(last.events) && last.turn !== this.loggedTurn) {
      this.loggedTurn = last.turn;
      kind.showLog(game, last.turn, last.events);
    }
    this.render();
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

  private render(): void {
    const snap = this.snap, kind = this.kind;
    if (!snap || !kind) return;
    const last = this.lastResolvedTurn();
    this.panel.setStatus(this.replaying !== null ? `Replaying turn ${this.replaying}` : kind.statusText(snap, this.moving));
    this.panel.setTimers(snap);
    this.panel.setRated(snap);
    this.panel.setMode(kind.modeText(snap));
    this.panel.setAutopilot(snap);
    this.renderSeats();
    kind.render(snap, this.moving && this.replaying === null, this.replaying, last);
    const me = snap.me;
    const mySeat = me ? snap.seats.find((x) => x.number === me.seat) : undefined;
    if (this.chat) this.chat.nameSeats = (seats) => seatNames(snap, seats);
    this.chat?.setViewer({ seat: me?.seat ?? null, user: mySeat?.user ?? null },
      typeof snap.can_chat === "boolean" ? snap.can_chat : !!me);
    this.chat?.setTeamChat(!!snap.teams && !!mySeat?.team);
    this.actions?.update(snap);
    this.results?.update(snap, last, kind.results(snap, last));
    showLobbyAction("join-game", snap.can_join);
    showLobbyAction("start-game", snap.can_start);
    this.updateControls();
    kind.layout?.(snap, this.moving && this.replaying === null, this.replaying);
  }

  private renderSeats(): void {
    const snap = this.snap, kind = this.kind;
    if (!snap || !kind) return;
    this.panel.renderSeats(snap, kind.seatOrder(snap), (seat) => kind.seatView(snap, seat));
    kind.seatsShown?.(snap);
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
    const snap = this.snap, kind = this.kind;
    if (!snap || !kind) return;
    let record: TurnRecord;
    try {
      record = await this.fetchTurn(n);
    } catch {
      this.panel.setConnection(`Could not load turn ${n}.`);
      return;
    }
    if (this.snap !== snap) return; // a snapshot arrived meanwhile
    if (!kind.showBefore(snap, record)) {
      this.panel.setConnection(`Turn ${n} can't be replayed: its record has no starting position.`);
      return;
    }
    this.replaying = n;
    const events = Array.isArray(record.events) ? record.events : [];
    const finished = await this.playTurn(kind, snap, n, events, `Replay of turn ${n}`, true);
    if (!finished) return;
    this.root.dataset.replayed = String(n);
    // The next turn of a whole-game replay starts from its own record; the demo has no live game to
    // return to: it stays on the replayed turn's end.
    if (!this.sync.nextIsReplay() && !this.opts.demoSrc) kind.showLive(snap);
    this.replaying = null;
    this.render();
  }

  /** Animate one turn's events (the kind feeds its log and the panel as they play). */
  private async playTurn(
    kind: KindScreen, snap: Snapshot, turn: number, events: EngineEvent[], title: string, replay: boolean,
  ): Promise<boolean> {
    this.moving = true;
    this.loggedTurn = turn;
    this.render();
    const finished = await kind.playTurn(snap, turn, events, title, replay);
    if (!finished) return false;
    this.moving = false;
    this.panel.setPhase("");
    return true;
  }

  /** The next event in version order (sync.ts checked its version). */
  private async handleEvent(msg: EventMessage, receivedAt: number): Promise<void> {
    const snap = this.snap, kind = this.kind;
    if (!snap || !kind) return;
    const requestSync = () => this.sync.requestSync();
    switch (msg.kind) {
      case "seat_ready":
      case "seat_unready": {
        const data = msg.data as unknown as SeatReadyData | null;
        const ready = msg.kind === "seat_ready";
        // seat_unready: a kind with its own seat event (RAMbots: uncompiled) learns of it at once; the sync
        // brings the rest.
        if (!ready && !kind.seatEvent) return requestSync();
        const seat = snap.seats.find((s) => s.number === data?.seat);
        if (seat) seat.ready = ready;
        this.applyClocks(data?.clocks, receivedAt); // the seat's clock stopped (and reloaded) with its program
        kind.seatEvent?.(snap, msg.kind, data);
        this.render();
        if (!ready) requestSync();
        return;
      }
      case "turn_executing":
        // Nothing to fetch: every program is in. (Asking for a snapshot here could race the
        // resolution and skip the turn's animation.)
        snap.status = "resolving";
        this.render();
        return;
      case "chat":
        this.chat?.add(msg.data);
        return;
      case "clocks":
        this.applyClocks(msg.data, receivedAt);
        return;
      case "seats_ejected": {
        const data = msg.data as unknown as SeatsEjectedData;
        this.panel.setNotice(ejectedNotice(snap, data) +
          // Not to the player who just left (the walkthrough: the one who forfeited was told to submit again).
          (data?.resubmit && snap.me && !data.seats?.includes(snap.me.seat) ? " Every program was cleared: submit yours again." : ""));
        return requestSync();
      }
      case "timer_expired": {
        // The clocks event that follows marks the seats; the sync brings the system chat line.
        let seats = Array.isArray((msg.data as { seats?: unknown })?.seats) ? (msg.data as { seats: unknown[] }).seats : [];
        // Under the "computer" policy my own seat has its banner (Panel.setAutopilot): the notice names the others.
        if (snap.timers?.policy === "computer") seats = seats.filter((n) => n !== snap.me?.seat);
        if (seats.length) this.panel.setNotice(expiredNotice(snap, seats, snap.timers?.policy));
        return requestSync();
      }
      case "game_cancelled":
        this.panel.setNotice("The game was cancelled.");
        return requestSync();
      case "seat_autopilot": {
        // A computer player takes over a seat whose game time ran out (on), or its owner is back (off).
        const data = msg.data as { seat?: unknown; on?: unknown };
        const text = autopilotNotice(snap, data);
        if (text) this.panel.setNotice(text);
        const seat = snap.seats.find((s) => s.number === data?.seat);
        if (seat && typeof data?.on === "boolean") seat.autopilot = data.on;
        if (snap.me && snap.me.seat === data?.seat && typeof data?.on === "boolean") snap.me.autopilot = data.on;
        this.render();
        return requestSync();
      }
      case "turn_resolved": {
        const data = msg.data as unknown as TurnResolvedData;
        const events: EngineEvent[] = Array.isArray(data?.events) ? data.events : [];
        const turn = typeof data?.turn === "number" ? data.turn : snap.turn;
        const finished = await this.playTurn(kind, snap, turn, events, `Turn ${turn} log`, false);
        if (!finished) return; // a snapshot replaced everything meanwhile
        this.render();
        this.sync.awaitPush(!!this.snap?.me); // the deal's snapshot, or game_finished (whose sync ends the wait)
        return;
      }
      case "turn_dealt":
        this.sync.awaitPush(!!snap.me);
        return;
      default:
        requestSync();
    }
  }
}

/** The server-rendered lobby buttons (join, start) follow the live snapshot. */
function showLobbyAction(id: string, show: boolean): void {
  const form = document.getElementById(id)?.closest("form");
  if (form) form.hidden = !show;
}
