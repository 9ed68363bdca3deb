// Data contract between the RoboRacer server and the browser.
import type { BoardMemory } from "./board";

export type Dir = "N" | "E" | "S" | "W";
export type Coord = [number, number];
/** "1","2","3" forward, "B" back up, "L"/"R" turn, "U" U-turn, "0" nothing; other strings may come later.
 * A numbered card (rulesets with `numbered`, e.g. roborace) is written "<chip>@<number>": "R@5", "2@70"
 * (chips.ts `parseCard`). Hands, programs and registers hold whole cards. */
export type Chip = string;
export type GameStatus = "lobby" | "programming" | "resolving" | "finished" | "cancelled";

export interface WallElement { type: "wall"; at: Coord; side: Dir }
export interface PitElement { type: "pit"; at: Coord }
export interface StartElement { type: "start"; at: Coord; number: number; dir: Dir }
export interface CheckpointElement { type: "checkpoint"; at: Coord; number: number }
export interface RepairElement { type: "repair"; at: Coord; amount: number; upgrade?: boolean }
export interface BeltElement { type: "belt"; at: Coord; dir: Dir; speed: number; curves_from?: Dir[] }
export interface PusherElement { type: "pusher"; at: Coord; side: Dir; phases: number[] }
export interface TurntableElement { type: "turntable"; at: Coord; rotation: "L" | "R" }
export interface CrusherElement { type: "crusher"; at: Coord; phases: number[] }
export interface LaserElement { type: "laser"; at: Coord; side: Dir; beams: number }
/** Any element type this client does not know yet. */
export interface UnknownElement { type: string; at?: Coord; [key: string]: unknown }

export type KnownElement =
  | WallElement | PitElement | StartElement | CheckpointElement | RepairElement
  | BeltElement | PusherElement | TurntableElement | CrusherElement | LaserElement;
export type CourseElement = KnownElement | UnknownElement;

export interface Course {
  format: string;
  name: string;
  width: number;
  height: number;
  mode?: string;
  players?: [number, number];
  elements: CourseElement[];
}

export interface Vacation { from: string; until: string }

export interface Seat {
  number: number;
  user: string;
  bot: string | null;
  color: string;
  ready: boolean;
  /** Team play: "blue" or "orange" (null outside team play or not chosen yet). */
  team?: Team | null;
  // ---- site issue (timers, profiles); optional: older servers and the demo files lack them ----
  display_name?: string;
  /** The player's shown rating (roboracer/ratings; docs/ratings.md). */
  rating?: number;
  /** Once a rated game is finished: the shown points this game won or lost; else null. */
  rating_change?: number | null;
  vacation?: Vacation | null;
  ejected?: boolean;
  /** Seconds, as of the snapshot's `server_time`. */
  move_left?: number | null;
  game_left?: number | null;
  /** This seat is thinking and its time goes down: move_left first, then game_left. */
  clock_running?: boolean;
  /** Game time ran out: the others may `!eject`. */
  expired?: boolean;
  // ---- computer players (issue 20; optional: older servers and the demo files lack them) ----
  /** A computer player's strength; null (or absent) for a person. */
  computer?: ComputerStrength | null;
  /** A person's seat played by a Normal computer player because their game time ran out (timeout policy
   * "computer"), until they send a program again. */
  autopilot?: boolean;
  /** A bot account (issue 41, docs/bot-api.md): a program plays it; shown with a BOT badge. */
  bot_account?: boolean;
}

/** How strong a computer player is (engine/players). */
export type ComputerStrength = "easy" | "normal" | "hard";

export type TimerPreset = "realtime" | "daily" | "tournament" | "custom";
export type TimeoutPolicy = "wait" | "eject" | "random" | "computer";
export interface Timers { preset: TimerPreset | string; move: number; game: number; policy: TimeoutPolicy | string }

export interface ChatMessage {
  id: number;
  seat: number | null;
  user: string;
  display_name?: string;
  /** Said by a bot account (issue 41, docs/bot-api.md): a BOT badge after the name. */
  bot_account?: boolean;
  text: string;
  /** ISO 8601. */
  at: string;
  system: boolean;
  /** Team chat: the team it went to (only that team receives it); null for everyone. */
  team?: Team | null;
}

export type Team = "blue" | "orange";
export type GameMode = "race" | "arena" | "puzzle";

/** A finished game's results as its mode ranks them (games.selectors.standings). */
export interface StandingRow { place: number | null; bot: string; seat: number | null; user: string | null; team?: Team | null; detail: string }

