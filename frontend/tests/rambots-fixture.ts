// A RAMbots game for the unit tests and the browser harness: a snapshot of round 2 (three players, seat 1
// is "me") and that round's events, in the server contract's shapes (docs/frontend.md "RAMbots screens").
import type { EngineEvent, Snapshot } from "../src/types";

export const BEFORE = {
  phase: "programming", round: 2,
  players: [
    { id: "1", colour: "red", bot: { at: [2, 5], dir: "N" }, pool: ["S-red", "M-red", "L-red", "S-blue", "M-blue", "M-yellow", "S-green", "L-green"],
      goals: ["M-green", "S-blue", "L-yellow"], goal_top: "M-green", goals_left: 3, goal_maker: "3", tagged: 1, out: false, goals_built: true },
    { id: "2", colour: "blue", bot: { at: [5, 2], dir: "W" }, pool: ["S-blue", "S-yellow", "M-red", "L-yellow", "L-blue", "M-green"],
      goals: null, goal_top: "S-red", goals_left: 4, goal_maker: "1", tagged: 0, out: false, goals_built: true },
    { id: "3", colour: "green", bot: { at: [6, 6], dir: "up" }, pool: ["S-red", "S-yellow", "L-yellow", "M-blue", "M-green", "M-red", "L-green"],
      goals: null, goal_top: "L-blue", goals_left: 2, goal_maker: "2", tagged: 2, out: false, goals_built: true },
  ],
  beacons: [
    { colour: "red", at: [3, 3], dir: "E" }, { colour: "yellow", at: [4, 3], dir: "N" },
    { colour: "green", at: [3, 4], dir: "up" }, { colour: "blue", at: [4, 4], dir: "W" },
  ],
  precedence: ["blue", "green", "yellow", "red"],
  options: { speedbots: false },
  winner: null,
};

const seat = (number: number, user: string, color: string, ready = false) => ({
  number, user, display_name: user, bot: String(number), color, ready, ejected: false, computer: null, autopilot: false,
  move_left: 95, game_left: 540, clock_running: !ready, expired: false,
});

export function snapshot(over: Partial<Snapshot> = {}, state: unknown = BEFORE): Snapshot {
  return {
    id: 42, kind: "rambots", status: "programming", turn: 2, version: 17, creator: "alice", max_seats: 3,
    visibility: "public", rated: false, timers: { preset: "realtime", move: 120, game: 600, policy: "wait" },
    server_time: "2026-01-01T12:00:00Z",
    course: null as unknown as Snapshot["course"],
    seats: [seat(1, "alice", "#d62828"), seat(2, "bob", "#1d4ed8", true), seat(3, "cyrano", "#15803d")],
    bots: [], priority: [],
    winner: null,
    chat: [{ id: 1, seat: 2, user: "bob", display_name: "bob", text: "gl hf", at: "2026-01-01T11:58:00Z", system: false }],
    me: { seat: 1, bot: "1", hand: [], program: null, frozen: [],
      rambots: { goals_for: "2", goals_made: ["S-red", "M-blue", "L-green", "S-yellow"], program: null, compiled: false,
        draft: [{ piece: "S-red", dir: "N" }] } } as unknown as Snapshot["me"],
    can_join: false, can_start: false, can_leave: true, can_cancel: false, can_chat: true,
    options: { speedbots: false },
    rambots: JSON.parse(JSON.stringify(state)),
    last_turn: { turn: 1, events: [
      { type: "instruction", player: "2", piece: "S-blue", dir: "W", step: 1 },
      { type: "reoriented", object: "bot:2", from: "up", to: "W" },
      { type: "beam", player: "2", colour: "blue", from: [5, 2], dir: "W", hit: null, at: null },
      { type: "precedence_rotated", precedence: ["blue", "green", "yellow", "red"] },
    ] as unknown as EngineEvent[] },
    ...over,
  } as Snapshot;
}

const ev = (type: string, fields: Record<string, unknown>): EngineEvent => ({ type, ...fields }) as unknown as EngineEvent;
const ins = (player: string, piece: string, dir: string, step: number) => ev("instruction", { player, piece, dir, step });
const mv = (object: string, from: number[], to: number[], dir: string, cause = "move") => ev("moved", { object, from, to, dir, cause });

