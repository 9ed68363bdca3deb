"""Every write to a game: one transaction each, with the game row locked (HackSoft-style services).

Hidden information (hands, programs before resolution) is only stored here, never put in an event.
"""

from __future__ import annotations

import logging
import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from games import broadcast
from games.errors import Conflict, InvalidInput, NotAllowed, NotFound
from games.models import SEAT_COLORS, Game, GameEvent, Hand, Program, Seat, Turn
from roboracer.courses.models import Course

logger = logging.getLogger(__name__)
MAX_LIVES = 9


def _locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update(of=("self",)).select_related("course").get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"game {game_id} does not exist") from None


def append_event(game: Game, kind: str, data: dict | None = None) -> GameEvent:
    """Number and store a public event; the caller holds the game lock and saves the game."""
    game.version += 1
    event = GameEvent.objects.create(game=game, version=game.version, kind=kind, data=data or {})
    broadcast.send_after_commit(event)
    return event


def _schedule_resolution(game: Game) -> None:
    from games.tasks import resolve_turn_task

    game_id, turn = game.pk, game.turn
    transaction.on_commit(lambda: resolve_turn_task.delay(game_id, turn))


def _live_seats(game: Game, state: engine.State) -> list[Seat]:
    """Seats whose bot is still in the game (on the course, or with a life left to respawn)."""
    return [seat for seat in game.seats.all() if state.bot(seat.bot_id).in_game]


def _deal(game: Game, state: engine.State) -> None:
    """Deal the turn's hands. A rebooting bot's program (five "0" chips) is entered for it at once."""
    hands = engine.deal(state, engine.derive_seed(game.seed, game.turn, "deal"))
    seats = {seat.bot_id: seat for seat in game.seats.all()}
    Hand.objects.bulk_create(
        [Hand(seat=seats[bot_id], turn=game.turn, chips=list(chips)) for bot_id, chips in hands.items()]
    )
    for bot_id in hands:
        required = engine.required_program(state.bot(bot_id))
        if required is not None:
            Program.objects.create(seat=seats[bot_id], turn=game.turn, chips=list(required))
            append_event(game, "seat_ready", {"seat": seats[bot_id].number})
    _execute_when_all_ready(game, state)


def _execute_when_all_ready(game: Game, state: engine.State) -> None:
    """Once every seat still in the game has a program, the turn executes (in a worker, after commit)."""
    submitted = set(Program.objects.filter(seat__game=game, turn=game.turn).values_list("seat_id", flat=True))
    if all(seat.pk in submitted for seat in _live_seats(game, state)):
        game.status = Game.Status.RESOLVING
        game.resolving_since = timezone.now()
        append_event(game, "turn_executing", {"turn": game.turn})
        _schedule_resolution(game)


def _state(game: Game) -> engine.State:
    return engine.state_from_dict(game.state, engine.parse_course(game.course_data))


@transaction.atomic
def create_game(*, user, course: Course, max_seats: int | None = None, lives: int = 3) -> Game:
    max_seats = course.max_players if max_seats is None else max_seats
    if not course.min_players <= max_seats <= course.max_players:
        raise InvalidInput(
            f"{course.name} takes {course.min_players} to {course.max_players} players, not {max_seats}"
        )
    if not 1 <= lives <= MAX_LIVES:
        raise InvalidInput(f"lives must be from 1 to {MAX_LIVES}, not {lives}")
    game = Game.objects.create(
        course=course,
        course_data=course.data,
        creator=user,
        max_seats=max_seats,
        lives=lives,
        seed=secrets.randbits(62),
    )
    Seat.objects.create(game=game, user=user, number=1, color=SEAT_COLORS[0])
    append_event(game, "game_created", {"seat": 1})
    game.save(update_fields=["version"])
    return game