/** A puzzle game's goal (docs/modes.md). */
export interface PuzzleInfo {
  goal: { type: string; number?: number; turns?: number; targets?: string[] } | null;
  goal_text: string; turn_limit: number | null; players: number; description: string; targets: string[];
  /** Turns played so far (the puzzle's count). */
  turns_used?: number;
}

/** The game's rules (engine.rulesets; games.selectors.ruleset_snapshot). */
export interface RulesetInfo {
  /** "roboracer" (the default), "roborace" (004)… */
  name: string;
  /** What players see: "RoboRacer", "RoboRace". */
  title: string;
  /** The seed document it comes from ("003", "004"). */
  document?: string;
  /** Cards carry numbers: "<chip>@<number>". */
  numbered?: boolean;
  /** Damage that destroys a bot. */
  max_damage?: number;
  /** A destruction costs one of the bot's robots (its lives). */
  counts_lives?: boolean;
  /** Bot modules may be offered. */
  modules?: boolean;
  /** Optional (not sent yet): whether anything damages a robot; absent, the screen goes by the ruleset's name. */
  damage?: boolean;
  options?: Record<string, unknown>;
}

/** data of a `clocks` event. */
export interface ClocksData {
  server_time: string;
  seats: { number: number; move_left: number | null; game_left: number | null; clock_running: boolean; expired: boolean }[];
}

export interface SeatsEjectedData { seats: number[]; by: string; reason?: string; resubmit: boolean }

/** A message of the per-user notifications socket /ws/notifications/. */
export interface YourTurnNotice {
  type: "your_turn"; game: number; turn: number; course: string; deadline: string | null;
  /** "round" in a RAMbots game; "turn" (or absent) otherwise. */
  turn_noun?: string;
}

export interface BotState {
  id: string;
  at: Coord | null;
  dir: Dir;
  damage: number;
  lives: number;
  next_checkpoint: number;
  virtual: boolean;
  /** Team play: the bot's team. */
  team?: Team | null;
  /** A puzzle's target bot: it belongs to no player. */
  target?: boolean;
  /** Optional, when the engine reports it: the bot plays five "0" chips this turn. */
  rebooting?: boolean;
  // ---- bot modules (issue 15; optional: games without modules and older servers lack them) ----
  battery?: number;
  /** The installed module, or null. */
  module?: { type: string; charges: number } | null;
  /** A drone's owner (its id is `<owner>.drone`), else null. */
  drone_of?: string | null;
  // ---- classic (000; optional: only classic games send them) ----
  /** Was powered down last turn. */
  powered_down?: boolean;
  /** Sits this turn out, powered down (its program is entered by the server). */
  power_down_next?: boolean;
  /** Its upgrades (option cards), snake_case: ["brakes", "ramming_gear"]. */
  upgrades?: string[];
  upgrade_state?: Record<string, number>;
}

/** The Scanner's result, for its owner alone: the opponents' submitted chips, sorted (not their order). */
export interface ScanResult { turn: number; programs: Record<string, Chip[]> }

export interface FrozenRegister { register: number; chip: Chip }

export interface Me {
  seat: number;
  bot: string | null;
  hand: Chip[];
  program: Chip[] | null;
  reboot?: boolean;
  frozen: FrozenRegister[];
  /** Hidden from my lobby ("!archive"). */
  archived?: boolean;
  // ---- bot modules (issue 15) ----
  /** The module action sent with this turn's program, or null. */
  action?: import("./modules").ModuleAction | null;
  /** My stored chip (Storage), played as "S"; nobody else sees it. */
  stored_chip?: Chip | null;
  /** A Scanner activated last turn: one charge is taken at the start of this turn. */
  scan_due?: boolean;
  /** My latest scan this turn, or null. */
  scan?: ScanResult | null;
  // ---- classic (000) ----
  /** The stored program asked to power down next round. */
  power_down?: boolean;
  /** My upgrades' switches. */
  upgrade_use?: Record<string, unknown>;
  /** The instruction my Flywheel saved (it is in my hand). */
  saved_chip?: Chip | null;
  // ---- computer players (issue 20) ----
  /** My game time ran out and a computer player plays my robot until I send a program again. */
  autopilot?: boolean;
}