/** Round 2, instruction by instruction (the engine orders them by size and precedence). */
export const ROUND2: EngineEvent[] = [
  // Red's S-blue N: already facing north, moves 1; its blue beam hits nothing.
  ins("1", "S-blue", "N", 1), mv("bot:1", [2, 5], [2, 4], "N"),
  ev("beam", { player: "1", colour: "blue", from: [2, 4], dir: "N", hit: null, at: null }),
  // Blue's M-red S: turns south (first unit), moves 1.
  ins("2", "M-red", "S", 1), ev("reoriented", { object: "bot:2", from: "W", to: "S" }), mv("bot:2", [5, 2], [5, 3], "S"),
  ev("beam", { player: "2", colour: "red", from: [5, 3], dir: "S", hit: null, at: null }),
  // Green's L-yellow W: tips down facing west, moves 2.
  ins("3", "L-yellow", "W", 1), ev("reoriented", { object: "bot:3", from: "up", to: "W" }),
  mv("bot:3", [6, 6], [5, 6], "W"), mv("bot:3", [5, 6], [4, 6], "W"),
  ev("beam", { player: "3", colour: "yellow", from: [4, 6], dir: "W", hit: null, at: null }),
  // Red's M-green E: turns east, moves 1 into the upright green beacon: pushes the line, RAMs it (tips it over:
  // its goal!), then the green beam sets it upright again.
  ins("1", "M-green", "E", 2), ev("reoriented", { object: "bot:1", from: "N", to: "E" }),
  mv("beacon:blue", [4, 4], [5, 4], "E", "push"), mv("beacon:green", [3, 4], [4, 4], "E", "push"), mv("bot:1", [2, 4], [3, 4], "E"),
  ev("rammed", { by: "1", object: "beacon:green" }), ev("tipped", { object: "beacon:green", from: "up", to: "E" }),
  ev("tagged", { player: "1", piece: "M-green", object: "beacon:green" }),
  ev("beam", { player: "1", colour: "green", from: [3, 4], dir: "E", hit: "beacon:green", at: [4, 4] }),
  ev("set_upright", { object: "beacon:green", from: "E" }),
  // Blue's S-yellow upright: backs up 1; the yellow beam pulls the blue beacon 1.
  ins("2", "S-yellow", "up", 2), mv("bot:2", [5, 3], [5, 2], "N", "reverse"),
  ev("beam", { player: "2", colour: "yellow", from: [5, 2], dir: "S", hit: "beacon:blue", at: [5, 4] }),
  mv("beacon:blue", [5, 4], [5, 3], "N", "beam"),
  // Green's M-blue N: turns north, moves 1; the blue beam pushes the green beacon (and the yellow one) 2.
  ins("3", "M-blue", "N", 2), ev("reoriented", { object: "bot:3", from: "W", to: "N" }), mv("bot:3", [4, 6], [4, 5], "N"),
  ev("beam", { player: "3", colour: "blue", from: [4, 5], dir: "N", hit: "beacon:green", at: [4, 4] }),
  mv("beacon:yellow", [4, 3], [4, 2], "N", "beam"), mv("beacon:green", [4, 4], [4, 3], "N", "beam"),
  mv("beacon:yellow", [4, 2], [4, 1], "N", "beam"), mv("beacon:green", [4, 3], [4, 2], "N", "beam"),
  // Green's M-red E: turns east, moves 1.
  ins("3", "M-red", "E", 3), ev("reoriented", { object: "bot:3", from: "N", to: "E" }), mv("bot:3", [4, 5], [5, 5], "E"),
  ev("beam", { player: "3", colour: "red", from: [5, 5], dir: "E", hit: null, at: null }),
  // Blue's L-yellow S: moves 1 pushing the blue beacon (RAMs it), then the line is against Green's bot: blocked.
  ins("2", "L-yellow", "S", 3),
  mv("beacon:blue", [5, 3], [5, 4], "S", "push"), mv("bot:2", [5, 2], [5, 3], "S"), ev("rammed", { by: "2", object: "beacon:blue" }),
  ev("blocked", { object: "bot:2", dir: "S" }),
  ev("beam", { player: "2", colour: "yellow", from: [5, 3], dir: "S", hit: "beacon:blue", at: [5, 4] }),
  // Red's L-red N: turns north, moves 2 pushing the red beacon (RAMs it: lying, so not tipped); the red beam
  // slides the red beacon east, towards the centre line, and the yellow beacon with it.
  ins("1", "L-red", "N", 3), ev("reoriented", { object: "bot:1", from: "E", to: "N" }),
  mv("beacon:red", [3, 3], [3, 2], "N", "push"), mv("bot:1", [3, 4], [3, 3], "N"), ev("rammed", { by: "1", object: "beacon:red" }),
  mv("beacon:red", [3, 2], [3, 1], "N", "push"), mv("bot:1", [3, 3], [3, 2], "N"),
  ev("beam", { player: "1", colour: "red", from: [3, 2], dir: "N", hit: "beacon:red", at: [3, 1] }),
  mv("beacon:yellow", [4, 1], [5, 1], "E", "beam"), mv("beacon:red", [3, 1], [4, 1], "E", "beam"),
  // Green's S-red N: turns north (small: no move); the red beam slides the blue beacon west, towards the centre.
  ins("3", "S-red", "N", 4), ev("reoriented", { object: "bot:3", from: "E", to: "N" }),
  ev("beam", { player: "3", colour: "red", from: [5, 5], dir: "N", hit: "beacon:blue", at: [5, 4] }),
  mv("beacon:blue", [5, 4], [4, 4], "W", "beam"),
  // Green's L-green N: moves 1, then RAMs Blue's bot (steals its smallest piece) and pushes it 2; the green
  // beam sets Blue's bot upright.
  ins("3", "L-green", "N", 5), mv("bot:3", [5, 5], [5, 4], "N"),
  mv("bot:2", [5, 3], [5, 2], "N", "push"), mv("bot:3", [5, 4], [5, 3], "N"),
  ev("rammed", { by: "3", object: "bot:2" }), ev("stolen", { from: "2", to: "3", piece: "S-blue" }),
  mv("beacon:yellow", [5, 1], [5, 0], "N", "push"), mv("bot:2", [5, 2], [5, 1], "N", "push"), mv("bot:3", [5, 3], [5, 2], "N"),
  ev("beam", { player: "3", colour: "green", from: [5, 2], dir: "N", hit: "bot:2", at: [5, 1] }),
  ev("set_upright", { object: "bot:2", from: "S" }),
  ev("something_new", { note: "an event type this client does not know" }),
  ev("precedence_rotated", { precedence: ["green", "yellow", "red", "blue"] }),
];
