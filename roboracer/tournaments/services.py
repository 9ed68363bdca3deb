"""Every write to a tournament (docs/tournaments.md). Keyword-only; one transaction each.

Lock order, everywhere: the tournament row first, then a game row (games.services locks games). The
game_finished receiver, which runs inside the finishing game's transaction, locks no tournament row: it
records its own table's places and schedules `advance` after the commit, which locks the tournament and
creates the next round exactly once (a conditional UPDATE of the round's status, and a unique round number).
"""

from __future__ import annotations

import logging
import random
import re
import secrets
from datetime import datetime

from django.contrib.auth.models import Group
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

import engine
from games import broadcast, kinds
from games import clocks as game_clocks
from games.kinds.roboracer import services as roboracer_services
from games.models import Game, Program, Seat
from games.services import computer_seats, lobby, locking, organisers, turns
from games.services import setup as game_setup
from roboracer.accounts.services import COMPUTER_PREFIX
from roboracer.common.errors import Conflict, GameError, InvalidInput, NotAllowed, NotFound
from roboracer.courses.models import Course
from roboracer.tournaments import seating, selectors
from roboracer.tournaments.models import (
    DEFAULT_POINTS,
    Action,
    Entry,
    Round,
    Substitution,
    Table,
    TableSeat,
    Tournament,
)

logger = logging.getLogger(__name__)
ORGANISERS = "organisers"
MAX_EXTEND = 30 * 24 * 3600  # one extension adds at most 30 days
MAX_LEAGUE_ROUNDS = 20
MAX_MIN_PLAYERS = 4096
COMPUTER_FILLS = tuple(computer_seats.COMPUTER_STRENGTHS)  # Tournament.computer_fill: one of these, or "" (off)


def is_organiser(user) -> bool:
    return bool(user and user.is_authenticated and (user.groups.filter(name=ORGANISERS).exists()))


def _log(tournament: Tournament, kind: str, text: str, *, actor=None) -> None:
    Action.objects.create(tournament=tournament, actor=actor, kind=kind, text=text[:500])


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(f"tournament {tournament_id} does not exist") from None


def _organised(tournament_id: int, user) -> Tournament:
    """The tournament locked, for its organiser (or staff); anyone else gets the NotFound of a missing id."""
    tournament = _locked(tournament_id)
    if tournament.organiser_id != user.pk and not user.is_staff:
        raise NotFound(f"tournament {tournament_id} does not exist")
    return tournament


