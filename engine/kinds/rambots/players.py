"""RAMbots computer players. They see only `public_view(state, player_id)`: never another player's goal
order, never another program. Budgets are counted in engine calls (one `resolve_round` or one
`execute_instruction`), never in wall time; the same inputs give the same output.

- easy: the best of a few random legal programs, each tried once with `resolve_round`.
- normal: greedy search, one instruction at a time (every distinct pool piece x 5 directions), stopping
  when no instruction improves the position.
- hard: the same as a beam search keeping the 8 best programs at each length (issue 40: 3 before).

The position is scored for the player alone (the others are assumed to stand still): tags, then how far
the bot is from RAMming an upright object of its top goal's colour (a lying one must first be set upright
by a green beam), then the pieces it owns.
"""

from __future__ import annotations

import random

from .rules import (
    COLOURS,
    DIRS,
    PROGRAM_DIRS,
    STEP,
    UP,
    colour_of,
    execute_instruction,
    goal_recipient,
    public_view,
    resolve_round,
    size_of,
)

BUDGETS = {"easy": 8, "normal": 300, "hard": 2000}
WIDTHS = {"normal": 1, "hard": 8}
STRENGTHS = tuple(BUDGETS)
_VIEW_KEYS = ("goal_maker", "goals_left", "goal_top")


def _seeded(seed: int, player_id: str, salt: str) -> random.Random:
    return random.Random(f"{seed}|{player_id}|{salt}")


def _simulation_state(view: dict) -> dict:
    """The public view made playable: the goals the viewer may not see become empty (nobody else acts in
    the player's simulations, so nobody else can tag)."""
    state = {key: value for key, value in view.items() if key != "goals_revealed"}
    state["players"] = []
    for player in view["players"]:
        copy = {key: value for key, value in player.items() if key not in _VIEW_KEYS}
        copy["goals"] = list(player["goals"] or [])
        state["players"].append(copy)
    return state


def _me(state, player_id):
    return next(p for p in state["players"] if p["id"] == player_id)


def score(state: dict, player_id: str) -> float:
    me = _me(state, player_id)
    if state.get("winner") == player_id:
        return 1e9
    value = 1000.0 * me["tagged"] + 0.5 * len(me["pool"])
    if not me["goals"]:
        return value
    colour = colour_of(me["goals"][0])
    bx, by = me["bot"]["at"]
    facing = me["bot"]["dir"]
    targets = [b for b in state["beacons"] if b["colour"] == colour]
    targets += [p["bot"] for p in state["players"] if p["colour"] == colour and p["id"] != player_id]
    best = None
    for target in targets:
        tx, ty = target["at"]
        for side in DIRS:  # approach moving toward `side`, ending next to the target
            dx, dy = STEP[side]
            ax, ay = tx - dx, ty - dy
            if not (0 <= ax < 8 and 0 <= ay < 8):
                continue
            cost = abs(ax - bx) + abs(ay - by) + (0 if facing == side else 1)
            if target["dir"] != UP:
                # needs a green beam first: best when already lined up, facing it
                lined = (facing == side and ((dx and by == ty and (tx - bx) * dx > 0)
                                             or (dy and bx == tx and (ty - by) * dy > 0)))
                cost += 3 if lined else 6
            if best is None or cost < best:
                best = cost
    if best is not None:
        value -= 10.0 * best
    return value


class _Counter:
    def __init__(self, budget: int) -> None:
        self.left = budget

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        return True


def random_program(state, player_id: str, rng: random.Random) -> list[dict]:
    """A random legal program (0 to 5 pool pieces, random directions)."""
    pool = list(_me(state, player_id)["pool"])
    rng.shuffle(pool)
    length = rng.randint(0, min(5, len(pool)))
    return [{"piece": piece, "dir": rng.choice(PROGRAM_DIRS)} for piece in pool[:length]]


def _easy(sim, player_id, rng, counter) -> list[dict]:
    best, best_score = [], None
    while counter.take():
        program = random_program(sim, player_id, rng)
        after, _ = resolve_round(sim, {player_id: program})
        value = score(after, player_id) + rng.random() * 1e-3
        if best_score is None or value > best_score:
            best, best_score = program, value
    return best


