"""RAMbots rules (seed 002; every decision the text leaves open is in docs/rambots.md).

Pure: every function returns a new state and never mutates its input. All randomness comes from
`random.Random(seed)`. Bad input to a step raises ValueError; the `*_problem` functions return a message
(or None) so a caller can check first.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping

KIND = "rambots"
FORMAT = "rambots-scenario/1"
COLOURS = ("red", "yellow", "green", "blue")
SIZES = ("S", "M", "L")
DIRS = ("N", "E", "S", "W")
UP = "up"
PROGRAM_DIRS = (*DIRS, UP)
MAX_PROGRAM = 5
MIN_PLAYERS = 2
MAX_PLAYERS = 4
BOARD_SIZE = 8
PIECES = tuple(f"{size}-{colour}" for size in SIZES for colour in COLOURS)
# The four start corners, clockwise from the north-west; which ones fewer players take (002 "Setup").
START_SQUARES = ((1, 1), (6, 1), (6, 6), (1, 6))
SEATS = {1: (0,), 2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
CENTRE_SQUARES = ((3, 3), (4, 3), (4, 4), (3, 4))
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
DEFAULT_OPTIONS = {"speedbots": False}
PROGRAM_KEYS = frozenset({"piece", "dir"})


# --- pieces ---------------------------------------------------------------------------------------------

def is_piece(value) -> bool:
    return isinstance(value, str) and value in PIECES


def size_of(piece: str) -> int:
    """1, 2 or 3 squares for S, M, L."""
    return SIZES.index(piece[0]) + 1


def colour_of(piece: str) -> str:
    return piece[2:]


def piece_key(piece: str) -> tuple[int, int]:
    return SIZES.index(piece[0]), COLOURS.index(colour_of(piece))


def sort_pieces(pieces) -> list[str]:
    """A pool's order: small to large, then red, yellow, green, blue."""
    return sorted(pieces, key=piece_key)


def on_board(square) -> bool:
    return 0 <= square[0] < BOARD_SIZE and 0 <= square[1] < BOARD_SIZE


def _player(state, player_id):
    for player in state.get("players", ()):
        if player["id"] == player_id:
            return player
    return None


def _ids(state) -> list[str]:
    return [player["id"] for player in state["players"]]


# --- set-up ---------------------------------------------------------------------------------------------

def options_problem(options) -> str | None:
    if options is None:
        return None
    if not isinstance(options, Mapping):
        return f"options must be an object, got {options!r}"
    for key, value in options.items():
        if key not in DEFAULT_OPTIONS:
            return f"options: unknown option {key!r} (known: {', '.join(DEFAULT_OPTIONS)})"
        if not isinstance(value, bool):
            return f"options.{key}: must be true or false, got {value!r}"
    return None


def new_game(player_ids: list[str], *, seed: int, options: dict | None = None) -> dict:
    """A game in phase "goals": bots upright in the corners, beacons lying on the four centre squares in a
    random colour order, every pool one tree of each colour, the precedence stack the bots' clockwise
    colour order from a random colour (002 "Setup")."""
    if not isinstance(player_ids, list) or not MIN_PLAYERS <= len(player_ids) <= MAX_PLAYERS:
        raise ValueError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {player_ids!r}")
    if any(not isinstance(pid, str) or not pid for pid in player_ids) or len(set(player_ids)) != len(player_ids):
        raise ValueError(f"player ids must be distinct non-empty strings, got {player_ids!r}")
    problem = options_problem(options)
    if problem:
        raise ValueError(problem)
    rng = random.Random(seed)
    corner_colours = list(COLOURS)
    rng.shuffle(corner_colours)
    first = rng.randrange(len(COLOURS))
    precedence = [corner_colours[(first + i) % len(COLOURS)] for i in range(len(COLOURS))]
    beacon_colours = list(COLOURS)
    rng.shuffle(beacon_colours)
    beacons = [
        {"colour": colour, "at": list(square), "dir": rng.choice(DIRS)}
        for colour, square in zip(beacon_colours, CENTRE_SQUARES, strict=True)
    ]
    players = [
        {
            "id": pid,
            "colour": corner_colours[corner],
            "bot": {"at": list(START_SQUARES[corner]), "dir": UP},
            "pool": list(PIECES),
            "goals": [],
            "tagged": 0,
            "out": False,
            "goals_built": False,
        }
        for pid, corner in zip(player_ids, SEATS[len(player_ids)], strict=True)
    ]
    return {
        "kind": KIND,
        "phase": "goals",
        "round": 0,
        "players": players,
        "beacons": beacons,
        "precedence": precedence,
        "options": {**DEFAULT_OPTIONS, **(options or {})},
        "winner": None,
    }