def _check_settings(*, kind: str, courses: list[Course], table_size: int, lives: int, modules: list,
                    move_time: int,
                    game_time: int, timeout_policy: str, registration_opens: datetime, registration_closes: datetime,
                    min_players: int, format: str, advance: int, seeding: str, league_rounds: int,
                    points: list, computer_fill: str = "") -> None:
    if not isinstance(kind, str) or kind not in kinds.names():
        raise InvalidInput(f"kind: one of {', '.join(kinds.names())}")
    game_kind = kinds.get(kind)
    if not 2 <= table_size <= game_kind.max_table:
        raise InvalidInput(f"table_size: from 2 to {game_kind.max_table} for {game_kind.title}, not {table_size}")
    if not game_kind.uses_courses and courses:
        raise InvalidInput(f"courses: {game_kind.title} has no courses; send none")
    if game_kind.uses_courses and not courses:
        raise InvalidInput("courses: a tournament needs at least one stable course")
    for course in courses:
        if course.state != Course.State.STABLE:
            raise InvalidInput(f"courses: {course.name} is not a stable course")
        if course.min_players > 2 or course.max_players < table_size:
            raise InvalidInput(f"courses: {course.name} takes {course.min_players} to {course.max_players} players; "
                               f"a table may seat from 2 to {table_size}")
    if not isinstance(computer_fill, str) or (computer_fill and computer_fill not in COMPUTER_FILLS):
        raise InvalidInput(f"computer_fill: \"\" (off) or the strength of the computer players who fill a table's "
                           f"empty seats: {', '.join(COMPUTER_FILLS)}; not {computer_fill!r}")
    if not 1 <= lives <= roboracer_services.MAX_LIVES:
        raise InvalidInput(f"lives: from 1 to {roboracer_services.MAX_LIVES}, not {lives}")
    if not isinstance(modules, list) or any(name not in engine.MODULE_NAMES for name in modules):
        raise InvalidInput(f"modules: names from {', '.join(engine.MODULE_NAMES)}")
    if not game_clocks.MIN_MOVE_TIME <= move_time <= game_clocks.MAX_MOVE_TIME:
        raise InvalidInput(f"move_time: from {game_clocks.MIN_MOVE_TIME} to {game_clocks.MAX_MOVE_TIME} seconds")
    if not 0 <= game_time <= game_clocks.MAX_GAME_TIME:
        raise InvalidInput(f"game_time: from 0 to {game_clocks.MAX_GAME_TIME} seconds")
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise InvalidInput(f"timeout_policy: one of {', '.join(Game.TimeoutPolicy.values)}")
    if registration_closes <= registration_opens:
        raise InvalidInput("registration_closes: must be after registration_opens")
    if not 2 <= min_players <= MAX_MIN_PLAYERS:
        raise InvalidInput(f"min_players: from 2 to {MAX_MIN_PLAYERS}, not {min_players}")
    if format not in Tournament.Format.values:
        raise InvalidInput(f"format: one of {', '.join(Tournament.Format.values)}")
    if seeding not in Tournament.Seeding.values:
        raise InvalidInput(f"seeding: one of {', '.join(Tournament.Seeding.values)}")
    if format == Tournament.Format.HEATS and not 1 <= advance < table_size:
        raise InvalidInput(f"advance: the top k of a table go through, k from 1 to {table_size - 1}, not {advance}")
    if format == Tournament.Format.LEAGUE:
        if not 1 <= league_rounds <= MAX_LEAGUE_ROUNDS:
            raise InvalidInput(f"league_rounds: from 1 to {MAX_LEAGUE_ROUNDS}, not {league_rounds}")
        if (not isinstance(points, list) or not 1 <= len(points) <= table_size
                or any(isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1000 for p in points)):
            raise InvalidInput(f"points: 1 to {table_size} numbers from 0 to 1000, the points of place 1, 2... "
                               "(a place past the list scores 0)")
    # The one policy of a game's setting (games.services.setup), asked for each course now rather than when a round
    # starts: a puzzle, a course of another ruleset, modules its ruleset lacks, computers on a course they
    # can't play are refused here (docs/tournaments.md "Courses").
    for course in courses:
        why = game_setup.refusal(kind=kind, course_data=course.data, use=game_setup.TOURNAMENT, seats=table_size,
                                 computers=1 if computer_fill else 0, modules=modules)
        if why is not None:
            raise InvalidInput(f"courses: {_course_refusal(course.name, why)}")


def _course_refusal(name: str, why: str) -> str:
    """games.services.setup's refusal of a course, said once: without its own field prefix ("course: ", "ruleset: "), and
    with the course's name in front unless the sentence already names it ("Puzzle: Crusher Hall is a puzzle;
    ..." rather than "Puzzle: Crusher Hall: course: Puzzle: Crusher Hall is a puzzle; ...")."""
    sentence = re.sub(r"^[a-z_]+: ", "", why, count=1)
    return sentence if name in sentence else f"{name}: {sentence}"


@transaction.atomic
def create_tournament(*, organiser, name: str, courses: list[Course], registration_opens: datetime,
                      registration_closes: datetime, description: str = "", table_size: int = 4, lives: int = 3,
                      modules: list | None = None, move_time: int = 3 * 24 * 3600, game_time: int = 15 * 24 * 3600,
                      timeout_policy: str = Game.TimeoutPolicy.EJECT, min_players: int = 2,
                      format: str = Tournament.Format.HEATS, advance: int = 1,
                      seeding: str = Tournament.Seeding.RANDOM, league_rounds: int = 3,
                      points: list | None = None, computer_fill: str = "", kind: str = "roboracer") -> Tournament:
    if not is_organiser(organiser):
        raise NotAllowed("only organisers can create tournaments (staff grant the group in the admin)")
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise InvalidInput("name: from 1 to 100 characters")
    if len(description) > 5000:
        raise InvalidInput("description: at most 5000 characters")
    modules = [] if modules is None else modules
    if isinstance(modules, list) and all(isinstance(m, str) and m in engine.MODULE_NAMES for m in modules):
        modules = sorted(set(modules), key=list(engine.MODULE_NAMES).index)
    points = list(DEFAULT_POINTS[:table_size]) if points is None else points
    _check_settings(kind=kind, courses=courses, table_size=table_size, lives=lives, modules=modules,
                    move_time=move_time,
                    game_time=game_time, timeout_policy=timeout_policy, registration_opens=registration_opens,
                    registration_closes=registration_closes, min_players=min_players, format=format,
                    advance=advance, seeding=seeding, league_rounds=league_rounds, points=points,
                    computer_fill=computer_fill)
    tournament = Tournament.objects.create(
        organiser=organiser, name=name, description=description, table_size=table_size, lives=lives,
        modules=modules, move_time=move_time, game_time=game_time, timeout_policy=timeout_policy,
        registration_opens=registration_opens, registration_closes=registration_closes, min_players=min_players,
        format=format, advance=advance, seeding=seeding, league_rounds=league_rounds, points=points,
        computer_fill=computer_fill, seed=secrets.randbits(62), kind=kind,
    )
    tournament.courses.set(courses)
    _log(tournament, "created", f"{organiser.get_username()} created the tournament", actor=organiser)
    return tournament


