// Entry point: finds #game-root, builds the screen and keeps it in step with the server.
import { Animator, type Speed } from "./animate";
import { Board } from "./board";
import { fetchSnapshot, GameSocket, postProgram, wsUrlFromPath } from "./net";
import { botName, Panel, statusText } from "./panel";
import { ProgramUI } from "./program";
import css from "./styles.css?inline";
import type { BotState, EngineEvent, EventMessage, SeatReadyData, ServerMessage, Snapshot, TurnResolvedData } from "./types";

function injectStyles(): void {
  if (document.getElementById("roboracer-styles")) return;
  const style = document.createElement("style");
  style.id = "roboracer-styles";
  style.textContent = css;
  document.head.appendChild(style);
}

const SPEEDS: { value: Speed; label: string }[] = [
  { value: 0.5, label: "0.5×" },
  { value: 1, label: "1×" },
  { value: 2, label: "2×" },
  { value: 0, label: "Instant" },
];

export class GameScreen {
  private snap: Snapshot | null = null;
  private version: number | null = null;
  private courseKey = "";
  private bots = new Map<string, BotState>();
  private queue: EventMessage[] = [];
  private pumping = false;
  private moving = false;
  private loggedTurn: number | null = null; // the turn whose events the log shows
  private syncPending = false;
  private syncTimer: number | undefined;

  private readonly board: Board;
  private readonly animator: Animator;
  private readonly panel: Panel;
  private readonly program: ProgramUI;
  private readonly skipBtn: HTMLButtonElement;
  private readonly speedBtns: HTMLButtonElement[] = [];
  private readonly socket: GameSocket;

  constructor(root: HTMLElement) {
    injectStyles();
    const apiUrl = root.dataset.apiUrl ?? "";
    const wsPath = root.dataset.wsUrl ?? "";

    root.classList.add("rr-game");
    root.replaceChildren();
    const boardCol = document.createElement("div");
    boardCol.className = "rr-board-col";
    const panelCol = document.createElement("aside");
    panelCol.className = "rr-panel";
    panelCol.setAttribute("aria-label", "Game status and program");
    root.append(boardCol, panelCol);

    this.board = new Board(boardCol);
    this.animator = new Animator(this.board);

    const playback = document.createElement("div");
    playback.className = "rr-playback";
    playback.setAttribute("role", "group");
    playback.setAttribute("aria-label", "Animation speed");
    const speedLabel = document.createElement("span");
    speedLabel.textContent = "Speed:";
    speedLabel.className = "rr-playback-label";
    playback.appendChild(speedLabel);
    let saved: Speed = 1;
    try {
      const v = Number(localStorage.getItem("roboracer-speed"));
      if (SPEEDS.some((s) => s.value === v) && localStorage.getItem("roboracer-speed") !== null) saved = v as Speed;
    } catch { /* storage unavailable */ }
    for (const s of SPEEDS) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "rr-speed";
      b.textContent = s.label;
      b.dataset.speed = String(s.value);
      b.setAttribute("aria-label", s.value === 0 ? "Instant animation" : `Animation speed ${s.label}`);
      b.addEventListener("click", () => this.setSpeed(s.value));
      this.speedBtns.push(b);
      playback.appendChild(b);
    }
    this.skipBtn = document.createElement("button");
    this.skipBtn.type = "button";
    this.skipBtn.id = "skip-animation";
    this.skipBtn.textContent = "Skip";
    this.skipBtn.setAttribute("aria-label", "Skip the rest of this turn's animation");
    this.skipBtn.disabled = true;
    this.skipBtn.addEventListener("click", () => this.animator.skip());
    playback.appendChild(this.skipBtn);
    boardCol.appendChild(playback);
    this.setSpeed(saved);

    this.panel = new Panel(panelCol, null);
    this.program = new ProgramUI(panelCol, (body) => postProgram(apiUrl, body));
    // Keep the program section right after the status line.
    panelCol.insertBefore(this.program.el, this.panel.el.nextSibling);

    this.socket = new GameSocket(wsUrlFromPath(wsPath), (m) => this.onMessage(m), (state) => {
      if (state === "open") {
        this.syncPending = false;
        this.panel.setConnection("");
      } else if (state === "closed") {
        this.panel.setConnection("Connection lost — reconnecting…");
      } else if (this.snap === null) {
        this.panel.setConnection("Connecting…");
      }
    });