export interface Snapshot {
  id: number;
  /** The game kind (kinds.ts): "roboracer" (also when absent) or "rambots". */
  kind?: string;
  status: GameStatus;
  turn: number;
  version: number;
  course: Course;
  seats: Seat[];
  bots: BotState[];
  priority: string[];
  /** Squares with radiation this turn (left by virtual burn). */
  radiation?: Coord[];
  winner: string | null;
  me: Me | null;
  can_join: boolean;
  can_start: boolean;
  max_seats?: number;
  /** The last resolved turn's engine events (public once it ran), for the turn log after a reload. */
  last_turn?: { turn: number; events: EngineEvent[] } | null;
  // ---- site issue (optional: older servers and the demo files lack them) ----
  visibility?: "public" | "private";
  /** Whether the game changes ratings when it finishes (docs/ratings.md "Which games are rated"). */
  rated?: boolean;
  /** Finished with fewer than two seats that moved: unrated for everyone (docs/ratings.md "Aborted games"). */
  aborted?: boolean;
  /** A finished game that is a tournament's table: its tournament (no "play again": it seats the next game). */
  competition?: { kind: string; name: string; url: string; context?: string; result?: string } | null;
  /** Only for seated players of a private game. */
  invite_url?: string | null;
  timers?: Timers | null;
  /** ISO 8601: when the server built this snapshot (the clocks are as of then). */
  server_time?: string;
  /** The last 100 messages, oldest first. */
  chat?: ChatMessage[];
  can_leave?: boolean;
  can_cancel?: boolean;
  /** The viewer may write in the chat (players; staff). */
  can_chat?: boolean;
  /** What the course elements remember (engine.public_board): revealed teleporters, broken mirrors… */
  board?: BoardMemory | null;
  /** The modules available in this game, sorted (issue 15). */
  modules?: string[];
  /** The game's current prices of one charge, {module: price}; {} without modules. */
  prices?: Record<string, number>;
  // ---- game modes (issue 16; optional: older servers and the demo files lack them) ----
  mode?: GameMode;
  mode_text?: string;
  teams?: boolean;
  /** Arena remains: one piece per square. */
  remains?: Coord[];
  winning_team?: Team | null;
  /** Puzzles: "solved", "failed" or null. */
  outcome?: string | null;
  can_reboot?: boolean;
  can_balance?: boolean;
  /** The game's rules (issue 19; optional: older servers and the demo files lack it, meaning roboracer). */
  ruleset?: RulesetInfo | null;
  puzzle?: PuzzleInfo | null;
  standings?: StandingRow[] | null;
  standings_summary?: string | null;
  // ---- computer players (issue 20; optional) ----
  /** The viewer (the creator, in the lobby, with a seat free) may add a computer player. */
  can_add_computer?: boolean;
  /** The strengths a computer player may have, weakest first. */
  computer_strengths?: string[];
  // ---- RAMbots (kind "rambots": rambots/types.ts; no course, bots, priority) ----
  /** The kind's options ({"speedbots": bool} for RAMbots). */
  options?: Record<string, unknown>;
  /** RAMbots' public state (rambots/types.ts RamState). */
  rambots?: unknown;
}

// ---- engine events (data.events of a turn_resolved event; docs/formats.md "Events") ----
interface EventBase { phase: number; step: string; bot?: string | null }
/** `chip` is the bare chip ("R"); a numbered card's number comes as `number`. */
export interface ChipEvent extends EventBase { type: "chip"; bot: string; chip: Chip; number?: number }
export interface MovedEvent extends EventBase { type: "moved"; bot: string; from: Coord; to: Coord }
export interface PushedEvent extends EventBase { type: "pushed"; bot: string; by?: string; from: Coord; to: Coord }
export interface CarriedEvent extends EventBase { type: "carried"; bot: string; from: Coord; to: Coord; sub?: number }
export interface RotatedEvent extends EventBase { type: "rotated"; bot: string; from: Dir; to: Dir; cause?: string }
export interface BlockedEvent extends EventBase { type: "blocked"; bot: string; at: Coord; dir: Dir; by?: string }
export interface ShotEvent extends EventBase {
  type: "shot"; bot: string | null; source?: string; from: Coord; to: Coord; dir: Dir; beams?: number; target?: string | null;
}
export interface DestroyedEvent extends EventBase { type: "destroyed"; bot: string; at: Coord | null; cause: string }
export interface DamagedEvent extends EventBase { type: "damaged"; bot: string; amount: number; damage: number; cause?: string }
export interface CheckpointEvent extends EventBase { type: "checkpoint"; bot: string; number: number; at?: Coord }
export interface RepairedEvent extends EventBase { type: "repaired"; bot: string; amount: number; damage: number; cause?: string }
export interface RadiationEvent extends EventBase { type: "radiation"; at: Coord }
export interface RealEvent extends EventBase { type: "real"; bot: string; at?: Coord }
export interface RespawnedEvent extends EventBase { type: "respawned"; bot: string; at: Coord; dir: Dir; virtual: boolean }
export interface WinnerEvent extends EventBase { type: "winner"; bot: string; reason?: string }
export interface RebootingEvent extends EventBase { type: "rebooting"; bot: string }
export interface RebootRefusedEvent extends EventBase { type: "reboot_refused"; bot: string; at?: Coord; reason?: string }
export interface PriorityEvent extends EventBase { type: "priority"; order: string[] }
/** roborace: after the cards of a phase, each robot's floor space acts on it in this (random) order. */
export interface SpaceOrderEvent extends EventBase { type: "space_order"; bot: null; order: string[] }
export interface OtherEvent extends EventBase { type: string; [key: string]: unknown }

