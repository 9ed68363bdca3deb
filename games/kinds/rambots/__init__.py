"""RAMbots (seed 002) as a game kind: its answers to the shared loop's questions (games.services.turns; games.kinds
"The interface"), which plays it with the same lobby, clocks, timeout policies, events, chat and computer players
as every kind (docs/game-kinds.md). The rules are `engine.kinds.rambots`.

Turn 0 is the goal-stack step ("Setup": each player builds the goal stack of the player on their left, with a
clock of its own); rounds are turns 1, 2, ... A seat's Program of a turn is its goal stack (turn 0) or its
compiled program; a Draft is its arrangement as it lies, private, which Speedbots runs when the round ends
without it. A seat's Hand of a turn is its code pool as it stood when programming began: public (002 "Code Pool
Disclosure"), kept per turn so that the clocks, the lost-move sweep and take-back work as for RoboRacer.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass

import engine
from engine.kinds import rambots as rules
from engine.kinds.rambots import players as rambots_players
from games.kinds.rambots.forms import CreateRAMbotsGameForm
from games.kinds.rambots.serializers import CreateRAMbotsGameSerializer
from games.models import Draft, Game, Program, Seat
from games.services import organisers
from games.services.lobby import Settings
from games.services.moves import Move
from games.services.turns import Begin, Resolved
from roboracer.common.errors import Conflict, InvalidInput

logger = logging.getLogger(__name__)
GOAL_STEP = 0  # the turn number of the goal-stack step
TITLE = "RAMbots"
# Speedbots: a computer compiles after this share of the move clock, drawn uniformly (docs/game-kinds.md
# "Computers in Speedbots"): with the 2-minute clock, 30 to 72 s, where people who know the game compile.
SPEEDBOTS_THINK = (0.25, 0.6)
# A seat's colour once the game starts: its RAMbot's (the board's pieces), so that rings, badges and the seat
# list never show a player in one colour and their bot in another. The browser's pieces use the same values.
SEAT_COLOURS = {"red": "#dc2626", "yellow": "#eab308", "green": "#16a34a", "blue": "#2563eb"}


@dataclass(frozen=True)
class Outcome:
    """What `game_finished` receivers read of a finished game (a RoboRacer engine State has the same two)."""

    winner: str | None
    places: dict


def _state(game: Game) -> dict:
    return game.state or {}


def _player(state: dict, bot_id: str) -> dict | None:
    return next((p for p in state.get("players", []) if p["id"] == bot_id), None)


def _in_game(state: dict, seat: Seat) -> bool:
    player = _player(state, seat.bot_id)
    return seat.ejected_at is None and player is not None and not player.get("out")


def places(state: dict) -> dict[str, int]:
    """Places once the game is over: the winner first, then the others by goals tagged (ties share a place),
    players who were removed after those still in (docs/game-kinds.md "Places")."""
    winner = state.get("winner")

    def key(player):
        return (player["id"] != winner, bool(player.get("out")), -int(player.get("tagged", 0)))

    ordered = sorted(state.get("players", []), key=key)
    out, previous, place = {}, None, 0
    for index, player in enumerate(ordered, start=1):
        if key(player) != previous:
            place, previous = index, key(player)
        out[player["id"]] = place
    return out


# -- checking a move ----------------------------------------------------------------------------------------

MOVE_KEYS = {"turn", "goals", "program", "compiled"}


def parse_move(data) -> dict:
    """The body of POST /api/games/<id>/move/, its shape checked (the rules check the pieces): {"turn": 0,
    "goals": [...]} or {"turn": n, "program": [...], "compiled": true|false}."""
    if not isinstance(data, dict):
        raise InvalidInput("a move is a JSON object")
    unknown = sorted(str(key)[:20] for key in data if key not in MOVE_KEYS)
    if unknown:
        raise InvalidInput(f"unknown field {unknown[0]!r}; a move has turn, and goals or program (and compiled)")
    turn = data.get("turn")
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < 2**31:
        raise InvalidInput("turn: the number of the current turn (0 for the goal stacks)")
    compiled = data.get("compiled", True)
    if not isinstance(compiled, bool):
        raise InvalidInput("compiled: true or false")
    if turn == GOAL_STEP:
        goals = data.get("goals")
        if "program" in data or not isinstance(goals, list) or len(goals) > len(rules.COLOURS):
            raise InvalidInput(f"goals: a list of {len(rules.COLOURS)} pieces, top first, one of each colour")
        if not all(isinstance(piece, str) and len(piece) <= 12 for piece in goals):
            raise InvalidInput('goals: each piece is written like "S-red"')
        return {"turn": turn, "goals": list(goals)}
    program = data.get("program")
    if "goals" in data or not isinstance(program, list) or len(program) > rules.MAX_PROGRAM:
        raise InvalidInput(f"program: a list of at most {rules.MAX_PROGRAM} instructions")
    for instruction in program:
        if (not isinstance(instruction, dict) or set(instruction) != {"piece", "dir"}
                or not all(isinstance(instruction[k], str) and len(instruction[k]) <= 12 for k in ("piece", "dir"))):
            raise InvalidInput('program: each instruction is {"piece": "S-red", "dir": "N"} (dir N, E, S, W or up)')
    return {"turn": turn, "program": [dict(i) for i in program], "compiled": compiled}


def _random_program(state: dict, bot_id: str, seed: int) -> list:
    """Timeout policy "random": a random legal program of 1 to 5 pieces from the seat's pool."""
    rng = random.Random(seed)
    pool = list((_player(state, bot_id) or {}).get("pool", []))
    rng.shuffle(pool)
    length = rng.randint(1, min(rules.MAX_PROGRAM, len(pool))) if pool else 0
    return [{"piece": piece, "dir": rng.choice(("N", "E", "S", "W", "up"))} for piece in pool[:length]]