@transaction.atomic
def register(*, user, tournament_id: int) -> Entry:
    tournament = _locked(tournament_id)
    now = timezone.now()
    if tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict(f"registration is over: the tournament is {tournament.status}")
    if now < tournament.registration_opens:
        raise Conflict("registration has not opened yet")
    if now >= tournament.registration_closes:
        raise Conflict("registration has closed")
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is not None:
        if entry.withdrawn_at is None:
            raise Conflict("you are already registered")
        entry.withdrawn_at = None  # registering again during the window
        entry.save(update_fields=["withdrawn_at"])
    else:
        entry = Entry.objects.create(tournament=tournament, user=user)
    _log(tournament, "registered", f"{selectors.name_of(user)} registered", actor=user)
    return entry


@transaction.atomic
def withdraw(*, user, tournament_id: int) -> Entry:
    """Before the start: the registration is withdrawn. Running: the player leaves the tournament; a game they
    are playing is resigned for them, so they take the last place at its table."""
    tournament = _locked(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn_at__isnull=True).first()
    if entry is None:
        raise NotFound("you are not registered in this tournament")
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(f"the tournament is {tournament.status}")
    if entry.disqualified_at is not None or entry.eliminated_in is not None:
        raise Conflict("you are already out of this tournament")
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    _log(tournament, "withdrew", f"{selectors.name_of(user)} withdrew", actor=user)
    _leave_running_game(tournament, entry)
    return entry


def _leave_running_game(tournament: Tournament, entry: Entry) -> None:
    """Resign the entry's bot from its game in the current round, if it is still playing (the game lock is
    taken after the tournament's). A game in the middle of resolving a turn cannot take it: the table's result
    puts a withdrawn or disqualified player last whatever the game says."""
    seat = (TableSeat.objects.filter(entry=entry, table__round__tournament=tournament,
                                     table__round__status=Round.Status.RUNNING, table__game__isnull=False)
            .select_related("table").first())
    if seat is None:
        return
    try:
        lobby.leave_game(user=entry.user, game_id=seat.table.game_id)
    except GameError as error:
        logger.info("tournament %s: %s left game %s later (%s)", tournament.pk, entry.user_id,
                    seat.table.game_id, error.message)


def _rng(tournament: Tournament, round_number: int) -> random.Random:
    return random.Random(engine.derive_seed(tournament.seed, round_number, "seating"))