export type KnownEngineEvent =
  | ChipEvent | MovedEvent | PushedEvent | CarriedEvent | RotatedEvent | BlockedEvent | ShotEvent
  | DestroyedEvent | DamagedEvent | CheckpointEvent | RepairedEvent | RadiationEvent | RealEvent
  | RespawnedEvent | WinnerEvent | RebootingEvent | RebootRefusedEvent | PriorityEvent;
export type EngineEvent = KnownEngineEvent | OtherEvent;

/** A resolved turn as GET /api/games/<id>/turns/<n>/ returns it (public once it ran). */
export interface TurnRecord {
  turn: number;
  events: EngineEvent[];
  programs: Record<string, Chip[]>;
  reboots?: string[];
  before: { bots: BotState[]; priority: string[]; radiation?: Coord[]; board?: BoardMemory | null; remains?: Coord[] };
  after: { bots: BotState[]; priority: string[]; radiation?: Coord[]; board?: BoardMemory | null };
}

// ---- WebSocket messages ----
/** `pushed`: sent by the server after a deal to the player's own sockets, not asked for. */
export interface SnapshotMessage { type: "snapshot"; version: number; game: Snapshot; pushed?: boolean }
export interface EventMessage { type: "event"; version: number; kind: string; data: Record<string, unknown> }
/** A team's chat line, to that team's players only (never an event of the public stream). */
export interface TeamChatMessage { type: "team_chat"; message: ChatMessage }
export type ServerMessage = SnapshotMessage | EventMessage | TeamChatMessage;

export interface SeatReadyData { seat: number; clocks?: ClocksData }
export interface TurnResolvedData { turn: number; events: EngineEvent[] }

export const DIRS: readonly Dir[] = ["N", "E", "S", "W"];

export function isDir(v: unknown): v is Dir {
  return v === "N" || v === "E" || v === "S" || v === "W";
}

export function isCoord(v: unknown): v is Coord {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === "number" && typeof v[1] === "number";
}

/** Narrow an engine event to a known type, validating the fields the animator reads. */
export function asKnownEvent(e: EngineEvent): KnownEngineEvent | null {
  const r = e as Record<string, unknown>;
  const bot = typeof r.bot === "string" ? r.bot : null;
  switch (e.type) {
    case "radiation": return isCoord(r.at) ? (e as RadiationEvent) : null;
    case "priority": return Array.isArray(r.order) ? (e as PriorityEvent) : null;
    case "shot": return isCoord(r.from) && isCoord(r.to) ? (e as ShotEvent) : null;
    default: break;
  }
  if (!bot) return null;
  switch (e.type) {
    case "chip": return typeof r.chip === "string" ? (e as ChipEvent) : null;
    case "moved":
    case "pushed":
    case "carried": return isCoord(r.to) ? (e as MovedEvent | PushedEvent | CarriedEvent) : null;
    case "rotated": return isDir(r.to) ? (e as RotatedEvent) : null;
    case "blocked": return isDir(r.dir) ? (e as BlockedEvent) : null;
    case "destroyed": return e as DestroyedEvent;
    case "damaged": return typeof r.damage === "number" ? (e as DamagedEvent) : null;
    case "repaired": return typeof r.damage === "number" ? (e as RepairedEvent) : null;
    case "checkpoint": return typeof r.number === "number" ? (e as CheckpointEvent) : null;
    case "respawned": return isCoord(r.at) && isDir(r.dir) ? (e as RespawnedEvent) : null;
    case "real": return e as RealEvent;
    case "winner": return e as WinnerEvent;
    case "rebooting": return e as RebootingEvent;
    case "reboot_refused": return e as RebootRefusedEvent;
    default: return null;
  }
}