# --- goal stacks ----------------------------------------------------------------------------------------

def goal_recipient(state, maker_id: str) -> str:
    """The maker's left neighbour: the next player clockwise (002 "Setup")."""
    ids = _ids(state)
    return ids[(ids.index(maker_id) + 1) % len(ids)]


def goal_maker(state, owner_id: str) -> str:
    """Who builds `owner_id`'s goal stack: the previous player clockwise."""
    ids = _ids(state)
    return ids[(ids.index(owner_id) - 1) % len(ids)]


def goal_stack_problem(state, maker_id, pieces) -> str | None:
    if state.get("phase") != "goals":
        return "goal stacks can only be built before the first round"
    maker = _player(state, maker_id)
    if maker is None:
        return f"{maker_id!r} is not a player of this game"
    if maker["goals_built"]:
        return f"player {maker_id} has already built a goal stack"
    if not isinstance(pieces, list):
        return f"a goal stack is a list of 4 pieces, got {pieces!r}"
    if len(pieces) != len(COLOURS):
        return f"a goal stack is exactly 4 pieces, one of each colour; got {len(pieces)}"
    for piece in pieces:
        if not is_piece(piece):
            return f"{piece!r} is not a piece (like 'S-red', 'M-blue', 'L-green')"
    if sorted(colour_of(p) for p in pieces) != sorted(COLOURS):
        return "a goal stack needs one piece of each colour (red, yellow, green, blue)"
    for piece in pieces:
        if piece not in maker["pool"]:
            return f"{piece} is not in player {maker_id}'s code pool"
    return None


def _default_stack(maker) -> list[str]:
    """An ejected maker's stack: the smallest piece of each colour, red, yellow, green, blue from the top."""
    stack = []
    for colour in COLOURS:
        pieces = [p for p in sort_pieces(maker["pool"]) if colour_of(p) == colour]
        if pieces:
            stack.append(pieces[0])
    return stack


def _build(state, maker, stack) -> None:
    pool = list(maker["pool"])
    for piece in stack:
        pool.remove(piece)
    maker["pool"] = sort_pieces(pool)
    maker["goals_built"] = True
    _player(state, goal_recipient(state, maker["id"]))["goals"] = list(stack)


def _maybe_reveal(state, events) -> None:
    """Once every player still in has built, ejected makers get a default stack and play begins."""
    if state["phase"] != "goals" or not all(p["goals_built"] or p["out"] for p in state["players"]):
        return
    for maker in state["players"]:
        if not maker["goals_built"]:
            _build(state, maker, _default_stack(maker))
    state["phase"] = "programming"
    state["round"] = 1
    events.append({
        "type": "goal_stacks_revealed",
        "tops": {p["id"]: (p["goals"][0] if p["goals"] else None) for p in state["players"]},
    })


def set_goal_stacks(state, stacks) -> tuple[dict, list]:
    """Record the stacks (maker id -> pieces from the top). When every player still in has built, the
    stacks are revealed: phase "programming", round 1."""
    if not isinstance(stacks, Mapping):
        raise ValueError(f"stacks must be an object of maker id -> 4 pieces, got {stacks!r}")
    new = copy.deepcopy(state)
    for maker_id, pieces in stacks.items():
        problem = goal_stack_problem(new, maker_id, pieces)
        if problem:
            raise ValueError(problem)
        _build(new, _player(new, maker_id), pieces)
    events: list = []
    _maybe_reveal(new, events)
    return new, events


def random_goal_stack(state, maker_id: str, *, seed: int) -> list[str]:
    maker = _player(state, maker_id)
    if maker is None:
        raise ValueError(f"{maker_id!r} is not a player of this game")
    rng = random.Random(seed)
    stack = []
    for colour in COLOURS:
        pieces = [p for p in sort_pieces(maker["pool"]) if colour_of(p) == colour]
        if not pieces:
            raise ValueError(f"player {maker_id} has no {colour} piece")
        stack.append(rng.choice(pieces))
    rng.shuffle(stack)
    return stack