def _order_for_round_one(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    entries = sorted(entries, key=lambda e: e.pk)
    if tournament.seeding == Tournament.Seeding.RATING:
        from roboracer.ratings.selectors import ratings_of

        ratings = ratings_of(users=[e.user_id for e in entries])
        return sorted(entries, key=lambda e: (-ratings[e.user_id], e.pk))
    _rng(tournament, 1).shuffle(entries)
    return entries


def _seat_round(tournament: Tournament, number: int, ordered: list[Entry]) -> Round:
    """Create round `number` with `ordered` players (best first) at tables, and its games. Raises
    IntegrityError if the round exists (the unique round number): a second advance changes nothing."""
    round_ = Round.objects.create(tournament=tournament, number=number)
    sizes = seating.table_sizes(len(ordered), tournament.table_size)
    if tournament.format == Tournament.Format.HEATS and tournament.seeding == Tournament.Seeding.RATING:
        tables = seating.snake(ordered, sizes)
    else:
        tables = seating.chunks(ordered, sizes)
    courses = list(tournament.courses.order_by("pk"))
    rng = _rng(tournament, number)
    options = {"lives": tournament.lives, "timer_preset": Game.Preset.CUSTOM, "move_time": tournament.move_time,
               "game_time": tournament.game_time, "timeout_policy": tournament.timeout_policy,
               "modules": list(tournament.modules)}
    if (tournament.move_time, tournament.game_time) == game_clocks.PRESETS["tournament"]:
        options = {**options, "timer_preset": Game.Preset.TOURNAMENT}
    fill = tournament.computer_fill
    seats, filled = [], 0
    for index, players in enumerate(tables, start=1):
        if len(players) == 1 and not fill:
            table = Table.objects.create(round=round_, number=index, bye=True, finished=True)
            points = seating.points_for(tournament.points, 1) if tournament.format == Tournament.Format.LEAGUE else 0
            seats.append(TableSeat(table=table, entry=players[0], seat=1, place=1, game_place=1, points=points))
            continue
        # Computer players fill the table up to the table size (a lone player plays them instead of a bye).
        # They take the game seats after the people's (create_seated_game seats the users first, in order), so
        # a TableSeat's seat is its player's game seat, as record_table reads it; computers have no TableSeat.
        computers = [fill] * (tournament.table_size - len(players)) if fill else []
        filled += len(computers)
        game = kinds.get(tournament.kind).seated_game(creator=tournament.organiser, users=[e.user for e in players],
                                                      computers=computers, courses=courses, rng=rng, options=options)
        table = Table.objects.create(round=round_, number=index, game=game)
        seats.extend(TableSeat(table=table, entry=entry, seat=n) for n, entry in enumerate(players, start=1))
    TableSeat.objects.bulk_create(seats)
    computers_text = (f", and {filled} {engine.players.strength_label(fill)} computer player(s) in the "
                      f"empty seats (those games are unrated)" if filled else "")
    _log(tournament, "round", f"round {number}: {len(ordered)} players at {len(tables)} table(s){computers_text}")
    return round_


def close_registration(*, tournament_id: int, now: datetime | None = None) -> str | None:
    """At `registration_closes` (the beat sweep): seat round 1 and deal its games, or cancel the tournament
    if too few registered. Safe to run twice and concurrently: only a tournament still in registration moves."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        now = now or timezone.now()
        if tournament.status != Tournament.Status.REGISTRATION or now < tournament.registration_closes:
            return None
        entries = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True,
                                            disqualified_at__isnull=True).select_related("user"))
        if len(entries) < max(tournament.min_players, 2):
            tournament.status = Tournament.Status.CANCELLED
            tournament.finished_at = now
            tournament.save(update_fields=["status", "finished_at"])
            _log(tournament, "cancelled", f"registration closed with {len(entries)} player(s); "
                                          f"the tournament needed {tournament.min_players}")
            return "cancelled"
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        tournament.save(update_fields=["status", "started_at"])
        _log(tournament, "started", f"registration closed with {len(entries)} players")
        _seat_round(tournament, 1, _order_for_round_one(tournament, entries))
        return "started"


def record_table(*, game: Game, state) -> Table | None:
    """The game_finished receiver's work (inside the finishing transaction): the table's places, unique per
    table (docs/tournaments.md "Places at a table"), its league points, and who was ejected. Then `advance`
    after the commit. Not a tournament game: one indexed query and nothing else.

    The places are the people's only: a TableSeat's seat is its player's game seat, and computer players
    filling the table (game seats after the people's, no TableSeat) are left out, so the people's places at
    the table are 1 to n whatever places the computers took in the game."""
    table = Table.objects.filter(game=game, finished=False).select_related("round__tournament").first()
    if table is None:
        return None
    tournament = table.round.tournament
    places = state.places or {}
    seats = list(table.seats.select_related("entry"))
    game_seats = {s.number: s for s in Seat.objects.filter(game=game)}
    from roboracer.ratings.selectors import ratings_of

    ratings = ratings_of(users=[s.entry.user_id for s in seats])
    unplaced = max(len(game_seats), len(seats))  # a seat the game gave no place ranks with the game's last

    def key(ts: TableSeat):
        entry = ts.entry
        out = entry.withdrawn_at is not None or entry.disqualified_at is not None
        game_seat = game_seats.get(ts.seat)
        ejected = bool(game_seat and game_seat.ejected_at is not None)
        return (out, ejected, places.get(str(ts.seat), unplaced), -ratings[entry.user_id], ts.seat)

    for place, ts in enumerate(sorted(seats, key=key), start=1):
        game_seat = game_seats.get(ts.seat)
        ts.place = place
        ts.game_place = places.get(str(ts.seat))
        ts.ejected = bool(game_seat and game_seat.ejected_at is not None)
        ts.points = seating.points_for(tournament.points, place) if tournament.format == Tournament.Format.LEAGUE else 0
    TableSeat.objects.bulk_update(seats, ["place", "game_place", "ejected", "points"])
    table.finished = True
    table.save(update_fields=["finished"])
    tournament_id = tournament.pk

    def schedule() -> None:
        from roboracer.tournaments.tasks import advance_task

        advance_task.delay(tournament_id)

    transaction.on_commit(schedule, robust=True)
    return table


def advance(*, tournament_id: int) -> Round | None:
    """When the current round's last table has its places: finish the round, then seed and create the next one
    or finish the tournament. Exactly once: the tournament row is locked, the round moves from running to
    finished by a conditional UPDATE, and a round number exists once. Returns the new round, if any."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return None
        current = tournament.rounds.filter(status=Round.Status.RUNNING).order_by("-number").first()
        if current is None or current.tables.filter(finished=False).exists():
            return None
        now = timezone.now()
        if not Round.objects.filter(pk=current.pk, status=Round.Status.RUNNING).update(
                status=Round.Status.FINISHED, finished_at=now):
            return None
        seats = list(TableSeat.objects.filter(table__round=current).select_related("table", "entry__user"))
        if tournament.format == Tournament.Format.HEATS:
            return _advance_heats(tournament, current, seats, now)
        return _advance_league(tournament, current, now)


def _finish(tournament: Tournament, now: datetime, text: str, *,
            nobody: str = "nobody is left in it, so there is no winner") -> None:
    """Finish the tournament and log why, naming its winner(s) from the final standings ("round 3 was the
    final: alice wins"), or `nobody` when no one still in is left to win."""
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    names = selectors.winners(selectors.standings(tournament=tournament))
    if not names:
        outcome = nobody
    elif len(names) == 1:
        outcome = f"{names[0]} wins"
    else:
        outcome = f"{', '.join(names[:-1])} and {names[-1]} share first place"
    _log(tournament, "finished", f"{text}: {outcome}")


def _advance_heats(tournament: Tournament, current: Round, seats: list[TableSeat], now: datetime) -> Round | None:
    by_table: dict[int, list[TableSeat]] = {}
    for ts in seats:
        by_table.setdefault(ts.table_id, []).append(ts)
    final = len(by_table) == 1
    through, out = [], []
    for table_seats in by_table.values():
        table_seats.sort(key=lambda ts: ts.place)
        # A bye goes through, and so does the lone player of a table filled with computer players (their place
        # among the people is 1st; as with a bye, only leaving or being ejected puts them out).
        lone = table_seats[0].table.bye or len(table_seats) == 1
        quota = 1 if lone else seating.advancing(len(table_seats), tournament.advance)
        taken = 0
        for ts in table_seats:
            entry = ts.entry
            if entry.withdrawn_at is not None or entry.disqualified_at is not None:
                continue  # already out, and ranked by when they left
            if final:
                # The final table's places are the tournament's first places; a player ejected from the final
                # leaves the tournament, as in any round (docs/tournaments.md "Heats").
                if ts.ejected:
                    out.append(entry)
                continue
            if taken < quota and not ts.ejected:
                through.append(ts)
                taken += 1
            else:
                out.append(entry)
    for entry in out:
        entry.eliminated_in = current.number
    Entry.objects.bulk_update(out, ["eliminated_in"])
    if final:
        _finish(tournament, now, f"round {current.number} was the final",
                nobody="nobody finished it, so there is no winner")
        return None
    if len(through) <= 1:
        _finish(tournament, now, "one player is left" if through else f"nobody is left after round {current.number}",
                nobody="there is no winner")
        return None
    # The next round's order: best table places first, then the better seeds (lower table number, seat).
    through.sort(key=lambda ts: (ts.place, ts.table.number, ts.seat))
    return _seat_round(tournament, current.number + 1, [ts.entry for ts in through])


def _advance_league(tournament: Tournament, current: Round, now: datetime) -> Round | None:
    if current.number >= tournament.league_rounds:
        _finish(tournament, now, f"the league's {tournament.league_rounds} round(s) are played")
        return None
    standing = selectors.league_order(tournament=tournament)
    active = [entry for entry in standing if entry.withdrawn_at is None and entry.disqualified_at is None]
    if len(active) < 2:
        _finish(tournament, now, "fewer than two players are left")
        return None
    return _seat_round(tournament, current.number + 1, active)


def _mark_stalled(tournament_id: int, step: str, error: Exception, now: datetime) -> None:
    """A step of this tournament failed: mark it, and log it once (the conditional UPDATE marks it once; a
    marked tournament is not swept again until staff clear the mark). The reason names the step and the
    error's type only: it is shown to the organiser, and an error's text may hold anything."""
    reason = f"{step} failed ({type(error).__name__}); staff must look at it and clear the mark"[:200]
    if Tournament.objects.filter(pk=tournament_id, stalled_at__isnull=True).update(stalled_at=now,
                                                                                  stalled_reason=reason):
        logger.error("tournament %s: %s failed; marked stalled, the sweep passes over it", tournament_id, step,
                     exc_info=error)


def _isolated(tournament_id: int, step: str, now: datetime, work) -> bool:
    """Run one tournament's step in its own transaction; a failure rolls back that step only, marks the
    tournament and lets the sweep go on with the others. Returns whether the step moved the tournament."""
    try:
        with transaction.atomic():
            return work() is not None
    except Exception as error:  # noqa: BLE001 - any failure of one tournament must not stop the others
        _mark_stalled(tournament_id, step, error, now)
        return False


def sweep(*, now: datetime | None = None) -> int:
    """The beat task's work: close registrations that are due, and repair a missed advance (a task lost with
    Redis, a worker killed mid-task). Returns how many tournaments it moved.

    One bad tournament never stops the sweep: each tournament's step runs in its own transaction, and a
    failure marks that tournament (`stalled_at`, `stalled_reason`), is logged once, and the sweep goes on; a
    marked tournament is passed over until staff clear the mark (docs/tournaments.md "When a step fails")."""
    now = now or timezone.now()
    moved = 0
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION, registration_closes__lte=now,
                                    stalled_at__isnull=True)
    for tournament_id in list(due.values_list("pk", flat=True)):
        moved += _isolated(tournament_id, "closing the registration", now,
                           lambda pk=tournament_id: close_registration(tournament_id=pk, now=now))
    # First a game that finished while its table's places were not recorded (none expected: the receiver
    # runs in the finishing transaction), then the advances.
    missed = (Table.objects.filter(finished=False, game__status=Game.Status.FINISHED,
                                   round__tournament__stalled_at__isnull=True)
              .values_list("game_id", "round__tournament_id"))
    for game_id, tournament_id in list(missed):
        def record(game_id=game_id):
            game = Game.objects.select_for_update().get(pk=game_id)
            record_table(game=game, state=turns.outcome_of(game))
            return None

        _isolated(tournament_id, f"recording the places of game {game_id}", now, record)
    stalled = (Round.objects.filter(status=Round.Status.RUNNING, tournament__status=Tournament.Status.RUNNING,
                                    tournament__stalled_at__isnull=True)
               .exclude(tables__finished=False).values_list("tournament_id", flat=True))
    for tournament_id in list(stalled):
        moved += _isolated(tournament_id, "advancing to the next round", now,
                           lambda pk=tournament_id: advance(tournament_id=pk))
    return moved


# Organiser actions ------------------------------------------------------------------------------------------

@transaction.atomic
def pause(*, user, tournament_id: int) -> Tournament:
    tournament = _organised(tournament_id, user)
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(f"only a running tournament can be paused; this one is {tournament.status}")
    tournament.status = Tournament.Status.PAUSED
    tournament.save(update_fields=["status"])
    _log(tournament, "paused", f"{user.get_username()} paused the tournament: no new round until it resumes",
         actor=user)
    return tournament


@transaction.atomic
def resume(*, user, tournament_id: int) -> Tournament:
    tournament = _organised(tournament_id, user)
    if tournament.status != Tournament.Status.PAUSED:
        raise Conflict(f"only a paused tournament can be resumed; this one is {tournament.status}")
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    _log(tournament, "resumed", f"{user.get_username()} resumed the tournament", actor=user)

    def schedule() -> None:
        from roboracer.tournaments.tasks import advance_task

        advance_task.delay(tournament_id)

    transaction.on_commit(schedule, robust=True)  # a round that finished meanwhile advances now
    return tournament


def _entry_of(tournament: Tournament, entry_id) -> Entry:
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).select_related("user").first()
    if entry is None:
        raise NotFound(f"entry {entry_id} is not in this tournament")
    return entry