    if (apiUrl) {
      fetchSnapshot(apiUrl)
        .then((game) => {
          // A snapshot from the socket may have won the race; only take a newer one.
          if (this.version === null || game.version > this.version) this.applySnapshot(game, game.version);
        })
        .catch(() => {
          if (this.snap === null) this.panel.setStatus("Could not load the game. Retrying over the live connection…");
        });
    }
    if (wsPath) this.socket.connect();
  }

  private setSpeed(speed: Speed): void {
    this.animator.speed = speed;
    for (const b of this.speedBtns) b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === speed));
    try { localStorage.setItem("roboracer-speed", String(speed)); } catch { /* ignore */ }
  }

  private requestSync(): void {
    if (this.syncPending) return;
    if (this.socket.sync()) {
      this.syncPending = true;
      // If the answer never comes, allow asking again.
      window.clearTimeout(this.syncTimer);
      this.syncTimer = window.setTimeout(() => { this.syncPending = false; }, 5000);
    }
  }

  private onMessage(msg: ServerMessage): void {
    if (msg.type === "snapshot" && msg.game) {
      this.applySnapshot(msg.game, typeof msg.version === "number" ? msg.version : msg.game.version);
    } else if (msg.type === "event" && typeof msg.version === "number") {
      this.queue.push(msg);
      void this.pump();
    }
  }

  private applySnapshot(game: Snapshot, version: number): void {
    this.animator.cancel();
    this.snap = game;
    this.version = version;
    this.syncPending = false;
    window.clearTimeout(this.syncTimer);
    this.bots = new Map((Array.isArray(game.bots) ? game.bots : []).map((b) => [String(b.id), { ...b, id: String(b.id) }]));
    const key = JSON.stringify(game.course);
    if (key !== this.courseKey) {
      this.courseKey = key;
      void this.animator.animate({ kind: "course", course: game.course }, 0);
    }
    void this.animator.animate({ kind: "reset", bots: [...this.bots.values()], seats: game.seats }, 0);
    this.moving = false;
    this.panel.setConnection("");
    const last = game.last_turn;
    if (last && Array.isArray(last.events) && last.turn !== this.loggedTurn) {
      this.loggedTurn = last.turn;
      this.panel.startLog(last.turn);
      for (const e of last.events) this.panel.logEvent(game, e);
    }
    this.render();
  }

  private render(): void {
    const snap = this.snap;
    if (!snap) return;
    this.panel.setStatus(statusText(snap, this.moving));
    this.panel.renderSeats(snap, this.bots);
    this.program.update(snap, this.moving);
    this.skipBtn.disabled = !this.moving;
    showLobbyAction("join-game", snap.can_join);
    showLobbyAction("start-game", snap.can_start);
    const c = snap.course;
    this.board.describe(`${c.name}, ${c.width} by ${c.height} course. ` +
      this.animator.describeBots((id) => botName(snap, id)));
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const msg = this.queue.shift() as EventMessage;
        await this.handleEvent(msg);
      }
    } finally {
      this.pumping = false;
    }
  }

  private async handleEvent(msg: EventMessage): Promise<void> {
    if (this.version === null || !this.snap) {
      this.requestSync();
      return;
    }
    if (msg.version <= this.version) return; // old news
    if (msg.version > this.version + 1) {
      this.requestSync(); // we missed something
      return;
    }
    this.version = msg.version;
    switch (msg.kind) {
      case "seat_ready": {
        const data = msg.data as unknown as SeatReadyData;
        const seat = this.snap.seats.find((s) => s.number === data?.seat);
        if (seat) seat.ready = true;
        this.render();
        return;
      }
      case "turn_resolved": {
        const data = msg.data as unknown as TurnResolvedData;
        const events: EngineEvent[] = Array.isArray(data?.events) ? data.events : [];
        const snap = this.snap;
        this.moving = true;
        this.loggedTurn = typeof data?.turn === "number" ? data.turn : snap.turn;
        this.panel.startLog(this.loggedTurn);
        this.render();
        const finished = await this.animator.play(events, (e) => {
          this.panel.logEvent(snap, e);
          this.trackEvent(e);
        });
        if (!finished) return; // a snapshot replaced everything meanwhile
        this.moving = false;
        this.render();
        this.requestSync();
        return;
      }
      default:
        this.requestSync();
    }
  }

  /** Keep the status panel's numbers current while the turn plays. */
  private trackEvent(e: EngineEvent): void {
    const r = e as Record<string, unknown>;
    const bot = typeof r.bot === "string" ? this.bots.get(r.bot) : undefined;
    if (!bot || !this.snap) return;
    let changed = true;
    if (e.type === "damaged" && typeof r.damage === "number") bot.damage = r.damage;
    else if (e.type === "checkpoint" && typeof r.number === "number") bot.next_checkpoint = r.number + 1;
    else if (e.type === "destroyed") bot.at = null;
    else if (e.type === "respawned" && Array.isArray(r.at)) {
      bot.at = [Number(r.at[0]), Number(r.at[1])];
      bot.virtual = !!r.virtual;
    } else changed = false;
    if (changed) this.panel.renderSeats(this.snap, this.bots);
  }
}

/** The server-rendered lobby buttons (join, start) follow the live snapshot. */
function showLobbyAction(id: string, show: boolean): void {
  const form = document.getElementById(id)?.closest("form");
  if (form) form.hidden = !show;
}

function mount(): void {
  const root = document.getElementById("game-root");
  if (!root || root.dataset.mounted === "1") return;
  root.dataset.mounted = "1";
  new GameScreen(root);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount, { once: true });
else mount();