# --- programs -------------------------------------------------------------------------------------------

def program_problem(state, player_id, program) -> str | None:
    if state.get("phase") != "programming":
        return "programs are only accepted while the game is being played"
    player = _player(state, player_id)
    if player is None:
        return f"{player_id!r} is not a player of this game"
    if player["out"]:
        return f"player {player_id} is out of the game"
    if not isinstance(program, list):
        return f"a program is a list of at most {MAX_PROGRAM} instructions, got {program!r}"
    if len(program) > MAX_PROGRAM:
        return f"a program has at most {MAX_PROGRAM} instructions, got {len(program)}"
    for index, instruction in enumerate(program):
        if not isinstance(instruction, Mapping):
            return f"instruction {index + 1}: must be an object {{\"piece\": ..., \"dir\": ...}}, got {instruction!r}"
        unknown = sorted(str(key) for key in instruction if key not in PROGRAM_KEYS)
        if unknown:
            return f"instruction {index + 1}: unknown field {unknown[0]!r} (only 'piece' and 'dir')"
        if not is_piece(instruction.get("piece")):
            return f"instruction {index + 1}: {instruction.get('piece')!r} is not a piece (like 'S-red', 'M-blue')"
        if instruction.get("dir") not in PROGRAM_DIRS:
            return f"instruction {index + 1}: 'dir' must be one of N, E, S, W, up; got {instruction.get('dir')!r}"
    wanted = Counter(instruction["piece"] for instruction in program)
    have = Counter(player["pool"])
    for piece, count in wanted.items():
        if have[piece] < count:
            return (f"{piece} is used {count} times but player {player_id}'s code pool holds {have[piece]}"
                    if have[piece] else f"{piece} is not in player {player_id}'s code pool")
    return None


# --- the execution phase --------------------------------------------------------------------------------