@transaction.atomic
def disqualify(*, user, tournament_id: int, entry_id: int, reason: str = "") -> Entry:
    tournament = _organised(tournament_id, user)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(f"the tournament is {tournament.status}")
    entry = _entry_of(tournament, entry_id)
    if not entry.active:
        raise Conflict(f"{selectors.name_of(entry.user)} is already out of the tournament")
    entry.disqualified_at = timezone.now()
    entry.save(update_fields=["disqualified_at"])
    why = f": {reason.strip()[:200]}" if reason and reason.strip() else ""
    _log(tournament, "disqualified", f"{user.get_username()} disqualified {selectors.name_of(entry.user)}{why}",
         actor=user)
    _leave_running_game(tournament, entry)
    return entry


def _replaceable(tournament: Tournament, entry: Entry, new_user) -> tuple[TableSeat, Game, Seat]:
    """The checks of a replacement, made when the organiser invites and again when the invitee accepts: the
    tournament running, the entry still in, the substitute a person without an entry, and the entry's game of
    the current round (locked) on turn 1 with no program from that seat. Returns the table seat, game, seat."""
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise Conflict(f"only a running tournament's players can be replaced; this one is {tournament.status}")
    if not entry.active:
        raise Conflict(f"{selectors.name_of(entry.user)} is already out of the tournament")
    if new_user.get_username().lower().startswith(COMPUTER_PREFIX):
        raise InvalidInput(f"{selectors.name_of(new_user)} is a computer player; a substitute is a person")
    if Entry.objects.filter(tournament=tournament, user=new_user).exists():
        raise Conflict(f"{selectors.name_of(new_user)} already has an entry in this tournament")
    table_seat = (TableSeat.objects.filter(entry=entry, table__round__status=Round.Status.RUNNING,
                                           table__round__tournament=tournament, table__game__isnull=False)
                  .select_related("table").first())
    if table_seat is None:
        raise Conflict("this player has no game in the current round")
    game = Game.objects.select_for_update().get(pk=table_seat.table.game_id)
    seat = Seat.objects.get(game=game, number=table_seat.seat)
    if (game.status != Game.Status.PROGRAMMING or game.turn != 1 or seat.ejected_at is not None
            or seat.user_id != entry.user_id or Program.objects.filter(seat=seat).exists()):
        raise Conflict("a player can only be replaced before their first move")
    return table_seat, game, seat