@transaction.atomic
def join_game(*, user, game_id: int) -> Seat:
    game = _locked_game(game_id)
    if game.status != Game.Status.LOBBY:
        raise Conflict("this game has already started")
    seats = list(game.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict("you already have a seat in this game")
    if len(seats) >= game.max_seats:
        raise Conflict("this game is full")
    taken = {seat.number for seat in seats}
    number = min(n for n in range(1, game.max_seats + 1) if n not in taken)
    seat = Seat.objects.create(game=game, user=user, number=number, color=SEAT_COLORS[number - 1])
    append_event(game, "seat_joined", {"seat": number, "user": user.get_username()})
    if len(seats) + 1 == game.max_seats:
        _start(game)
    game.save()
    return seat


@transaction.atomic
def start_game(*, user, game_id: int) -> Game:
    game = _locked_game(game_id)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can start it")
    if game.status != Game.Status.LOBBY:
        raise Conflict("this game has already started")
    seats = game.seats.count()
    if seats < game.course.min_players:
        raise Conflict(f"{game.course.name} needs at least {game.course.min_players} player(s); {seats} seated")
    _start(game)
    game.save()
    return game


def _start(game: Game) -> None:
    """Place the bots on the starts in seat order and deal turn 1. The caller holds the lock and saves."""
    course = engine.parse_course(game.course_data)
    seats = list(game.seats.order_by("number"))
    # Starts go by joining order: start 1 to the first seat, and so on.
    state = engine.new_game(course, [seat.bot_id for seat in seats], lives=game.lives)
    game.state = engine.state_to_dict(state)
    game.status = Game.Status.PROGRAMMING
    game.turn = 1
    _deal(game, state)
    append_event(game, "game_started", {"turn": 1})


@transaction.atomic
def submit_program(*, user, game_id: int, turn: int, chips: list, reboot: bool = False) -> Program:
    """Record (or replace) a seat's program for the current turn; the last one in schedules resolution."""
    game = _locked_game(game_id)
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    if game.status == Game.Status.FINISHED:
        raise Conflict("this game is finished")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"this game takes no programs now (it is {game.status})")
    if turn != game.turn:
        raise Conflict(f"turn {turn} is not the current turn ({game.turn})")
    state = _state(game)
    bot = state.bot(seat.bot_id)
    hand = Hand.objects.filter(seat=seat, turn=game.turn).first()
    if hand is None or not bot.in_game:
        raise Conflict("your bot has no program to run this turn")
    error = engine.check_program(bot, hand.chips, chips)
    if error is not None:
        raise InvalidInput(str(error))
    program, created = Program.objects.update_or_create(
        seat=seat, turn=game.turn, defaults={"chips": list(chips), "reboot": bool(reboot)}
    )
    if created:
        append_event(game, "seat_ready", {"seat": seat.number})
    _execute_when_all_ready(game, state)
    game.save()
    return program


def resolve_turn(*, game_id: int, turn: int) -> Turn | None:
    """Resolve a turn exactly once; a second call (a redelivered task) finds it done and returns None."""
    try:
        with transaction.atomic():
            game = _locked_game(game_id)
            if game.status != Game.Status.RESOLVING or game.turn != turn:
                return None
            state = _state(game)
            seats = {seat.bot_id: seat for seat in game.seats.all()}
            submitted = list(Program.objects.filter(seat__game=game, turn=turn).select_related("seat"))
            programs = {program.seat.bot_id: program.chips for program in submitted}
            reboots = sorted(program.seat.bot_id for program in submitted if program.reboot)
            seed = engine.derive_seed(game.seed, turn, "resolve")
            new_state, events = engine.resolve_turn(state, programs, seed, reboots=reboots)
            record = Turn.objects.create(
                game=game,
                number=turn,
                seed=seed,
                state_before=game.state,
                programs=programs,
                reboots=reboots,
                events=events,
                state_after=engine.state_to_dict(new_state),
            )
            game.state = record.state_after
            game.resolving_since = None
            append_event(
                game, "turn_resolved", {"turn": turn, "events": events, "programs": programs, "reboots": reboots}
            )
            if new_state.finished:
                game.status = Game.Status.FINISHED
                game.winner = seats.get(new_state.winner)
                append_event(game, "game_finished", {"winner_seat": game.winner.number if game.winner else None})
            else:
                game.status = Game.Status.PROGRAMMING
                game.turn = turn + 1
                _deal(game, new_state)
                append_event(game, "turn_dealt", {"turn": game.turn})
            game.save()
        logger.info("game %s: turn %s resolved, %s events", game_id, turn, len(events))
        return record
    except IntegrityError:
        # Another worker stored this turn between our check and our insert: it is resolved once.
        logger.info("turn %s of game %s was resolved concurrently", turn, game_id)
        return None