class RAMbots:
    name = "rambots"
    title = TITLE
    turn_noun = "round"  # 002 plays rounds: "Your move in game 12 (RAMbots), round 3"
    takes_chips = False  # moves go to /move/
    move_noun = "moves"
    # Rated in a pool of its own, the RAMbots rating (docs/ratings.md "One rating per kind"): a game its creator
    # left rated, with no computer players, that two seats moved in (games.selectors.rated.is_rated).
    rated = True
    # The lobby's "Create a game": its form (games.views.lobby.create_of_kind) and the choice's hint.
    lobby_form = CreateRAMbotsGameForm
    lobby_hint = "2–4 players on a chessboard"
    resubmit_after_eject = False  # the others keep their moves
    forfeit_words = "every other RAMbot is out."
    animation_timing = None  # its screen's turn does not hold the clocks (animation_seconds)

    # -- the lobby ------------------------------------------------------------------------------------------
    def board_name(self, game) -> str:
        return TITLE

    def min_players(self, game) -> int:
        return rules.MIN_PLAYERS

    def summary(self, game) -> dict:
        return {"kind": self.name, "course": None, "course_id": None, "course_name": TITLE}

    def computers_play(self, game) -> bool:
        return True

    def create_serializer(self, data):
        return CreateRAMbotsGameSerializer(data=data)

    def settings(self, *, user, use: str, computers: int, max_seats: int = rules.MAX_PLAYERS,
                 options: dict | None = None, rated: bool = True, **_ignored) -> Settings:
        """A RAMbots game's own settings, checked: 2 to 4 players, Speedbots or not, and rated or not (the
        creator's wish; games.selectors.rated.is_rated decides, and a computer player makes it unrated)."""
        if isinstance(max_seats, bool) or not isinstance(max_seats, int) or not (
                rules.MIN_PLAYERS <= max_seats <= rules.MAX_PLAYERS):
            raise InvalidInput(f"{TITLE} takes {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} players, not {max_seats}")
        options = dict(options or {})
        unknown = sorted(str(key)[:20] for key in options if key != "speedbots")
        if unknown:
            raise InvalidInput(f"options: {unknown[0]!r} is not a {TITLE} option (its one option is speedbots)")
        if not isinstance(options.get("speedbots", False), bool):
            raise InvalidInput("options: speedbots is true or false")
        fields = {"course": None, "course_data": {}, "max_seats": max_seats, "seed": secrets.randbits(62),
                  "rated": bool(rated), "options": {"speedbots": bool(options.get("speedbots", False))}}
        return Settings(fields=fields, use=use)

    def again(self, game) -> dict:
        return {"max_seats": game.max_seats, "options": dict(game.options), "rated": game.rated}

    # -- games the site seats itself (tournaments) ---------------------------------------------------------
    uses_courses = False
    max_table = rules.MAX_PLAYERS

    def seated_game(self, *, creator, users: list, computers: list, courses: list, rng, options: dict):
        """A tournament table's game (courses, lives and modules are RoboRacer's and play no part)."""
        timers = {key: options[key] for key in ("timer_preset", "move_time", "game_time", "timeout_policy")
                  if key in options}
        return organisers.create_seated_game(creator=creator, users=users, computers=computers, kind=self.name,
                                             **timers)

    def outcome(self, state) -> Outcome:
        return Outcome(winner=rules.winner(state), places=places(state))

    # -- the loop's questions (games.services.turns) ---------------------------------------------------------
    def load(self, game) -> dict:
        return game.state or {}

    def dump(self, state) -> dict:
        return state

    def begin(self, game, seats) -> Begin:
        """The bots on the board, the pools dealt, turn 0: the goal-stack step. Each seat takes its RAMbot's
        colour."""
        state = rules.new_game([seat.bot_id for seat in seats], seed=engine.derive_seed(game.seed, 0, "setup"),
                               options=dict(game.options or {}))
        colours = {player["id"]: SEAT_COLOURS[player["colour"]] for player in state["players"]}
        for seat in seats:
            seat.color = colours[seat.bot_id]
        return Begin(state=state, turn=GOAL_STEP, event={"kind": self.name}, seat_fields=("color",))

    def deal(self, game, state) -> dict:
        """Each player still in gets their pool as it stands (public: 002 "Code Pool Disclosure")."""
        return {p["id"]: list(p["pool"]) for p in state["players"] if not p.get("out")}

    def required_move(self, state, bot_id: str):
        return None

    def in_game(self, state, seat) -> bool:
        return _in_game(state, seat)

    def parse_move(self, game, data) -> tuple[int, Move]:
        """The body of /move/: its turn, and the move it holds (echoed to the sender as it was read)."""
        move = parse_move(data)
        if move["turn"] == GOAL_STEP:
            return move["turn"], Move(chips=move["goals"], echo=move)
        return move["turn"], Move(chips=move["program"], ready=move["compiled"], echo=move)

    def check_move(self, game, state, seat, move: Move, hand) -> Move:
        if not _in_game(state, seat):
            raise Conflict("your bot is out of this game")
        if game.turn == GOAL_STEP:
            problem = rules.goal_stack_problem(state, seat.bot_id, move.chips)
        else:
            problem = rules.program_problem(state, seat.bot_id, move.chips)
        if problem:
            raise InvalidInput(problem)
        # A round's arrangement is kept as it lies (private), for Speedbots.
        return Move(chips=move.chips, ready=move.ready, draft=move.chips if game.turn != GOAL_STEP else None)

    def complete(self, game, state, live, missing) -> list:
        """Speedbots (002 "Speedbots"): a round also ends when all but one have compiled, and the last one's
        arrangement runs as it lies."""
        speedbots = bool((game.options or {}).get("speedbots")) and game.turn != GOAL_STEP
        if not (speedbots and len(missing) == 1 and len(live) > 1):
            return []
        last = missing[0]
        draft = Draft.objects.filter(seat=last, turn=game.turn).values_list("program", flat=True).first()
        strength = last.computer or ("normal" if last.autopilot else "")
        if draft is None and strength:
            # A computer lays its pieces out at once and only holds back Compile (its think time): its
            # arrangement as it lies is the program it would compile. Else a person who compiled quickly ended
            # every round before it and it never moved (the new-user trial, issue 37 item 3).
            return [(last, Move(chips=list(self.think(game, state, last, None, strength=strength).chips)),
                     {"as_it_lies": True})]
        return [(last, Move(chips=list(draft or [])), {"as_it_lies": True})]

    def resolve(self, game, state, turn: int, programs: list) -> Resolved:
        """The goal step or a round."""
        moves = {program.seat.bot_id: program.chips for program in programs}
        if turn == GOAL_STEP:
            # A maker who left before building theirs leaves a stack built at random for their neighbour.
            for player in state["players"]:
                if player["id"] not in moves:
                    moves[player["id"]] = rules.random_goal_stack(
                        state, player["id"], seed=engine.derive_seed(game.seed, turn, f"goals-{player['id']}"))
            new_state, events = rules.set_goal_stacks(state, moves)
            shown = {}  # the goal stacks stay hidden: only their tops are revealed (in the events)
        else:
            new_state, events = rules.resolve_round(state, moves)
            shown = moves  # programs are revealed once they have run
        return Resolved(state=new_state, events=events, record={"seed": 0, "programs": moves},
                        public={"programs": shown})

    def after_resolution(self, game, turn: int, events: list) -> None:
        return None

    def finished(self, state) -> bool:
        return rules.winner(state) is not None or state.get("phase") == "over"

    def computer_think_seconds(self, game, seat) -> float:
        """Speedbots ends a round when all but one have compiled, and a computer is a player (002 "Speedbots"):
        one that compiled at once would end every round before a person could. So in Speedbots a computer
        compiles after a think time drawn, per game, round and seat, from SPEEDBOTS_THINK's share of the move
        clock (docs/game-kinds.md "Computers in Speedbots"); otherwise at once."""
        if not (game.options or {}).get("speedbots") or game.turn == GOAL_STEP:
            return 0.0
        low, high = SPEEDBOTS_THINK
        draw = random.Random(engine.derive_seed(game.seed, game.turn, f"speedbots-think-{seat.number}")).random()
        return round(game.move_time * (low + (high - low) * draw), 1)

    def animation_seconds(self, events: list) -> float:
        """Its screen's animation of a turn does not hold the next turn's clocks (docs/game-kinds.md)."""
        return 0.0

    def remove(self, state, bot_ids: list) -> tuple:
        """Removed players are out (engine `remove_players`); the others keep their moves. The last one in
        wins."""
        return rules.remove_players(state, bot_ids)

    def random_move(self, game, state, seat, hand, *, seed: int) -> Move:
        """Timeout policy "random": a random goal stack, or a random legal program."""
        if game.turn == GOAL_STEP:
            return Move(chips=rules.random_goal_stack(state, seat.bot_id, seed=seed))
        return Move(chips=_random_program(state, seat.bot_id, seed))

    def think(self, game, state, seat, hand, *, strength: str) -> Move:
        """A computer player's move: the engine's players read `public_view` only."""
        seed = engine.derive_seed(game.seed, game.turn, f"computer-{seat.bot_id}")
        if game.turn == GOAL_STEP:
            return Move(chips=rambots_players.choose_goal_stack(state, seat.bot_id, strength=strength, seed=seed))
        return Move(chips=rambots_players.choose(state, seat.bot_id, strength=strength, seed=seed))

    # -- what viewers see ---------------------------------------------------------------------------------------
    def private_context(self, *, game, state: dict, seat_ids: list[int], hands: dict | None = None) -> dict:
        drafts = {d.seat_id: d.program for d in Draft.objects.filter(seat_id__in=seat_ids, turn=game.turn)}
        stacks = {}
        if game.turn == GOAL_STEP and seat_ids:
            stacks = {p.seat_id: p.chips for p in Program.objects.filter(seat_id__in=seat_ids, turn=GOAL_STEP)}
        return {"drafts": drafts, "stacks": stacks}

    def public_fields(self, *, game, state: dict, seats: list) -> dict:
        view = rules.public_view(state, None) if state else None
        winner = (view or {}).get("winner")
        fields = {"options": dict(game.options or {}), "rambots": view, "winner": winner, "places": None,
                  "standings": None, "standings_summary": None}
        if game.status == Game.Status.FINISHED and state:
            fields["places"] = places(state)
            fields["standings"], fields["standings_summary"] = self._standings(state, seats, fields["places"])
        return fields

    def _standings(self, state: dict, seats: list, placed: dict) -> tuple[list, str]:
        by_bot = {seat.bot_id: seat for seat in seats}
        rows = []
        for player in sorted(state["players"], key=lambda p: placed.get(p["id"], 99)):
            seat = by_bot.get(player["id"])
            tagged = int(player.get("tagged", 0))
            detail = ("tagged all four goals" if player["id"] == state.get("winner")
                      else f"{tagged} goal{'s' if tagged != 1 else ''} tagged" + (", out" if player.get("out") else ""))
            rows.append({"place": placed.get(player["id"]), "bot": player["id"], "seat": seat.number if seat else None,
                         "user": seat.user.get_username() if seat else None, "team": None, "detail": detail})
        winner = by_bot.get(state.get("winner"))
        return rows, f"{winner.user.get_username()} wins" if winner else "No winner"

    def viewer_fields(self, *, game, state: dict, seat) -> dict:
        """What differs per viewer at the top of the snapshot: the goal stacks its owner and its maker see."""
        if seat is None or not state:
            return {}
        return {"rambots": rules.public_view(state, seat.bot_id)}

    def private_fields(self, *, game, state: dict, seat, program, context: dict) -> dict:
        if not state:
            return {"rambots": None}
        goals_for = rules.goal_recipient(state, seat.bot_id) if _player(state, seat.bot_id) else None
        made = context["stacks"].get(seat.pk)
        if made is None and goals_for is not None:
            made = (_player(rules.public_view(state, seat.bot_id), goals_for) or {}).get("goals") or None
        return {"rambots": {
            "goals_for": goals_for,
            "goals_made": made,
            "program": program.chips if program is not None and game.turn != GOAL_STEP else None,
            "compiled": program is not None,
            "draft": context["drafts"].get(seat.pk),
        }}

    def public_turn(self, *, game, turn) -> dict:
        return {
            "turn": turn.number,
            "events": turn.events,
            "programs": turn.programs if turn.number != GOAL_STEP else {},
            "before": rules.public_view(turn.state_before, None),
            "after": rules.public_view(turn.state_after, None),
        }


KIND = RAMbots()