def _search(sim, player_id, rng, counter, width: int) -> list[dict]:
    start = score(sim, player_id)
    beam = [(start, [], sim)]
    best_score, best = start, []
    for _ in range(5):
        grown = []
        for _, program, state in beam:
            used = {}
            for instruction in program:
                used[instruction["piece"]] = used.get(instruction["piece"], 0) + 1
            pool = _me(sim, player_id)["pool"]
            pieces = sorted({p for p in pool if pool.count(p) > used.get(p, 0)}, key=lambda p: (size_of(p), p))
            protected = {player_id: [i["piece"] for i in program]}
            for piece in pieces:
                for d in PROGRAM_DIRS:
                    if not counter.take():
                        break
                    after, _ = execute_instruction(state, player_id, piece, d, protected=protected)
                    value = score(after, player_id) + rng.random() * 1e-3
                    grown.append((value, [*program, {"piece": piece, "dir": d}], after))
        if not grown:
            break
        grown.sort(key=lambda entry: -entry[0])
        beam = grown[:width]
        if beam[0][0] > best_score:
            best_score, best = beam[0][0], beam[0][1]
        elif width == 1:
            break
        if beam[0][2].get("winner") is not None:
            break
    return best


def choose(state: dict, player_id: str, *, strength: str, seed: int, budget: int | None = None) -> list[dict]:
    """A legal program for `player_id` (docs/rambots.md "Computer players")."""
    if strength not in BUDGETS:
        raise ValueError(f"strength must be one of {', '.join(STRENGTHS)}, got {strength!r}")
    view = public_view(state, player_id)
    sim = _simulation_state(view)
    sim["phase"] = "programming"
    counter = _Counter(BUDGETS[strength] if budget is None else budget)
    rng = _seeded(seed, player_id, f"round {state.get('round')}")
    if strength == "easy":
        return _easy(sim, player_id, rng, counter)
    return _search(sim, player_id, rng, counter, WIDTHS[strength])


def choose_goal_stack(state: dict, maker_id: str, *, strength: str, seed: int) -> list[str]:
    """A goal stack for the maker's left neighbour. Easy: random sizes and order. Normal and hard give away
    the medium piece of each colour (or the nearest size left) and put first the colours the neighbour will
    find hardest: its own colour (only the lying beacon can be tagged), then the farthest beacons."""
    if strength not in BUDGETS:
        raise ValueError(f"strength must be one of {', '.join(STRENGTHS)}, got {strength!r}")
    view = public_view(state, maker_id)
    me = _me(view, maker_id)
    rng = _seeded(seed, maker_id, "goals")
    by_colour = {c: sorted(p for p in me["pool"] if colour_of(p) == c) for c in COLOURS}
    if any(not pieces for pieces in by_colour.values()):
        raise ValueError(f"player {maker_id} lacks a colour for a goal stack")
    if strength == "easy":
        stack = [rng.choice(by_colour[c]) for c in COLOURS]
        rng.shuffle(stack)
        return stack
    recipient = _me(view, goal_recipient(view, maker_id))
    rx, ry = recipient["bot"]["at"]

    def difficulty(colour: str) -> float:
        beacon = next((b for b in view["beacons"] if b["colour"] == colour), None)
        cost = 99.0 if beacon is None else abs(beacon["at"][0] - rx) + abs(beacon["at"][1] - ry) + 4
        for player in view["players"]:
            if player["colour"] == colour and player["id"] != recipient["id"]:
                bot = player["bot"]
                cost = min(cost, abs(bot["at"][0] - rx) + abs(bot["at"][1] - ry))
        return cost + rng.random() * 1e-3

    order = sorted(COLOURS, key=lambda c: -difficulty(c))
    stack = []
    for colour in order:
        pieces = by_colour[colour]
        stack.append(min(pieces, key=lambda p: (abs(size_of(p) - 2), size_of(p))))
    return stack


def play(strengths: dict[str, str], *, seed: int, max_rounds: int = 40) -> dict:
    """A whole game between computer players ("random" plays random legal programs and random goal
    stacks): the final state. For the benchmark and the tests."""
    from .rules import new_game, random_goal_stack, set_goal_stacks

    ids = list(strengths)
    state = new_game(ids, seed=seed)
    stacks = {}
    for pid in ids:
        if strengths[pid] == "random":
            stacks[pid] = random_goal_stack(state, pid, seed=seed)
        else:
            stacks[pid] = choose_goal_stack(state, pid, strength=strengths[pid], seed=seed)
    state, _ = set_goal_stacks(state, stacks)
    while state["phase"] == "programming" and state["round"] <= max_rounds:
        programs = {}
        for pid in ids:
            if strengths[pid] == "random":
                programs[pid] = random_program(state, pid, _seeded(seed, pid, f"random {state['round']}"))
            else:
                programs[pid] = choose(state, pid, strength=strengths[pid], seed=seed)
        state, _ = resolve_round(state, programs)
    return state