class _Table:
    """A working copy of the board: objects by key ("bot:<id>", "beacon:<colour>") and by square."""

    def __init__(self, state: dict) -> None:
        self.state = state
        self.events: list[dict] = []
        self.players = {p["id"]: p for p in state["players"]}
        self.objects = {f"bot:{p['id']}": p["bot"] for p in state["players"]}
        self.objects.update({f"beacon:{b['colour']}": b for b in state["beacons"]})
        self.square = {tuple(obj["at"]): key for key, obj in self.objects.items()}
        self.queues: dict[str, list[str]] = {}  # each player's unexecuted pieces, register first

    def colour(self, key: str) -> str:
        kind, name = key.split(":", 1)
        return self.players[name]["colour"] if kind == "bot" else name

    def over(self) -> bool:
        return self.state["winner"] is not None

    def step(self, key: str, d: str, cause: str, ram_by: str | None = None, rammed: set | None = None) -> bool:
        """`key` tries to move one square toward `d`, pushing the chain ahead; False if it could not."""
        dx, dy = STEP[d]
        x, y = self.objects[key]["at"]
        chain = []
        square = (x + dx, y + dy)
        while on_board(square) and square in self.square:
            chain.append(self.square[square])
            square = (square[0] + dx, square[1] + dy)
        if chain and ram_by is not None and chain[0] not in rammed:
            rammed.add(chain[0])
            self.ram(ram_by, chain[0], d)
            if self.over():
                return False
        if not on_board(square):
            self.events.append({"type": "blocked", "object": key, "dir": d})
            return False
        movers = [key, *chain]
        for mover in movers:
            del self.square[tuple(self.objects[mover]["at"])]
        for index, mover in enumerate(movers):
            obj = self.objects[mover]
            old = list(obj["at"])
            obj["at"] = [old[0] + dx, old[1] + dy]
            self.square[tuple(obj["at"])] = mover
            self.events.append({
                "type": "moved", "object": mover, "from": old, "to": list(obj["at"]), "dir": d,
                "cause": cause if index == 0 else "push",
            })
        return True

    def ram(self, by: str, key: str, d: str) -> None:
        self.events.append({"type": "rammed", "by": by, "object": key})
        kind, name = key.split(":", 1)
        if kind == "bot" and name != by and not self.players[name]["out"]:
            self.steal(name, by)
        obj = self.objects[key]
        if obj["dir"] != UP:
            return
        obj["dir"] = d
        self.events.append({"type": "tipped", "object": key, "from": UP, "to": d})
        rammer = self.players[by]
        if rammer["goals"] and colour_of(rammer["goals"][0]) == self.colour(key):
            piece = rammer["goals"].pop(0)
            rammer["pool"] = sort_pieces([*rammer["pool"], piece])
            rammer["tagged"] += 1
            # `next_top`: the goal now on top, public from here on (002 "Setup": only the top piece matters).
            self.events.append({"type": "tagged", "player": by, "piece": piece, "object": key,
                                "next_top": rammer["goals"][0] if rammer["goals"] else None})
            if not rammer["goals"]:
                self.state["winner"] = by
                self.state["phase"] = "over"
                self.events.append({"type": "won", "player": by})

    def steal(self, victim_id: str, thief_id: str) -> None:
        victim = self.players[victim_id]
        free = Counter(victim["pool"]) - Counter(self.queues.get(victim_id, ()))
        if not free:
            return
        precedence = self.state["precedence"]
        piece = min(free, key=lambda p: (size_of(p), precedence.index(colour_of(p))))
        pool = list(victim["pool"])
        pool.remove(piece)
        victim["pool"] = pool
        thief = self.players[thief_id]
        thief["pool"] = sort_pieces([*thief["pool"], piece])
        self.events.append({"type": "stolen", "from": victim_id, "to": thief_id, "piece": piece})

    def execute(self, player_id: str, piece: str, d: str, step: int) -> None:
        self.events.append({"type": "instruction", "player": player_id, "piece": piece, "dir": d, "step": step})
        key = f"bot:{player_id}"
        bot = self.objects[key]
        units = size_of(piece)
        if d == UP:
            if bot["dir"] != UP:
                back = OPPOSITE[bot["dir"]]
                for _ in range(units):
                    if not self.step(key, back, "reverse"):
                        break
        else:
            if bot["dir"] != d:
                self.events.append({"type": "reoriented", "object": key, "from": bot["dir"], "to": d})
                bot["dir"] = d
                units -= 1
            rammed: set[str] = set()
            for _ in range(units):
                if not self.step(key, d, "move", ram_by=player_id, rammed=rammed):
                    break
        if not self.over():
            self.beam(player_id, colour_of(piece), size_of(piece))

    def beam(self, player_id: str, colour: str, units: int) -> None:
        bot = self.objects[f"bot:{player_id}"]
        origin = tuple(bot["at"])
        d = bot["dir"]
        event = {"type": "beam", "player": player_id, "colour": colour, "from": list(origin), "dir": d,
                 "hit": None, "at": None}
        self.events.append(event)
        if d == UP:
            return
        dx, dy = STEP[d]
        square = (origin[0] + dx, origin[1] + dy)
        while on_board(square) and square not in self.square:
            square = (square[0] + dx, square[1] + dy)
        if not on_board(square):
            return
        target = self.square[square]
        event["hit"], event["at"] = target, list(square)
        if colour == "blue":
            for _ in range(units):
                if not self.step(target, d, "beam"):
                    break
        elif colour == "yellow":
            gap = abs(square[0] - origin[0]) + abs(square[1] - origin[1]) - 1
            for _ in range(min(units, gap)):
                self.step(target, OPPOSITE[d], "beam")
        elif colour == "red":
            side = _toward_centre_line(square, d)
            for _ in range(units):
                if not self.step(target, side, "beam"):
                    break
        else:  # green
            obj = self.objects[target]
            if obj["dir"] != UP:
                self.events.append({"type": "set_upright", "object": target, "from": obj["dir"]})
                obj["dir"] = UP


def _toward_centre_line(square, beam_dir: str) -> str:
    """Sideways to a beam, toward the board's centre line parallel to it (between rows/columns 3 and 4)."""
    if beam_dir in ("N", "S"):
        return "E" if square[0] < BOARD_SIZE // 2 else "W"
    return "S" if square[1] < BOARD_SIZE // 2 else "N"


def execution_key(state, player_id: str, piece: str) -> tuple[int, int, int]:
    """Smaller first; then the piece's colour higher on the precedence stack; then the owner's bot colour."""
    precedence = state["precedence"]
    owner = _player(state, player_id)
    return size_of(piece), precedence.index(colour_of(piece)), precedence.index(owner["colour"])