@transaction.atomic
def replace(*, user, tournament_id: int, entry_id: int, username: str) -> Substitution:
    """Invite another player to take an entry's seat before its first move (the game on turn 1, no program
    from that seat). Nothing changes hands until the invitee accepts (accept_substitution)."""
    from django.contrib.auth import get_user_model

    tournament = _organised(tournament_id, user)
    entry = _entry_of(tournament, entry_id)
    new_user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if new_user is None:
        raise InvalidInput(f"there is no player named {username!r}")
    _table_seat, game, _seat = _replaceable(tournament, entry, new_user)
    if Substitution.objects.filter(entry=entry, status=Substitution.Status.PENDING).exists():
        raise Conflict(f"{selectors.name_of(entry.user)} already has an invitation out for their seat; "
                       "cancel it first")
    substitution = Substitution.objects.create(tournament=tournament, entry=entry, invitee=new_user,
                                               invited_by=user)
    _log(tournament, "invited", f"{user.get_username()} invited {selectors.name_of(new_user)} to replace "
                                f"{selectors.name_of(entry.user)} in game {game.pk}", actor=user)
    _notify_invitee(substitution, tournament=tournament, replacing=entry.user, game=game)
    return substitution


def _notify_invitee(substitution: Substitution, *, tournament: Tournament, replacing, game: Game) -> None:
    """A notice on the invitee's own socket (games.broadcast.notify_users, as "your turn" and "play again" are
    sent), after the commit; advisory: "My tournaments" and the site's invitation notice read the database."""
    notice = {"type": "tournament_invitation", "invitation": substitution.pk, "tournament": tournament.pk,
              "tournament_name": tournament.name, "replacing": selectors.name_of(replacing), "game": game.pk,
              "url": f"{reverse('tournaments-mine')}#invitation-{substitution.pk}"}
    notices = [(substitution.invitee_id, notice)]
    transaction.on_commit(lambda: broadcast.notify_users(notices), robust=True)


