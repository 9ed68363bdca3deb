"""The one game loop of every kind (issue 35; docs/game-kinds.md "The loop"), as boardgame.io's master runs
every game: start, deal, "all in, so execute" exactly once, resolve, finish. The game's kind (games.kinds)
answers the rules' questions (its new state, its deal, who is still in, how a turn resolves, who won); this
module owns the rows, the locks, the clocks, the events and the tasks, for every kind alike.

Moves come in through `games.services.moves`, which ends in `execute_when_all_ready` here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import broadcast, clocks, kinds
from games.models import Game, Hand, Program, Seat, Turn
from games.selectors import seats as seats_selectors
from games.services import account_events, locking, notices, publish, rating
from games.signals import game_finished
from roboracer.common import compiled

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Begin:
    """A kind's answer to "start this game": its first state, the number of its first turn, what the
    `game_started` event says besides the turn, and the seat fields the kind set (colours, teams)."""

    state: object
    turn: int
    event: dict = field(default_factory=dict)
    seat_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resolved:
    """A kind's answer to "resolve this turn": the new state, its public events, the Turn row's fields besides
    the game, the number, the states and the events (`record`: seed, programs, ...), and what the
    `turn_resolved` event says besides the turn and the events (`public`)."""

    state: object
    events: list
    record: dict
    public: dict


def live_seats(game: Game, state, seats: list[Seat] | None = None) -> list[Seat]:
    """Seats whose player is still in the game as its kind says; `seats` saves the query when the caller has
    them."""
    kind = kinds.of(game)
    seats = game.seats.all() if seats is None else seats
    return [seat for seat in seats if seat.ejected_at is None and kind.in_game(state, seat)]


def in_game(game: Game, seat: Seat) -> bool:
    """Whether `seat` still plays in the running `game` (not ejected, not out by its kind's rules)."""
    kind = kinds.of(game)
    return seat.ejected_at is None and kind.in_game(kind.load(game), seat)


def start(game: Game) -> None:
    """Start the game: its kind's first state, every seat's clock loaded, the first turn dealt. The caller holds
    the lock and saves."""
    kind = kinds.of(game)
    now = timezone.now()
    seats = list(game.seats.order_by("number"))
    begin = kind.begin(game, seats)
    for seat in seats:
        seat.move_left, seat.game_left = float(game.move_time), float(game.game_time)
    Seat.objects.bulk_update(seats, ["move_left", "game_left", *begin.seat_fields])
    game.state = kind.dump(begin.state)
    game.status = Game.Status.PROGRAMMING
    game.turn = begin.turn
    game.started_at = now
    game.max_seats = len(seats)
    publish.append_event(game, "game_started", {"turn": begin.turn, **begin.event})
    deal(game, begin.state, now)
    account_events.game_started(game=game, user_ids=[seat.user_id for seat in seats if not seat.computer])


def deal(game: Game, state, now: datetime, last_turn: dict | None = None) -> None:
    """Deal the turn (the kind's hands: what each seat that moves may use) and start the clocks of the seats
    that must move. A move the rules make for a seat (a rebooting bot's five "0" chips) is entered at once and
    its clock stays stopped. `last_turn` ({"number", "events"}): the turn just resolved, for the pushed
    snapshots."""
    kind = kinds.of(game)
    hands = kind.deal(game, state)
    # The clocks start once the screens have shown the turn just resolved (docs/site.md "When the move clock
    # starts"): its animation at 1x, at most a minute. A player who skips it may program at once.
    wait = 0.0 if last_turn is None else clocks.animation_wait(kind.animation_seconds(last_turn["events"]))
    if game.clocks_from != clocks.PAUSED:  # an organiser's pause holds the new turn's clocks too
        game.clocks_from = now + timedelta(seconds=wait)
    seats = {seat.bot_id: seat for seat in seats_selectors.seats_of(game=game)}
    compiled.insert_many(
        [Hand(seat=seats[bot_id], turn=game.turn, chips=list(chips)) for bot_id, chips in hands.items()]
    )
    thinking, submitted, computers, entered = [], set(), [], {}
    for bot_id in hands:
        seat = seats[bot_id]
        required = kind.required_move(state, bot_id)
        if required is not None:
            entered[seat.pk] = Program.objects.create(seat=seat, turn=game.turn, chips=list(required.chips),
                                                      reboot=required.reboot, action=required.action)
            submitted.add(seat.pk)
            publish.append_event(game, "seat_ready", {"seat": seat.number})
        elif seat.autopilot:
            computers.append(seat)  # its owner's clock stays stopped while a computer plays for them
        else:
            clocks.start(seat, now, from_=game.clocks_from)
            thinking.append(seat)
            if seat.computer:
                computers.append(seat)
    publish.schedule_computers(game, computers, delays={
        seat.number: kind.computer_think_seconds(game, seat) for seat in computers if seat.computer})
    # One UPDATE per distinct deadline: usually one, as every clock reloads to the same times. Django's
    # bulk_update builds a CASE per row and field, a tenth of a resolution's CPU (make bench-site).
    started: dict[tuple, list[int]] = {}
    for seat in thinking:
        started.setdefault((seat.clock_started_at, seat.deadline, seat.expired), []).append(seat.pk)
    for (started_at, deadline, expired), seat_ids in started.items():
        compiled.update_many(Seat, seat_ids, clock_started_at=started_at, deadline=deadline, expired=expired)
    publish.notify_turn(game, [seat for seat in thinking if not seat.computer])
    ordered = sorted(seats.values(), key=lambda seat: seat.number)
    publish.clocks_event(game, ordered, now)
    # The turn's only programs are those just entered (the game row is locked).
    execute_when_all_ready(game, state, now, seats=ordered, submitted=submitted)
    # The turn's hands and programs are those just written: the pushed snapshots need not read them back.
    dealt = {"hands": {seats[bot_id].pk: list(chips) for bot_id, chips in hands.items()}, "programs": entered}
    publish.push_snapshots(game, last_turn, dealt)


def execute_when_all_ready(
    game: Game, state, now: datetime, *, seats: list[Seat] | None = None, submitted: set[int] | None = None,
) -> None:
    """Once every seat still in the game has its move in, the turn executes (in a worker, after commit): the
    status moves to resolving here, once, under the game's lock. The kind may first enter moves for seats still
    missing (RAMbots' Speedbots: the last one's arrangement as it lies). `seats` and `submitted` (seat ids with
    a move this turn) save the queries when the caller has them."""
    if game.status != Game.Status.PROGRAMMING:
        return
    if submitted is None:
        submitted = set(Program.objects.filter(seat__game=game, turn=game.turn).values_list("seat_id", flat=True))
    live = live_seats(game, state, seats)
    missing = [seat for seat in live if seat.pk not in submitted]
    if missing:
        for seat, move, detail in kinds.of(game).complete(game, state, live, missing):
            Program.objects.create(seat=seat, turn=game.turn, chips=list(move.chips), reboot=move.reboot,
                                   action=move.action)
            if clocks.running(seat):  # as if it had been sent: its move time reloads for the next turn
                clocks.stop(seat, now)
                clocks.reload(seat, maximum=game.move_time, opponents_thinking=False)
            seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline", "expired"])
            publish.append_event(game, "seat_ready", {"seat": seat.number, **detail,
                                                      "clocks": publish.clock_reading([seat], now)})
            submitted = submitted | {seat.pk}
        if any(seat.pk not in submitted for seat in live):
            return
    game.status = Game.Status.RESOLVING
    game.resolving_since = now
    publish.append_event(game, "turn_executing", {"turn": game.turn})
    publish.schedule_resolution(game)


def resolve_turn(*, game_id: int, turn: int) -> Turn | None:
    """Resolve a turn exactly once; a second call (a redelivered task) finds it done and returns None. The game
    row is locked and its state checked here; the kind plays the turn, and this stores it, publishes it, and
    deals the next turn or finishes the game, all in one transaction."""
    try:
        with transaction.atomic():
            # With its course row's name and state (not its layout), unlocked: the deal's notices and pushed
            # snapshots read them without a query each (docs/performance.md).
            game = next(iter(locking.resolution_lock.run(game_id=game_id)), None)
            if game is None:
                return None
            if game.status != Game.Status.RESOLVING or game.turn != turn:
                return None
            with broadcast.batched_events():  # turn_resolved, turn_dealt, clocks...: one message to the group
                record = _resolve(game, turn)
        logger.info("game %s: turn %s resolved, %s events", game_id, turn, len(record.events))
        return record
    except IntegrityError:
        # Another worker stored this turn between our check and our insert: it is resolved once.
        logger.info("turn %s of game %s was resolved concurrently", turn, game_id)
        return None


_turn_programs = compiled.Compiled(lambda _variant, *, game_id, turn: Program.objects.filter(
    seat__game_id=game_id, turn=turn).select_related("seat"))


def _resolve(game: Game, turn: int) -> Turn:
    kind = kinds.of(game)
    state = kind.load(game)
    programs = list(_turn_programs.run(game_id=game.pk, turn=turn))
    resolved = kind.resolve(game, state, turn, programs)
    record = compiled.insert(Turn(game=game, number=turn, state_before=game.state, events=resolved.events,
                                  state_after=kind.dump(resolved.state), **resolved.record))
    game.state = record.state_after
    game.resolving_since = None
    publish.append_event(game, "turn_resolved", {"turn": turn, "events": resolved.events, **resolved.public})
    now = timezone.now()
    if kind.finished(resolved.state):
        finish(game, resolved.state, now)
    else:
        game.status = Game.Status.PROGRAMMING
        game.turn = turn + 1
        publish.append_event(game, "turn_dealt", {"turn": game.turn})
        deal(game, resolved.state, now, last_turn={"number": turn, "events": resolved.events})
    # Only what a resolution changes: the game's copy of its course is not written again.
    compiled.update(game, ["state", "resolving_since", "clocks_from", "version", "status", "turn", "finished_at",
                           "winner", "updated_at"])
    kind.after_resolution(game, turn, resolved.events)  # last in the transaction (RoboRacer's module economy)
    return record


def finish(game: Game, state, now: datetime) -> None:
    """The game is over: the winner's seat, the places, every clock stopped, `game_finished` for the screens
    and for the apps that listen (ratings, tournaments, the Pyramid). The caller holds the lock."""
    outcome = kinds.of(game).outcome(state)
    seats = {seat.bot_id: seat for seat in game.seats.all()}
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.winner = seats.get(outcome.winner)
    Seat.objects.filter(game=game).update(clock_started_at=None, deadline=None)
    publish.append_event(game, "game_finished", {"winner_seat": game.winner.number if game.winner else None,
                                                 "places": outcome.places})
    # Stored before the rating and the receivers run, so that their queries see this game finished (the caller
    # saves again).
    game.save(update_fields=["state", "status", "finished_at", "winner", "version", "updated_at"])
    rating.rate_finished(game=game, outcome=outcome)  # a direct call down, in this transaction
    # Other pages' "your move" notices of this game go away (organisers' issue: one stayed after the end).
    people = [seat.user_id for seat in seats.values() if seat.user_id is not None and not seat.computer]
    notices.notify(user_ids=people, kind="game_over", text=f"Game {game.pk} is over", link=f"/games/{game.pk}/",
                   source={"game": game.pk}, message={"game": game.pk})
    account_events.game_finished(game=game, user_ids=people)  # bot programs' event streams (docs/bot-api.md)
    game_finished.send(sender=Game, game=game, state=outcome)  # news up: tournaments, the Pyramid


def outcome_of(game: Game):
    """A finished game's `winner` and `places`, as `game_finished` told its receivers (a sweep that missed it
    asks again)."""
    kind = kinds.of(game)
    return kind.outcome(kind.load(game))