def _check_programs(state, programs) -> dict[str, list]:
    if state.get("phase") != "programming":
        raise ValueError("a round can only be resolved in the programming phase")
    if not isinstance(programs, Mapping):
        raise ValueError(f"programs must be an object of player id -> program, got {programs!r}")
    for player_id, program in programs.items():
        player = _player(state, player_id)
        if player is None:
            raise ValueError(f"programs: {player_id!r} is not a player of this game")
        if player["out"]:
            continue
        problem = program_problem(state, player_id, program)
        if problem:
            raise ValueError(f"programs.{player_id}: {problem}")
    return {
        p["id"]: [(i["piece"], i["dir"]) for i in programs.get(p["id"]) or ()]
        for p in state["players"] if not p["out"]
    }


def resolve_round(state, programs) -> tuple[dict, list]:
    """Run every program, instruction by instruction (002 "The Execution Phase"); a missing player plays an
    empty program, an out player's program is ignored. Then the precedence stack's top goes to the bottom.
    The round stops at once when someone tags their last goal."""
    queues = _check_programs(state, programs)
    new = copy.deepcopy(state)
    table = _Table(new)
    table.queues = {pid: [piece for piece, _ in queue] for pid, queue in queues.items()}
    step = 0
    while not table.over():
        waiting = [(execution_key(new, pid, queue[0][0]), pid) for pid, queue in queues.items() if queue]
        if not waiting:
            break
        _, pid = min(waiting)
        piece, d = queues[pid][0]
        step += 1
        table.execute(pid, piece, d, step)
        queues[pid].pop(0)
        table.queues[pid].pop(0)
    if not table.over():
        new["precedence"] = [*new["precedence"][1:], new["precedence"][0]]
        new["round"] = new.get("round", 0) + 1
        table.events.append({"type": "precedence_rotated", "precedence": list(new["precedence"])})
    return new, table.events


def execute_instruction(state, player_id: str, piece: str, d: str, *, protected=()) -> tuple[dict, list]:
    """One instruction alone, on a copy (what the computer players try out): no precedence rotation.
    `protected` lists pieces of other players' running programs, keyed by player id."""
    new = copy.deepcopy(state)
    table = _Table(new)
    table.queues = {pid: list(pieces) for pid, pieces in dict(protected).items()}
    table.execute(player_id, piece, d, 1)
    return new, table.events


# --- ejection, views ------------------------------------------------------------------------------------

def remove_players(state, player_ids) -> tuple[dict, list]:
    """Eject players: `out` becomes true. Their bot stays on the board as an inert object (it can be pushed,
    pulled, tipped, set upright and RAMmed, and tags its colour, but yields no pieces); their pool and goal
    stack stay in the state. When one player is left in, that player wins."""
    new = copy.deepcopy(state)
    events: list = []
    for player_id in player_ids:
        player = _player(new, player_id)
        if player is None:
            raise ValueError(f"{player_id!r} is not a player of this game")
        if player["out"]:
            continue
        player["out"] = True
        events.append({"type": "removed", "player": player_id})
    if new["phase"] == "over":
        return new, events
    left = [p for p in new["players"] if not p["out"]]
    if len(left) <= 1:
        new["phase"] = "over"
        if left:
            new["winner"] = left[0]["id"]
            events.append({"type": "won", "player": left[0]["id"]})
        return new, events
    _maybe_reveal(new, events)
    return new, events


def all_goals_built(state) -> bool:
    return all(p["goals_built"] for p in state["players"])


def public_view(state, viewer: str | None) -> dict:
    """The state as `viewer` (a player id, or None for a spectator) may see it: a goal stack's order is
    shown to its maker always and to its owner once every stack is built; to anyone else `goals` is null."""
    view = copy.deepcopy(state)
    revealed = all_goals_built(state)
    view["goals_revealed"] = revealed
    for player in view["players"]:
        maker = goal_maker(state, player["id"])
        goals = player["goals"]
        player["goal_maker"] = maker
        player["goals_left"] = len(goals)
        player["goal_top"] = goals[0] if revealed and goals else None
        if not (viewer is not None and (viewer == maker or (viewer == player["id"] and revealed))):
            player["goals"] = None
    return view


def winner(state) -> str | None:
    return state.get("winner")