def _invitation(substitution_id, *, invitee=None, organiser=None) -> Substitution:
    """The invitation, locked with its tournament (tournament first), for its invitee or for the tournament's
    organiser (or staff); anyone else gets the NotFound of a missing id. Not yet checked to be pending."""
    missing = NotFound(f"invitation {substitution_id} does not exist")
    if isinstance(substitution_id, bool) or not isinstance(substitution_id, int):
        raise missing
    found = Substitution.objects.filter(pk=substitution_id).values_list("tournament_id", flat=True).first()
    if found is None:
        raise missing
    tournament = _locked(found)
    substitution = (Substitution.objects.select_for_update().select_related("entry__user", "invitee")
                    .filter(pk=substitution_id).first())
    if substitution is None:
        raise missing
    if invitee is not None and substitution.invitee_id != invitee.pk:
        raise missing
    if organiser is not None and tournament.organiser_id != organiser.pk and not organiser.is_staff:
        raise missing
    substitution.tournament = tournament
    return substitution


def _close(substitution: Substitution, status: str) -> None:
    if substitution.status != Substitution.Status.PENDING:
        raise Conflict(f"this invitation is already {substitution.status}")
    substitution.status, substitution.closed_at = status, timezone.now()
    substitution.save(update_fields=["status", "closed_at"])


