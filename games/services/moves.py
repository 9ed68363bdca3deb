"""A seat's move for the current turn, whoever sends it (a person, a computer player), for every kind: the
shared checks, the kind's own (games.kinds: `check_move`), the write, the clocks, and "all in, so execute"
(`games.services.turns`). A move is stored as the seat's Program of the turn."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games import broadcast, clocks, kinds
from games.models import Draft, Game, GameEvent, Hand, Program, Seat
from games.selectors import access
from games.services import computer_seats, locking, publish, turns
from roboracer.common import compiled
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Move:
    """A move as the loop stores it: the Program's `chips` (RoboRacer's chips; RAMbots' goal stack or
    instructions), `reboot` and `action` (RoboRacer), `ready` (False: the seat takes its move back and thinks
    again, RAMbots' "uncompiled"), `draft` (the arrangement as it lies, kept privately, when not None),
    `echo` (what the API answers the sender, when the kind says) and `seen` (the game version the sender's view
    was at, when it says: a move that would replace or take back one stored after that version is refused,
    `_check_not_stale`)."""

    chips: list
    reboot: bool = False
    action: dict | None = None
    ready: bool = True
    draft: list | None = None
    echo: dict | None = None
    seen: int | None = None


@transaction.atomic
def submit(*, user, game_id: int, turn: int, move: Move, chips: bool = False) -> Program | None:
    """Record (or replace) the user's move for the current turn; the last one in schedules the resolution.

    The hot path of a game (four per turn): one read of the seats, with the turn's hands and programs, serves
    every check, and only the game's changed columns are written. A person whose seat a computer plays
    (timeout policy "computer") takes it back with this move. `chips`: the move came as a program of chips
    (RoboRacer's /program/), which a kind without chips refuses.
    """
    game = locking.locked_visible_game(game_id, user=user)
    if chips and not kinds.of(game).takes_chips:
        raise InvalidInput(f"a {kinds.of(game).title} game takes no chips: send moves to /api/games/{game.pk}/move/")
    seats, hands, submitted = locking.seats_hands_programs(game)
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    with broadcast.batched_events():  # seat_ready, and turn_executing from the last move: one message
        program = record(game, seats, seat, turn=turn, move=move, hand=hands.get(seat.pk), submitted=submitted)
        if seat.autopilot:
            computer_seats.hand_back(game, seat)
    compiled.update(game, ["version", "status", "resolving_since", "updated_at"])
    return program


@transaction.atomic
def submit_computer_move(*, game_id: int, seat_number: int, turn: int, move: Move) -> Program | None:
    """A computer player's move, through the same checks as a person's. For a computer seat, or a person's seat
    under autopilot that has no move of its owner this turn. None when the moment has passed (the turn moved
    on, the owner took the seat back): a late computer changes nothing."""
    game = locking.locked_game(game_id)
    seats = list(game.seats.all())
    seat = next((seat for seat in seats if seat.number == seat_number), None)
    if seat is None or not (seat.computer or seat.autopilot):
        raise NotAllowed(f"seat {seat_number} is not played by a computer")
    if game.status != Game.Status.PROGRAMMING or turn != game.turn or seat.ejected_at is not None:
        return None
    if Program.objects.filter(seat=seat, turn=turn).exists():
        return None  # sent already (a repeated task), or its owner took the seat back
    program = record(game, seats, seat, turn=turn, move=move)
    game.save(update_fields=["version", "status", "resolving_since", "updated_at"])
    return program


_UNREAD = object()


def record(game: Game, seats: list[Seat], seat: Seat, *, turn: int, move: Move, hand=_UNREAD,
           submitted: set[int] | None = None) -> Program | None:
    """The checks and the write of a move. The caller holds the game lock and saves the game. `hand` (this
    turn's hand of the seat, None if it has none) and `submitted` (the seats with a move this turn) save their
    queries when the caller read them. None when the seat took its move back (`Move.ready` False)."""
    kind = kinds.of(game)
    if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
        raise Conflict(f"this game is {game.status}")
    if seat.ejected_at is not None:
        raise Conflict("your bot was ejected from this game")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"this game takes no {kind.move_noun} now (it is {game.status})")
    if turn != game.turn:
        raise Conflict(f"turn {turn} is not the current turn ({game.turn})")
    state = kind.load(game)
    if hand is _UNREAD:
        hand = Hand.objects.filter(seat=seat, turn=game.turn).values_list("chips", flat=True).first()
    seen = move.seen  # the kind's checked move is a new one
    move = kind.check_move(game, state, seat, move, hand)
    # The game row is locked, so no other request adds this seat's move meanwhile.
    if submitted is None:
        submitted = set(Program.objects.filter(seat__game=game, turn=game.turn).values_list("seat_id", flat=True))
    if seen is not None and seat.pk in submitted:
        _check_not_stale(game, seat, seen)
    if move.draft is not None:
        Draft.objects.update_or_create(seat=seat, turn=game.turn, defaults={"program": move.draft})
    now = timezone.now()
    if not move.ready:
        _take_back(game, seat, now, had=seat.pk in submitted)
        return None
    created = seat.pk not in submitted
    if created:
        program = compiled.insert(Program(seat=seat, turn=game.turn, chips=list(move.chips),
                                          reboot=bool(move.reboot), action=move.action))
        submitted = submitted | {seat.pk}
    else:
        program = Program.objects.get(seat=seat, turn=game.turn)
        program.chips, program.reboot, program.action = list(move.chips), bool(move.reboot), move.action
        program.save(update_fields=["chips", "reboot", "action", "submitted_at"])
    if created:
        live = turns.live_seats(game, state, seats)
        if clocks.running(seat):
            clocks.stop(seat, now)
            clocks.reload(
                seat, maximum=game.move_time, opponents_thinking=any(other.pk not in submitted for other in live)
            )
            compiled.update(seat, ["move_left", "game_left", "clock_started_at", "deadline", "expired"])
        # Only this seat's clock changed: its reading rides on the event (one message fewer per move).
        publish.append_event(game, "seat_ready", {"seat": seat.number, "clocks": publish.clock_reading([seat], now)})
    turns.execute_when_all_ready(game, state, now, seats=seats, submitted=submitted)
    return program


def _check_not_stale(game: Game, seat: Seat, seen: int) -> None:
    """A move sent from a view at version `seen` may not replace (or take back) the seat's move stored after
    it: the sender never saw that one. Without this, a request held up on its way to the database (a web
    host cut off from PostgreSQL, make test-cluster's partition-web-db) was stored after the one its sender
    sent again through another host, and the turn played the move whose acknowledgement never arrived
    (docs/api.md, "Programs over the socket")."""
    if seen < game.version and GameEvent.objects.filter(
            game=game, version__gt=seen, kind__in=("seat_ready", "seat_unready"), data__seat=seat.number).exists():
        raise Conflict(f"your move for this turn changed after version {seen} (sent from another connection?): "
                       "read the game again and send it again")


def _take_back(game: Game, seat: Seat, now, *, had: bool) -> None:
    """The seat withdraws its move and thinks again: its clock runs again (`seat_unready`)."""
    if not had:
        return
    Program.objects.filter(seat=seat, turn=game.turn).delete()
    if not seat.autopilot and not seat.computer:
        clocks.start(seat, now, from_=game.clocks_from)
        seat.save(update_fields=["clock_started_at", "deadline", "expired"])
    publish.append_event(game, "seat_unready", {"seat": seat.number, "clocks": publish.clock_reading([seat], now)})


def play_computer_turn(*, game_id: int, turn: int, seat_number: int) -> Program | None:
    """A computer player's move (the `computers` queue's task): the game, the seat and its hand read without a
    lock, and nothing done unless that seat is a computer's (or on autopilot) still to move this turn; then
    the game's kind thinks (no lock held: it may take a while) and the move goes through `record`'s checks as a
    person's does. None when there is nothing to do, or when the checks refuse the move (a bug, logged: the
    seat's clock and the timeout policy keep the game moving)."""
    game = (Game.objects.filter(pk=game_id)
            .only("kind", "status", "turn", "seed", "state", "options", "course_data", "course_id", "created_at",
                  "modules", "ruleset")
            .first())
    if game is None or game.status != Game.Status.PROGRAMMING or game.turn != turn:
        return None
    seat = Seat.objects.filter(game_id=game_id, number=seat_number).first()
    if seat is None or not (seat.computer or seat.autopilot) or seat.ejected_at is not None:
        return None
    if Program.objects.filter(seat=seat, turn=turn).exists():
        return None
    hand = Hand.objects.filter(seat=seat, turn=turn).values_list("chips", flat=True).first()
    if hand is None:
        return None
    kind = kinds.of(game)
    strength = seat.computer or computer_seats.AUTOPILOT_STRENGTH
    move = kind.think(game, kind.load(game), seat, hand, strength=strength)
    logger.info("game %s turn %s seat %s: %s %s computer decided", game_id, turn, seat_number, kind.title, strength)
    try:
        return submit_computer_move(game_id=game_id, seat_number=seat_number, turn=turn, move=move)
    except (InvalidInput, Conflict) as refusal:
        logger.error("game %s turn %s seat %s: computer move refused: %s", game_id, turn, seat_number, refusal)
        return None


def submit_program(*, user, game_id: int, turn: int, chips: list, reboot: bool = False,
                   action: dict | None = None, version: int | None = None) -> Program:
    """A RoboRacer program (POST /api/games/<id>/program/ and the game socket): its chips, reboot and action as
    one move; `version`, when sent, the game version the sender's view was at (`Move.seen`). A game of a kind
    that takes no chips sends its moves to /move/."""
    return submit(user=user, game_id=game_id, turn=turn,
                  move=Move(chips=chips, reboot=reboot, action=action, seen=version), chips=True)


def submit_move(*, user, game_id: int, data) -> dict:
    """A move in the body a game's kind reads itself (POST /api/games/<id>/move/: RAMbots' goal stack or
    program). The kind checks its shape before any lock; a stranger to a private game gets the NotFound of a
    missing id. Returns what the kind echoes to the sender."""
    game = access.visible_game(game_id=game_id, user=user)
    if game is None:
        raise NotFound(f"game {game_id} does not exist")
    turn, move = kinds.of(game).parse_move(game, data)
    submit(user=user, game_id=game_id, turn=turn, move=move)
    return move.echo or {"turn": turn}
