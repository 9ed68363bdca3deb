"""RAMbots (seed 002) as a game kind: its game's life on the site, through the shared lobby, clocks, timeout
policies, events, chat and computer players (docs/game-kinds.md). The rules are `engine.kinds.rambots`.

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

from django.db import transaction
from django.utils import timezone

import engine
from engine.kinds import rambots as rules
from engine.kinds.rambots import players as rambots_players
from games import clocks, services
from games.models import Draft, Game, Hand, Program, Seat, Turn
from games.signals import game_finished
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed

logger = logging.getLogger(__name__)
GOAL_STEP = 0  # the turn number of the goal-stack step
TITLE = "RAMbots"
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


def _live(game: Game, state: dict, seats: list[Seat] | None = None) -> list[Seat]:
    seats = list(game.seats.order_by("number")) if seats is None else seats
    return [seat for seat in seats if _in_game(state, seat)]


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
    takes_chips = False  # moves go to /move/
    rated = False  # no rating pool of its own yet (docs/game-kinds.md)

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
        from games.api.serializers import CreateRAMbotsGameSerializer

        return CreateRAMbotsGameSerializer(data=data)

    def create_game(self, *, user, max_seats: int = rules.MAX_PLAYERS, visibility: str = Game.Visibility.PUBLIC,
                    timer_preset: str = Game.Preset.REALTIME, move_time: int | None = None,
                    game_time: int | None = None, timeout_policy: str = Game.TimeoutPolicy.WAIT,
                    options: dict | None = None, **_ignored) -> Game:
        """A new RAMbots game in the lobby, the creator in seat 1. Unrated (`rated`)."""
        if isinstance(max_seats, bool) or not isinstance(max_seats, int) or not (
                rules.MIN_PLAYERS <= max_seats <= rules.MAX_PLAYERS):
            raise InvalidInput(f"{TITLE} takes {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} players, not {max_seats}")
        if visibility not in Game.Visibility.values:
            raise InvalidInput(f"visibility: {visibility!r} is not one of {', '.join(Game.Visibility.values)}")
        if timeout_policy not in Game.TimeoutPolicy.values:
            raise InvalidInput(f"timeout_policy: one of {', '.join(Game.TimeoutPolicy.values)}")
        options = dict(options or {})
        unknown = sorted(str(key)[:20] for key in options if key != "speedbots")
        if unknown:
            raise InvalidInput(f"options: {unknown[0]!r} is not a {TITLE} option (its one option is speedbots)")
        if not isinstance(options.get("speedbots", False), bool):
            raise InvalidInput("options: speedbots is true or false")
        move, game_seconds = services.timer_settings(preset=timer_preset, move_time=move_time, game_time=game_time)
        with transaction.atomic():
            services.check_open_lobbies(user=user)
            game = Game.objects.create(
                kind=self.name, course=None, course_data={}, creator=user, max_seats=max_seats,
                seed=secrets.randbits(62), visibility=visibility,
                invite_code=secrets.token_urlsafe(12) if visibility == Game.Visibility.PRIVATE else "",
                timer_preset=timer_preset, move_time=move, game_time=game_seconds, timeout_policy=timeout_policy,
                rated=False, options={"speedbots": bool(options.get("speedbots", False))},
            )
            Seat.objects.create(game=game, user=user, number=1, color=services._seat_color(user, set(), 1))
            services.append_event(game, "game_created", {"seat": 1})
            game.save(update_fields=["version"])
        return game

    # -- games the site seats itself (tournaments) ---------------------------------------------------------
    uses_courses = False
    max_table = rules.MAX_PLAYERS

    @transaction.atomic
    def seated_game(self, *, creator, users: list, computers: list, courses: list, rng, options: dict):
        """A tournament table's game (courses, lives and modules are RoboRacer's and play no part)."""
        game = self.create_game(
            user=creator, max_seats=max(rules.MIN_PLAYERS, len(users) + len(computers)), visibility=Game.Visibility.PUBLIC,
            **{key: options[key] for key in ("timer_preset", "move_time", "game_time", "timeout_policy") if key in options},
        )
        return services.seat_and_start(game, users=users, computers=computers)

    def outcome(self, game) -> Outcome:
        state = _state(game)
        return Outcome(winner=rules.winner(state), places=places(state))

    def recreate(self, game, *, user):
        return self.create_game(
            user=user, max_seats=game.max_seats, visibility=game.visibility, timer_preset=game.timer_preset,
            move_time=game.move_time, game_time=game.game_time, timeout_policy=game.timeout_policy,
            options=dict(game.options),
        )

    # -- a game's life ----------------------------------------------------------------------------------------
    def start(self, game) -> None:
        """The bots on the board, the pools dealt, the goal-stack step's clocks running. The caller holds the lock
        and saves."""
        now = timezone.now()
        seats = list(game.seats.order_by("number"))
        state = rules.new_game([seat.bot_id for seat in seats], seed=engine.derive_seed(game.seed, 0, "setup"),
                               options=dict(game.options or {}))
        colours = {player["id"]: SEAT_COLOURS[player["colour"]] for player in state["players"]}
        for seat in seats:
            seat.move_left, seat.game_left = float(game.move_time), float(game.game_time)
            seat.color = colours[seat.bot_id]
        Seat.objects.bulk_update(seats, ["move_left", "game_left", "color"])
        game.state = state
        game.status = Game.Status.PROGRAMMING
        game.turn = GOAL_STEP
        game.started_at = now
        game.max_seats = len(seats)
        services.append_event(game, "game_started", {"turn": GOAL_STEP, "kind": self.name})
        self._deal(game, state, now, seats)

    def _deal(self, game: Game, state: dict, now, seats: list[Seat]) -> None:
        """A turn begins: each seat still in the game gets its pool as it stands (its Hand), the clocks of the
        people start, the computers are asked."""
        live = _live(game, state, seats)
        pools = {p["id"]: list(p["pool"]) for p in state["players"]}
        Hand.objects.bulk_create([Hand(seat=seat, turn=game.turn, chips=pools[seat.bot_id]) for seat in live])
        thinking, computers = [], []
        for seat in live:
            if seat.autopilot:
                computers.append(seat)
                continue
            clocks.start(seat, now)
            seat.save(update_fields=["clock_started_at", "deadline", "expired"])
            thinking.append(seat)
            if seat.computer:
                computers.append(seat)
        services._schedule_computers(game, computers)
        services._notify_turn(game, [seat for seat in thinking if not seat.computer])
        services._clocks_event(game, seats, now)
        services._push_snapshots(game)

    def in_game(self, game, seat) -> bool:
        return _in_game(_state(game), seat)

    def submit_move(self, *, user, game_id: int, data) -> dict:
        move = parse_move(data)
        with transaction.atomic():
            game = services._locked_game(game_id, user=user)
            seats = list(game.seats.order_by("number"))
            seat = next((seat for seat in seats if seat.user_id == user.pk), None)
            if seat is None:
                raise NotAllowed("you have no seat in this game")
            self._record(game, seats, seat, move)
            if seat.autopilot:
                services._hand_back(game, seat)
            game.save(update_fields=["version", "status", "resolving_since", "updated_at"])
        return move

    def _record(self, game: Game, seats: list[Seat], seat: Seat, move: dict) -> None:
        """The checks and the write of a move, whoever sends it. The caller holds the lock and saves the game."""
        if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
            raise Conflict(f"this game is {game.status}")
        if seat.ejected_at is not None:
            raise Conflict("your bot was ejected from this game")
        if game.status != Game.Status.PROGRAMMING:
            raise Conflict(f"this game takes no moves now (it is {game.status})")
        if move["turn"] != game.turn:
            raise Conflict(f"turn {move['turn']} is not the current turn ({game.turn})")
        state = _state(game)
        if not _in_game(state, seat):
            raise Conflict("your bot is out of this game")
        if game.turn == GOAL_STEP:
            problem = rules.goal_stack_problem(state, seat.bot_id, move["goals"])
            chips, compiled = move["goals"], True
        else:
            problem = rules.program_problem(state, seat.bot_id, move["program"])
            chips, compiled = move["program"], move["compiled"]
        if problem:
            raise InvalidInput(problem)
        now = timezone.now()
        submitted = {p.seat_id: p for p in Program.objects.filter(seat__game=game, turn=game.turn)}
        if game.turn != GOAL_STEP:
            Draft.objects.update_or_create(seat=seat, turn=game.turn, defaults={"program": chips})
        program = submitted.get(seat.pk)
        if not compiled:
            if program is not None:  # uncompiled: the seat thinks again, its clock runs again
                program.delete()
                if not seat.autopilot and not seat.computer:
                    clocks.start(seat, now)
                    seat.save(update_fields=["clock_started_at", "deadline", "expired"])
                services.append_event(game, "seat_unready", {"seat": seat.number,
                                                             "clocks": services._clock_reading([seat], now)})
            return
        if program is not None:
            program.chips = chips
            program.save(update_fields=["chips", "submitted_at"])
            return
        submitted[seat.pk] = Program.objects.create(seat=seat, turn=game.turn, chips=chips)
        live = _live(game, state, seats)
        if clocks.running(seat):
            clocks.stop(seat, now)
            clocks.reload(seat, maximum=game.move_time,
                          opponents_thinking=any(other.pk not in submitted for other in live))
            seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline", "expired"])
        services.append_event(game, "seat_ready", {"seat": seat.number, "clocks": services._clock_reading([seat], now)})
        self._execute_when_ready(game, state, seats, set(submitted), now)

    def _execute_when_ready(self, game: Game, state: dict, seats: list[Seat], submitted: set[int], now) -> None:
        """Every seat still in has moved: the turn executes. Speedbots (002 "Speedbots"): a round also ends when
        all but one have compiled, and the last one's arrangement runs as it lies."""
        if game.status != Game.Status.PROGRAMMING:
            return
        live = _live(game, state, seats)
        missing = [seat for seat in live if seat.pk not in submitted]
        speedbots = bool((game.options or {}).get("speedbots")) and game.turn != GOAL_STEP
        if len(missing) == 1 and speedbots and len(live) > 1:
            last = missing[0]
            draft = Draft.objects.filter(seat=last, turn=game.turn).values_list("program", flat=True).first()
            Program.objects.create(seat=last, turn=game.turn, chips=list(draft or []))
            # As if it had compiled: its move time reloads for the next round (002 sets no penalty but the
            # program as it lies).
            if clocks.running(last):
                clocks.stop(last, now)
                clocks.reload(last, maximum=game.move_time, opponents_thinking=False)
            last.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline", "expired"])
            services.append_event(game, "seat_ready", {"seat": last.number, "as_it_lies": True,
                                                       "clocks": services._clock_reading([last], now)})
            missing = []
        if missing:
            return
        game.status = Game.Status.RESOLVING
        game.resolving_since = now
        services.append_event(game, "turn_executing", {"turn": game.turn})
        services._schedule_resolution(game)

    def resolve(self, game, turn: int):
        """Play the goal step or a round and store it; `services.resolve_turn` holds the lock and checked the turn."""
        state = _state(game)
        seats = list(game.seats.order_by("number"))
        programs = {p.seat.bot_id: p.chips
                    for p in Program.objects.filter(seat__game=game, turn=turn).select_related("seat")}
        if turn == GOAL_STEP:
            # A maker who left before building theirs leaves a stack built at random for their neighbour.
            for player in state["players"]:
                if player["id"] not in programs:
                    programs[player["id"]] = rules.random_goal_stack(
                        state, player["id"], seed=engine.derive_seed(game.seed, turn, f"goals-{player['id']}"))
            new_state, events = rules.set_goal_stacks(state, programs)
            shown = {}  # the goal stacks stay hidden: only their tops are revealed (in the events)
        else:
            new_state, events = rules.resolve_round(state, programs)
            shown = programs  # programs are revealed once they have run
        record = Turn.objects.create(game=game, number=turn, seed=0, state_before=state, programs=programs,
                                     events=events, state_after=new_state)
        game.state = new_state
        game.resolving_since = None
        services.append_event(game, "turn_resolved", {"turn": turn, "events": events, "programs": shown})
        now = timezone.now()
        if rules.winner(new_state) is not None or new_state.get("phase") == "over":
            self._finish(game, new_state, seats, now)
        else:
            game.status = Game.Status.PROGRAMMING
            game.turn = turn + 1
            services.append_event(game, "turn_dealt", {"turn": game.turn})
            self._deal(game, new_state, now, seats)
        game.save(update_fields=["state", "resolving_since", "version", "status", "turn", "finished_at",
                                 "winner", "updated_at"])
        return record

    def _finish(self, game: Game, state: dict, seats: list[Seat], now) -> None:
        by_bot = {seat.bot_id: seat for seat in seats}
        outcome = Outcome(winner=rules.winner(state), places=places(state))
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.winner = by_bot.get(outcome.winner)
        Seat.objects.filter(game=game).update(clock_started_at=None, deadline=None)
        services.append_event(game, "game_finished", {"winner_seat": game.winner.number if game.winner else None,
                                                      "places": outcome.places})
        game.save(update_fields=["state", "status", "finished_at", "winner", "version", "updated_at"])
        game_finished.send(sender=Game, game=game, state=outcome)

    def eject(self, game, seats, *, by: str, reason: str, by_name: str = "") -> list[int]:
        """Ejected players are out (engine `remove_players`); the others keep their moves. The last one in wins."""
        now = timezone.now()
        state = _state(game)
        new_state, events = rules.remove_players(state, [seat.bot_id for seat in seats])
        services.mark_ejected(game, seats, by=by, now=now)
        game.state = new_state
        numbers = [seat.number for seat in seats]
        services._system_chat(game, services._forfeit_line(seats, by=by, by_name=by_name or by, reason=reason))
        services.append_event(game, "seats_ejected", {"seats": numbers, "bots": [s.bot_id for s in seats], "by": by,
                                                      "reason": reason, "turn": game.turn, "events": events,
                                                      "resubmit": False})
        all_seats = list(game.seats.order_by("number"))
        if rules.winner(new_state) is not None or new_state.get("phase") == "over":
            self._finish(game, new_state, all_seats, now)
            if game.winner is not None:
                services._system_chat(game, f"{services._names([game.winner])} wins by forfeit: every other "
                                            "RAMbot is out.")
            return numbers
        submitted = set(Program.objects.filter(seat__game=game, turn=game.turn).values_list("seat_id", flat=True))
        services._clocks_event(game, all_seats, now)
        self._execute_when_ready(game, new_state, all_seats, submitted, now)
        return numbers

    def play_random(self, game, seats, now) -> None:
        """Timeout policy "random": a random goal stack or a random legal program for each seat out of time."""
        state = _state(game)
        for seat in seats:
            clocks.stop(seat, now)
            seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline"])
            if not _in_game(state, seat) or Program.objects.filter(seat=seat, turn=game.turn).exists():
                continue
            seed = engine.derive_seed(game.seed, game.turn, f"timeout-{seat.bot_id}")
            if game.turn == GOAL_STEP:
                chips = rules.random_goal_stack(state, seat.bot_id, seed=seed)
            else:
                chips = _random_program(state, seat.bot_id, seed)
            Program.objects.create(seat=seat, turn=game.turn, chips=chips)
            services.append_event(game, "seat_ready", {"seat": seat.number, "random": True})
        all_seats = list(game.seats.order_by("number"))
        services._clocks_event(game, all_seats, now)
        submitted = set(Program.objects.filter(seat__game=game, turn=game.turn).values_list("seat_id", flat=True))
        self._execute_when_ready(game, state, all_seats, submitted, now)

    def computer_move(self, game, seat):
        """A computer player's move, for `services.play_computer_turn`: think without a lock on what the seat may
        see (the engine's players read `public_view` only), then send it through the checks a person's move goes
        through."""
        game_id, turn, seat_number = game.pk, game.turn, seat.number
        state = _state(game)
        strength = seat.computer or services.AUTOPILOT_STRENGTH
        seed = engine.derive_seed(game.seed, turn, f"computer-{seat.bot_id}")
        if turn == GOAL_STEP:
            move = {"turn": turn, "goals": rambots_players.choose_goal_stack(state, seat.bot_id, strength=strength,
                                                                             seed=seed)}
        else:
            move = {"turn": turn, "program": rambots_players.choose(state, seat.bot_id, strength=strength, seed=seed),
                    "compiled": True}
        logger.info("game %s turn %s seat %s: RAMbots %s computer decided", game_id, turn, seat_number, strength)
        try:
            with transaction.atomic():
                game = services._locked_game(game_id)
                seats = list(game.seats.order_by("number"))
                seat = next(s for s in seats if s.number == seat_number)
                if (game.status != Game.Status.PROGRAMMING or game.turn != turn or seat.ejected_at is not None
                        or not (seat.computer or seat.autopilot)
                        or Program.objects.filter(seat=seat, turn=turn).exists()):
                    return None
                self._record(game, seats, seat, move)
                game.save(update_fields=["version", "status", "resolving_since", "updated_at"])
                return Program.objects.filter(seat=seat, turn=turn).first()
        except (InvalidInput, Conflict) as refusal:
            logger.error("game %s turn %s seat %s: RAMbots computer move refused: %s", game_id, turn, seat_number,
                         refusal)
            return None

    # -- what viewers see ---------------------------------------------------------------------------------------
    def private_context(self, *, game, state: dict, seat_ids: list[int]) -> dict:
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