@transaction.atomic
def accept_substitution(*, user, substitution_id: int) -> Entry:
    """The invitee takes the seat: the replacement is checked again under the locks, then the seat's user becomes
    the invitee, a new entry is made for them and the old entry counts as replaced. Returns the new entry."""
    substitution = _invitation(substitution_id, invitee=user)
    if substitution.status != Substitution.Status.PENDING:
        raise Conflict(f"this invitation is already {substitution.status}")
    tournament, entry, new_user = substitution.tournament, substitution.entry, substitution.invitee
    entry.refresh_from_db()
    table_seat, game, seat = _replaceable(tournament, entry, new_user)
    _close(substitution, Substitution.Status.ACCEPTED)
    organisers.hand_seat_to(seat=seat, user=new_user)
    new_entry = Entry.objects.create(tournament=tournament, user=new_user)
    entry.withdrawn_at, entry.replaced_by = timezone.now(), new_entry
    entry.save(update_fields=["withdrawn_at", "replaced_by"])
    table_seat.entry = new_entry
    table_seat.save(update_fields=["entry"])
    Substitution.objects.filter(invitee=new_user, tournament=tournament, status=Substitution.Status.PENDING
                                ).update(status=Substitution.Status.CANCELLED, closed_at=timezone.now())
    _log(tournament, "replaced", f"{selectors.name_of(new_user)} accepted and replaced "
                                 f"{selectors.name_of(entry.user)} in game {game.pk}", actor=user)
    return new_entry


@transaction.atomic
def decline_substitution(*, user, substitution_id: int) -> Substitution:
    """The invitee says no; the seat stays with its player."""
    substitution = _invitation(substitution_id, invitee=user)
    _close(substitution, Substitution.Status.DECLINED)
    _log(substitution.tournament, "declined", f"{selectors.name_of(user)} declined to replace "
                                              f"{selectors.name_of(substitution.entry.user)}", actor=user)
    return substitution


@transaction.atomic
def cancel_substitution(*, user, substitution_id: int) -> Substitution:
    """The organiser withdraws an invitation that is still pending."""
    substitution = _invitation(substitution_id, organiser=user)
    _close(substitution, Substitution.Status.CANCELLED)
    _log(substitution.tournament, "uninvited", f"{user.get_username()} cancelled the invitation to "
                                               f"{selectors.name_of(substitution.invitee)}", actor=user)
    return substitution


@transaction.atomic
def extend(*, user, tournament_id: int, seconds: int) -> int:
    """Add `seconds` to the game time left of every seat still playing in the current round's running games.
    Returns how many games it extended."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 60 <= seconds <= MAX_EXTEND:
        raise InvalidInput(f"seconds: from 60 to {MAX_EXTEND}")
    tournament = _organised(tournament_id, user)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise Conflict(f"the tournament is {tournament.status}")
    current = tournament.rounds.filter(status=Round.Status.RUNNING).first()
    if current is None:
        raise Conflict("no round is running")
    game_ids = list(Game.objects.filter(tournament_table__round=current).exclude(
        status__in=(Game.Status.FINISHED, Game.Status.CANCELLED)).order_by("pk").values_list("pk", flat=True))
    now = timezone.now()
    extended = 0
    for game_id in game_ids:
        game = locking.locked_game(game_id=game_id)
        extended += organisers.add_game_time(game=game, seconds=seconds, now=now)
    _log(tournament, "extended", f"{user.get_username()} added {_duration(seconds)} of game time to round "
                                 f"{current.number} ({extended} game(s))", actor=user)
    return extended


def _duration(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    return " ".join(p for p in parts if p) or f"{seconds} s"


@transaction.atomic
def end(*, user, tournament_id: int) -> Tournament:
    """End the tournament now: standings stay as they are; games still running play on but count for nothing.
    Before the start, ending cancels it."""
    tournament = _organised(tournament_id, user)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(f"the tournament is already {tournament.status}")
    now = timezone.now()
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.CANCELLED
    else:
        tournament.status = Tournament.Status.FINISHED
        Round.objects.filter(tournament=tournament, status=Round.Status.RUNNING).update(
            status=Round.Status.FINISHED, finished_at=now)
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    _log(tournament, "ended", f"{user.get_username()} ended the tournament ({tournament.status})", actor=user)
    return tournament


def grant_organiser(*, user) -> None:
    """What staff do in the admin (the "organisers" group), for tests and the shell."""
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS)[0])


def start_now(*, user, tournament_id: int) -> str | None:
    """The organiser closes registration early: round 1 is seated now (or the tournament is cancelled if too
    few registered), as at `registration_closes`."""
    with transaction.atomic():
        tournament = _organised(tournament_id, user)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise Conflict(f"registration is already over: the tournament is {tournament.status}")
        now = timezone.now()
        tournament.registration_closes = now
        tournament.save(update_fields=["registration_closes"])
        _log(tournament, "closed", f"{user.get_username()} closed registration early", actor=user)
        return close_registration(tournament_id=tournament_id, now=now)
