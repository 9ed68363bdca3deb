// The game kinds (docs/frontend.md "Game kinds"): the one place the game screen (screen.ts) learns which
// board renderer and programming panel a game has. Everything else on the screen is shared by every kind
// and knows no kind: the status line, the seat list and clocks, chat, notices, the socket and its event
// queue (sync.ts), the playback controls, results and play again.
//
// `snapshot.kind` picks the entry ("roboracer" when absent). Each kind mounts a KindScreen that the game
// screen hands its board column, panel and log column to: RoboRacer's (roboracer/screen.ts: board.ts,
// animate.ts, program.ts, modmenu.ts, log.ts), RAMbots' (rambots/screen.ts).
import type { Playback } from "./playback";
import type { Panel, SeatView, SeatsMode } from "./panel";
import type { CustomResults } from "./results";
import type { EngineEvent, Seat, Snapshot, TurnRecord } from "./types";
import type { PostJsonResult, SocketReply, SocketRequest } from "./net";
import { RambotsScreen } from "./rambots/screen";
import { RoboRacerScreen } from "./roboracer/screen";

/** What the game screen gives a kind's screen. */
export interface KindHost {
  root: HTMLElement;
  boardCol: HTMLElement;
  panelCol: HTMLElement;
  logCol: HTMLElement;
  /** The playback controls' box (a kind may put its legend and board buttons there). */
  controls: HTMLElement;
  /** The game's API URL ("" in the demo, which has no server). */
  apiUrl: string;
  /** The offline demo: nothing is sent. */
  demo: boolean;
  /** A request over the open game socket, answered there by its id; null when the socket is not open,
   * closes or stays silent (then the kind posts over HTTP). */
  socketRequest: (frame: SocketRequest) => Promise<SocketReply | null>;
  /** The shared panel (status, seats, clocks); the kind's panel goes in front of its seat list. */
  panel: Panel;
  /** POST a move (the kind's own body) to /api/games/<id>/move/; the demo answers without a server. */
  postMove: (body: unknown) => Promise<PostJsonResult<unknown>>;
  /** The kind's screen changed something the shared parts show (a seat's `ready` after a move). */
  changed: () => void;
  /** Only the seat list needs drawing again (a robot's note). */
  seatsChanged: () => void;
  /** GET the game's current snapshot (with my `me`) without applying it; null in the demo. */
  fetchSnapshot: () => Promise<Snapshot | null>;
}

/** A kind's board renderer and programming panel, as the game screen drives them. */
export interface KindScreen {
  /** The board animation, driven by the shared playback controls (pause, step, skip, speed). */
  readonly player: Playback;
  /** "Instruction 3 of 12" while a turn plays (the shared phase line). */
  onPhase: ((text: string) => void) | null;
  /** A snapshot: stop any animation and draw the live state at once. */
  show(snap: Snapshot): void;
  /** Back to the live state after a replay. */
  showLive(snap: Snapshot): void;
  /** The state before a resolved turn (a replay starts from it). False when the record has none. */
  showBefore(snap: Snapshot, record: TurnRecord): boolean;
  /** Animate a turn's events on the board, the log and the panel (`replay`: a past turn, from showBefore's
   * state). True when it finished (not cancelled). */
  playTurn(snap: Snapshot, turn: number, events: EngineEvent[], title: string, replay: boolean): Promise<boolean>;
  /** The last resolved turn's log (after a reload). */
  showLog(snap: Snapshot, turn: number, events: EngineEvent[]): void;
  /** Redraw the panel: `moving` while a live turn plays; `lastTurn`, the last resolved turn. */
  render(snap: Snapshot, moving: boolean, replaying: number | null, lastTurn: number): void;
  /** After the shared parts were drawn (the playback controls too): what measures the laid-out page. */
  layout?(snap: Snapshot, moving: boolean, replaying: number | null): void;
  /** Where my own clock goes: beside the kind's Submit (or Compile). */
  clockSlot?(): HTMLElement | null;
  /** The status line ("Goal stacks — …", "Round 3 — programming"). */
  statusText(snap: Snapshot, moving: boolean): string;
  /** The mode line and the seat list's title. */
  modeText(snap: Snapshot): SeatsMode;
  /** Seat bot ids in the order the seat list shows them. */
  seatOrder(snap: Snapshot): string[];
  /** A seat's line of stats in the seat list (outside the lobby). */
  seatView(snap: Snapshot, seat: Seat): SeatView | null;
  /** After the seat list was drawn (what goes with it: prices, marks on the board). */
  seatsShown?(snap: Snapshot): void;
  /** The results table of a finished game. */
  results(snap: Snapshot, lastTurn: number): CustomResults;
  /** A `seat_ready` or `seat_unready` event, after the game screen marked the seat (before it renders). */
  seatEvent?(snap: Snapshot, kind: "seat_ready" | "seat_unready", data: unknown): void;
}

export interface KindEntry {
  /** What players read: "RoboRacer", "RAMbots". */
  title: string;
  /** Mounts the kind's board and panel. */
  mount: (host: KindHost) => KindScreen;
}

export const KINDS: Readonly<Record<string, KindEntry>> = {
  roboracer: { title: "RoboRacer", mount: (host) => new RoboRacerScreen(host) },
  rambots: { title: "RAMbots", mount: (host) => new RambotsScreen(host) },
};

/** The snapshot's kind, "roboracer" when it names none (older servers) or one this client does not know. */
export function kindOf(snap: { kind?: unknown } | null | undefined): string {
  const kind = snap?.kind;
  return typeof kind === "string" && kind in KINDS ? kind : "roboracer";
}

export function kindEntry(snap: { kind?: unknown } | null | undefined): KindEntry {
  return KINDS[kindOf(snap)];
}
