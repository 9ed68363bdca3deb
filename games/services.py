"""Every write to a game: one transaction each, with the game row locked (HackSoft-style services).

Hidden information (hands, programs before resolution) is only stored here, never put in an event.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections import OrderedDict
from datetime import datetime, timedelta

import orjson
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone

import engine
from games import broadcast, clocks, kinds, lobby_feed, selectors, setup
from games.models import SEAT_COLORS, ChatMessage, Game, GameEvent, Hand, Program, Scan, Seat, Turn
from games.selectors import prices as economy_selectors
from games.signals import game_finished
from roboracer import compiled
from roboracer.accounts import selectors as account_selectors
from roboracer.accounts.models import Profile
from roboracer.accounts.services import COMPUTER_PREFIX  # computer players' usernames, refused to people
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound, RateLimited
from roboracer.courses.models import Course
from roboracer.economy import services as economy
from roboracer.ratings import selectors as ratings

logger = logging.getLogger(__name__)
MAX_LIVES = 9
CHAT_BURST = 5  # messages per CHAT_WINDOW per player and game
CHAT_WINDOW = timedelta(seconds=10)
COMMANDS = ("!eject", "!archive")
SCANNER_ACTION = {"activate": {}}  # what a scan makes the turn's action (docs/site.md "Bot modules in play")


def clean_modules(modules) -> list[str]:
    """The game's available modules from what the creator sent: None or [] (none), "all", or a list of names
    of engine.MODULE_NAMES in any order, each once. Returned sorted."""
    if modules is None:
        return []
    if modules == "all":
        return sorted(engine.MODULE_NAMES)
    if not isinstance(modules, (list, tuple)):
        raise InvalidInput('modules: a list of module names, or "all"')
    seen: set[str] = set()
    for name in modules:
        if not isinstance(name, str) or name not in engine.MODULE_NAMES:
            shown = name if isinstance(name, str) else repr(name)
            raise InvalidInput(
                f"modules: unknown module {shown[:40]!r} (known: {', '.join(engine.MODULE_NAMES)})"
                if isinstance(name, str) else f"modules: {shown[:40]} is not a module name"
            )
        if name in seen:
            raise InvalidInput(f"modules: {name!r} is listed twice")
        seen.add(name)
    return sorted(seen)


def _locked_game(game_id: int, *, user=None) -> Game:
    """The game, its row locked. Given a `user`, only a game they may see (selectors.visible_games): a private
    game is missing to a stranger, in the same one query and with the same NotFound as an id that never
    existed, so no answer (status, message, flash) or query count tells the two apart."""
    games = Game.objects.select_for_update()
    if user is not None:
        games = selectors.visible_games(user=user, games=games)
    try:
        # No join: the game keeps its own copy of the layout, and the course row (its name, player limits)
        # is read only where needed.
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"game {game_id} does not exist") from None


def _visible_for_update(staff: bool, *, game_id: int, user_id: int):
    from django.contrib.auth import get_user_model

    placeholder = get_user_model()(pk=user_id, is_staff=staff)
    return selectors.visible_games(user=placeholder, games=Game.objects.select_for_update()).filter(pk=game_id)


_visible_lock = compiled.Compiled(_visible_for_update)


def _locked_visible_game(game_id: int, *, user) -> Game:
    """`_locked_game(game_id, user=user)` for the hot path: the same query (selectors.visible_games, two EXISTS
    subqueries), compiled once per process. One query either way, and a private game's stranger gets the
    NotFound of a missing id."""
    if not (user and user.is_authenticated) or not isinstance(game_id, int):
        return _locked_game(game_id, user=user)
    # An id no integer column holds (SQLite refuses to bind it) is a missing game, as the ORM's paths answer.
    fits = 0 < game_id < 2**63
    game = next(iter(_visible_lock.run(bool(user.is_staff), game_id=game_id, user_id=user.pk)), None) if fits else None
    if game is None:
        raise NotFound(f"game {game_id} does not exist")
    return game


def _seats_with_turn(_variant, *, game_id: int, turn: int):
    hands = Hand.objects.filter(seat=OuterRef("pk"), turn=turn).values("chips")[:1]
    programs = Program.objects.filter(seat=OuterRef("pk"), turn=turn).values("pk")[:1]
    return Seat.objects.filter(game_id=game_id).annotate(
        turn_hand=Subquery(hands), turn_program=Subquery(programs)).order_by("number")


_seats_and_turn = compiled.Compiled(_seats_with_turn)


def _seats_hands_programs(game: Game) -> tuple[list[Seat], dict[int, list], set[int]]:
    """The game's seats, with this turn's hand of each ({seat id: chips}) and the seats that have a program:
    one query where three were (a program's hot path)."""
    seats = _seats_and_turn.run(game_id=game.pk, turn=game.turn)
    hands = {seat.pk: json.loads(seat.turn_hand) if isinstance(seat.turn_hand, str) else seat.turn_hand
             for seat in seats if seat.turn_hand is not None}
    return seats, hands, {seat.pk for seat in seats if seat.turn_program is not None}


def append_event(game: Game, kind: str, data: dict | None = None) -> GameEvent:
    """Number and store a public event; the caller holds the game lock and saves the game."""
    game.version += 1
    event = GameEvent(game=game, version=game.version, kind=kind, data=data or {})
    broadcast.store_event(event)  # at once, or with the others of a program's or a resolution's transaction
    broadcast.send_after_commit(event)
    if kind in lobby_feed.KINDS:
        lobby_feed.changed(game=game, kind=kind)
    return event


def _clock_reading(seats: list[Seat], now: datetime) -> dict:
    """What the `clocks` event (and a `seat_ready`) tells browsers: the seats' clocks as of `now`."""
    return {"server_time": now.isoformat(), "seats": [clocks.public(seat, now) for seat in seats]}


def _clocks_event(game: Game, seats: list[Seat], now: datetime) -> None:
    append_event(game, "clocks", _clock_reading(seats, now))


def _schedule_resolution(game: Game) -> None:
    from games.tasks import resolve_turn_task

    game_id, turn = game.pk, game.turn
    # robust: if Redis is down the task is lost, and the beat sweep re-enqueues the resolution.
    transaction.on_commit(lambda: resolve_turn_task.delay(game_id, turn), robust=True)


def _live_seats(game: Game, state: engine.State, seats: list[Seat] | None = None) -> list[Seat]:
    """Seats whose bot is still in the game (on the course, or with a life left to respawn); `seats` saves
    the query when the caller has them."""
    seats = game.seats.all() if seats is None else seats
    return [seat for seat in seats if seat.ejected_at is None and state.bot(seat.bot_id).in_game]


def _deal(game: Game, state: engine.State, now: datetime, last_turn: dict | None = None) -> None:
    """Deal the turn's hands and start the clocks of the seats that must program.

    A rebooting bot's program (five "0" chips) is entered for it at once and its clock stays stopped.
    `last_turn` ({"number", "events"}): the turn just resolved, for the pushed snapshots.
    """
    hands = engine.deal(state, engine.derive_seed(game.seed, game.turn, "deal"))
    seats = {seat.bot_id: seat for seat in selectors.seats_of(game=game)}
    compiled.insert_many(
        [Hand(seat=seats[bot_id], turn=game.turn, chips=list(chips)) for bot_id, chips in hands.items()]
    )
    thinking, submitted, computers, entered = [], set(), [], {}
    for bot_id in hands:
        seat = seats[bot_id]
        required = engine.required_program(state.bot(bot_id), state.ruleset)
        if required is not None:
            entered[seat.pk] = Program.objects.create(seat=seat, turn=game.turn, chips=list(required))
            submitted.add(seat.pk)
            append_event(game, "seat_ready", {"seat": seat.number})
        elif seat.autopilot:
            computers.append(seat)  # its owner's clock stays stopped while a computer plays for them
        else:
            clocks.start(seat, now)
            thinking.append(seat)
            if seat.computer:
                computers.append(seat)
    _schedule_computers(game, computers)
    # One UPDATE per distinct deadline: usually one, as every clock reloads to the same times. Django's
    # bulk_update builds a CASE per row and field, a tenth of a resolution's CPU (make bench-site).
    started: dict[tuple, list[int]] = {}
    for seat in thinking:
        started.setdefault((seat.deadline, seat.expired), []).append(seat.pk)
    for (deadline, expired), seat_ids in started.items():
        compiled.update_many(Seat, seat_ids, clock_started_at=now, deadline=deadline, expired=expired)
    _notify_turn(game, [seat for seat in thinking if not seat.computer])
    ordered = sorted(seats.values(), key=lambda seat: seat.number)
    _clocks_event(game, ordered, now)
    # The turn's only programs are those just entered (the game row is locked).
    _execute_when_all_ready(game, state, now, seats=ordered, submitted=submitted)
    # The turn's hands and programs are those just written: the pushed snapshots need not read them back.
    dealt = {"hands": {seats[bot_id].pk: list(chips) for bot_id, chips in hands.items()}, "programs": entered}
    _push_snapshots(game, last_turn, dealt)


def _push_snapshots(game: Game, last_turn: dict | None = None, dealt: dict | None = None) -> None:
    """Once the deal commits, every player's snapshot of the new turn, their hand included, goes to their own
    sockets on the game's page: no player has to ask for one after `turn_dealt`. Built right after the commit
    from the game as it was committed (the caller held its lock and is done with it) and its seats read then;
    the turn's hands and programs are the deal's (`dealt`) and the last turn the one just stored
    (`last_turn`) when the caller passes them, else they are read then too."""

    def push() -> None:
        broadcast.push_snapshots(selectors.game_snapshots(game=game, last_turn=last_turn, dealt=dealt))

    transaction.on_commit(push, robust=True)


def _notify_turn(game: Game, seats: list[Seat]) -> None:
    """"Your turn": a WebSocket message to each player's own group, and an e-mail in slow games."""
    from games.tasks import send_turn_emails

    if not seats:
        return
    game_id, turn = game.pk, game.turn
    course = kinds.of(game).board_name(game)
    notices = [
        (seat.user_id, {"type": "your_turn", "game": game_id, "turn": turn, "course": course,
                        "deadline": seat.deadline.isoformat() if seat.deadline else None,
                        "server_time": seat.clock_started_at.isoformat() if seat.clock_started_at else None})
        for seat in seats
    ]
    transaction.on_commit(lambda: broadcast.notify_users(notices), robust=True)
    if game.move_time >= clocks.E_MAIL_FROM_MOVE_TIME:
        seat_ids = [seat.pk for seat in seats]
        transaction.on_commit(lambda: send_turn_emails.delay(game_id, turn, seat_ids), robust=True)


def _execute_when_all_ready(
    game: Game, state: engine.State, now: datetime, *, seats: list[Seat] | None = None,
    submitted: set[int] | None = None,
) -> None:
    """Once every seat still in the game has a program, the turn executes (in a worker, after commit).
    `seats` and `submitted` (seat ids with a program this turn) save the queries when the caller has them."""
    if game.status != Game.Status.PROGRAMMING:
        return
    if submitted is None:
        submitted = set(Program.objects.filter(seat__game=game, turn=game.turn).values_list("seat_id", flat=True))
    if all(seat.pk in submitted for seat in _live_seats(game, state, seats)):
        game.status = Game.Status.RESOLVING
        game.resolving_since = now
        append_event(game, "turn_executing", {"turn": game.turn})
        _schedule_resolution(game)


_parsed_states: OrderedDict[int, tuple[dict, engine.State]] = OrderedDict()


def _state(game: Game) -> engine.State:
    """The game's engine state, parsed again only when its stored state changed: the four programs of a turn
    parse the same state (engine states are immutable, so one is shared). The stored dict is compared with
    a private copy of the one parsed, so nothing that edits a game's dict in place can make a stale hit."""
    with _parsed_courses_lock:
        cached = _parsed_states.get(game.pk)
    if cached is not None and cached[0] == game.state:
        return cached[1]
    state = engine.state_from_dict(game.state, _course(game))
    with _parsed_courses_lock:
        _parsed_states[game.pk] = (orjson.loads(orjson.dumps(game.state, option=orjson.OPT_NON_STR_KEYS)), state)
        _parsed_states.move_to_end(game.pk)
        while len(_parsed_states) > PARSED_COURSES_KEPT:
            _parsed_states.popitem(last=False)
    return state


_parsed_courses: OrderedDict[tuple, engine.Course] = OrderedDict()
_parsed_courses_lock = threading.Lock()  # requests run in threads
PARSED_COURSES_KEPT = 256


def _course(game: Game) -> engine.Course:
    """The game's course, parsed once per process: a game's copy of its course never changes after it is
    created (its id and creation time name it), and an engine Course is immutable. Parsing it was a tenth
    of a program submission's time (make bench-site)."""
    key = (game.pk, game.created_at)
    with _parsed_courses_lock:
        course = _parsed_courses.get(key)
        if course is not None:
            _parsed_courses.move_to_end(key)
            return course
    course = engine.parse_course(game.course_data)
    with _parsed_courses_lock:
        _parsed_courses[key] = course
        while len(_parsed_courses) > PARSED_COURSES_KEPT:
            _parsed_courses.popitem(last=False)
    return course


def timer_settings(*, preset: str, move_time: int | None = None, game_time: int | None = None) -> tuple[int, int]:
    """The (move, game) seconds of a preset; "custom" takes them from the caller, within limits."""
    if preset in clocks.PRESETS:
        return clocks.PRESETS[preset]
    if preset != Game.Preset.CUSTOM:
        raise InvalidInput(f"timer_preset: {preset!r} is not one of {', '.join(Game.Preset.values)}")
    if move_time is None or game_time is None:
        raise InvalidInput("timer_preset: custom timers need move_time and game_time (seconds)")
    if not clocks.MIN_MOVE_TIME <= move_time <= clocks.MAX_MOVE_TIME:
        raise InvalidInput(f"move_time: from {clocks.MIN_MOVE_TIME} to {clocks.MAX_MOVE_TIME} seconds, not {move_time}")
    if not 0 <= game_time <= clocks.MAX_GAME_TIME:
        raise InvalidInput(f"game_time: from 0 to {clocks.MAX_GAME_TIME} seconds, not {game_time}")
    return move_time, game_time


def _seat_color(user, taken: set[str], number: int) -> str:
    """The player's preferred colour if it is free in this game, else the seat number's colour (or the first
    free one)."""
    preferred = Profile.objects.filter(user=user).values_list("color", flat=True).first()
    for color in (preferred, SEAT_COLORS[number - 1], *SEAT_COLORS):
        if color and color not in taken:
            return color
    return SEAT_COLORS[number - 1]


def check_open_lobbies(*, user) -> None:
    """Refuse (429) a new lobby to an account that already has OPEN_LOBBIES_PER_ACCOUNT games it created and
    nobody started (test drives aside; tournament tables and Pyramid challenges start at once). In the caller's
    transaction: the account's row is locked, so two creates at once are counted one after the other."""
    limit = settings.OPEN_LOBBIES_PER_ACCOUNT
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if Game.objects.filter(creator=user, status=Game.Status.LOBBY, test_drive=False).count() >= limit:
        # A sentence (the lobby form, the game screen's "play again" show it as it is): docs/api.md.
        raise RateLimited(f"You already have {limit} open games waiting for players. Start or cancel one "
                          "before creating another.")


@transaction.atomic
def create_game(
    *,
    user,
    course: Course,
    max_seats: int | None = None,
    lives: int = 3,
    visibility: str = Game.Visibility.PUBLIC,
    timer_preset: str = Game.Preset.REALTIME,
    move_time: int | None = None,
    game_time: int | None = None,
    timeout_policy: str = Game.TimeoutPolicy.WAIT,
    course_data: dict | None = None,
    test_drive: bool = False,
    modules=None,
    rated: bool = True,
    teams: bool = False,
    ruleset: str = engine.rulesets.DEFAULT,
    options: dict | None = None,
    use: str = setup.LOBBY,
    computers: int = 0,
) -> Game:
    """A new game in the lobby, the creator in seat 1. `course_data`: the layout to play on (the course's
    current one by default; play again keeps the finished game's own copy). `test_drive`: the course builder's
    test drive, whose copy of the course takes from 1 player, so any number seated may start it. `use` and
    `computers` (the computer seats to come): what the game is for, as games.setup's policy asks."""
    course_data = course.data if course_data is None else course_data
    mode = course_data.get("mode", "race")
    if test_drive:
        use = setup.TEST_DRIVE
    puzzle = course_data.get("puzzle") if mode == "puzzle" else None
    if mode == "puzzle":
        # A puzzle seats its own number of players (docs/modes.md "Puzzles").
        max_seats = (puzzle or {}).get("players", course.min_players)
    max_seats = course.max_players if max_seats is None else max_seats
    minimum = course.min_players
    if test_drive:
        minimum = 1
        course_data = {**course_data, "players": [1, course.max_players]}
    if not minimum <= max_seats <= course.max_players:
        raise InvalidInput(
            f"{course.name} takes {minimum} to {course.max_players} players, not {max_seats}"
        )
    if not 1 <= lives <= MAX_LIVES:
        raise InvalidInput(f"lives must be from 1 to {MAX_LIVES}, not {lives}")
    if visibility not in Game.Visibility.values:
        raise InvalidInput(f"visibility: {visibility!r} is not one of {', '.join(Game.Visibility.values)}")
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise InvalidInput(f"timeout_policy: {timeout_policy!r} is not one of {', '.join(Game.TimeoutPolicy.values)}")
    move, game_seconds = timer_settings(preset=timer_preset, move_time=move_time, game_time=game_time)
    modules = clean_modules(modules)
    options = setup.check_setting(course_data=course_data, use=use, ruleset=ruleset, seats=max_seats,
                                  computers=computers, modules=modules, teams=teams, options=options)
    if use == setup.LOBBY and not (puzzle is not None and max_seats == 1):  # a solo puzzle starts at once
        check_open_lobbies(user=user)
    game = Game.objects.create(
        course=course,
        course_data=course_data,
        creator=user,
        max_seats=max_seats,
        lives=lives,
        # A puzzle game's own seed, every other game's secret one (games.setup.game_seed, docs/modes.md).
        seed=setup.game_seed(course_data=course_data, use=use),
        visibility=visibility,
        invite_code=secrets.token_urlsafe(12) if visibility == Game.Visibility.PRIVATE else "",
        timer_preset=timer_preset,
        move_time=move,
        game_time=game_seconds,
        timeout_policy=timeout_policy,
        test_drive=test_drive,
        modules=modules,
        rated=bool(rated),  # the creator's wish; roboracer.ratings.selectors.is_rated decides (docs/ratings.md)
        teams=bool(teams),
        ruleset=ruleset,
        options=options,
    )
    Seat.objects.create(game=game, user=user, number=1, color=_seat_color(user, set(), 1))
    append_event(game, "game_created", {"seat": 1})
    if puzzle is not None and max_seats == 1 and not test_drive:
        _start(game)  # a solo puzzle starts at once: nobody to wait for
        game.save()
        return game
    game.save(update_fields=["version"])
    return game


MIN_TEAM_GAME = setup.MIN_TEAM_GAME  # two bots a team (003 "Team Play": "two teams of two or more bots")
TEAMS = ("blue", "orange")


def _team_sizes(seats) -> dict[str, int]:
    return {team: sum(1 for seat in seats if seat.team == team) for team in TEAMS}


@transaction.atomic
def choose_team(*, user, game_id: int, team: str, seat_number: int | None = None) -> Seat:
    """A player picks their team in the lobby of a team game; the creator may place any seat."""
    game = _locked_game(game_id, user=user)
    if team not in TEAMS:
        raise InvalidInput("team: 'blue' or 'orange'")
    if not game.teams:
        raise Conflict("this game is not a team game")
    if game.status != Game.Status.LOBBY:
        raise Conflict("teams are chosen in the lobby, before the game starts")
    seats = list(game.seats.all())
    if seat_number is None:
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed("you have no seat in this game")
    else:
        if game.creator_id != user.pk:
            raise NotAllowed("only the game's creator can place other players on a team")
        seat = next((seat for seat in seats if seat.number == seat_number), None)
        if seat is None:
            raise NotFound(f"game {game_id} has no seat {seat_number}")
    if seat.team != team:
        seat.team = team
        seat.save(update_fields=["team"])
        append_event(game, "team_chosen", {"seat": seat.number, "team": team})
        game.save(update_fields=["version", "updated_at"])
    return seat


@transaction.atomic
def balance_teams(*, user, game_id: int) -> list[Seat]:
    """The creator splits the seated players into two teams of equal size (one more on Blue when odd), by
    shown rating in snake order (1st Blue, 2nd and 3rd Orange, 4th and 5th Blue...)."""
    game = _locked_game(game_id, user=user)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can balance the teams")
    if not game.teams:
        raise Conflict("this game is not a team game")
    if game.status != Game.Status.LOBBY:
        raise Conflict("teams are chosen in the lobby, before the game starts")
    seats = list(game.seats.order_by("number"))
    shown = ratings.shown_ratings_of(users=[seat.user_id for seat in seats])
    ranked = sorted(seats, key=lambda seat: (-(shown.get(seat.user_id) or 0), seat.number))
    for index, seat in enumerate(ranked):
        seat.team = TEAMS[0] if index % 4 in (0, 3) else TEAMS[1]
    Seat.objects.bulk_update(seats, ["team"])
    append_event(game, "teams_balanced", {"teams": {seat.number: seat.team for seat in seats}})
    game.save(update_fields=["version", "updated_at"])
    return seats


def _teams_at_start(game: Game, seats: list[Seat]) -> dict[str, str] | None:
    """The seats' teams when a team game starts: a seat with none joins the smaller team (Blue on a tie). The
    caller saves them. Refused unless each team then has two bots."""
    if not game.teams:
        return None
    for seat in seats:
        if seat.team not in TEAMS:
            sizes = _team_sizes(seats)
            seat.team = min(TEAMS, key=lambda team: (sizes[team], TEAMS.index(team)))
    sizes = _team_sizes(seats)
    if min(sizes.values()) < 2:
        raise Conflict(f"team play needs at least two players on each team (Blue {sizes['blue']}, Orange {sizes['orange']})")
    return {seat.bot_id: seat.team for seat in seats}


@transaction.atomic
def create_seated_game(*, creator, users: list, course: Course, computers: tuple[str, ...] | list[str] = (),
                       **options) -> Game:
    """A game made by the site for players it seats itself (a tournament table, a pyramid challenge): created
    by `creator` (an organiser, a challenger) with `create_game`'s options, `users` seated in that order
    (seat 1 the first; the creator need not be among them), then one computer player of each strength in
    `computers` (a tournament table filled up; the game is then unrated), and started at once, turn 1 dealt
    and the players notified. `options` are create_game's (max_seats defaults to the number of seats)."""
    if not users or len({user.pk for user in users}) != len(users):
        raise InvalidInput("a seated game needs distinct players")
    for strength in computers:
        _check_strength(strength)
    total = len(users) + len(computers)
    options.setdefault("max_seats", total)
    # Competitive: a tournament table unless the caller says (the Pyramid does). games.setup refuses puzzle
    # courses here, and computer players on a course they can't play.
    options.setdefault("use", setup.TOURNAMENT)
    options["computers"] = len(computers)
    if computers:
        options["rated"] = False
    game = create_game(user=creator, course=course, **options)
    return seat_and_start(game, users=users, computers=computers)


def seat_and_start(game: Game, *, users: list, computers: tuple[str, ...] | list[str] = ()) -> Game:
    """A new lobby's seats given to `users` in that order and then to computer players of `computers`' strengths,
    and the game started: a game the site seats itself, of any kind (games.kinds). In the caller's transaction."""
    total = len(users) + len(computers)
    Seat.objects.filter(game=game).delete()
    game = _locked_game(game.pk)
    taken: set[str] = set()
    placed = []
    for number, user in enumerate(users, start=1):
        color = _seat_color(user, taken, number)
        taken.add(color)
        placed.append(Seat.objects.create(game=game, user=user, number=number, color=color))
    for number, strength in enumerate(computers, start=len(users) + 1):
        placed.append(_seat_computer(game, placed, strength, number))
    if total < selectors.start_minimum(game):
        raise InvalidInput(f"{game.board_name} needs at least {selectors.start_minimum(game)} players")
    game.max_seats = total
    _start(game)
    game.save()
    return game


@transaction.atomic
def join_game(*, user, game_id: int, invite: str = "") -> Seat:
    # Without an invite, only a game the user may see (public, or private with their seat, or staff); with
    # one, a private game must match it. Either way a stranger gets the NotFound of a missing id.
    game = _locked_game(game_id) if invite else _locked_game(game_id, user=user)
    if invite and game.visibility == Game.Visibility.PRIVATE and not selectors.invite_matches(game=game, code=invite):
        raise NotFound(f"game {game_id} does not exist")
    if game.status != Game.Status.LOBBY:
        raise Conflict("this game has already started")
    seats = list(game.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict("you already have a seat in this game")
    if len(seats) >= game.max_seats:
        raise Conflict("this game is full")
    taken = {seat.number for seat in seats}
    number = min(n for n in range(1, game.max_seats + 1) if n not in taken)
    color = _seat_color(user, {seat.color for seat in seats}, number)
    seat = Seat.objects.create(game=game, user=user, number=number, color=color)
    append_event(game, "seat_joined", {"seat": number, "user": user.get_username(), "color": color})
    if len(seats) + 1 == game.max_seats and not game.teams:
        _start(game)  # a team game waits for its creator, who may still arrange the teams (docs/modes.md)
    game.save()
    return seat


@transaction.atomic
def leave_game(*, user, game_id: int) -> Game:
    """In the lobby: give the seat up. In a running game: resign (the bot is ejected)."""
    game = _locked_game(game_id, user=user)
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    if game.status == Game.Status.LOBBY:
        if game.creator_id == user.pk:
            raise Conflict("you created this game: cancel it instead of leaving")
        seat.delete()
        if game.visibility == Game.Visibility.PRIVATE:  # their sockets check again, before any frame of this
            game_id, user_id = game.pk, user.pk
            transaction.on_commit(lambda: broadcast.access_changed(game_id, user_id), robust=True)
        lobby_feed.changed(game=game, left=(user.pk,))
        append_event(game, "seat_left", {"seat": seat.number})
    elif game.status == Game.Status.PROGRAMMING:
        if seat.ejected_at is not None or not kinds.of(game).in_game(game, seat):
            raise Conflict("your bot is already out of this game")
        _eject(game, [seat], by=user.get_username(), reason="resigned")
    elif game.status == Game.Status.RESOLVING:
        raise Conflict("a turn is being played; leave once it has been")
    else:
        raise Conflict(f"this game is {game.status}")
    game.save()
    return game


@transaction.atomic
def cancel_game(*, user, game_id: int) -> Game:
    game = _locked_game(game_id, user=user)
    if game.creator_id != user.pk and not user.is_staff:
        raise NotAllowed("only the game's creator can cancel it")
    if game.status != Game.Status.LOBBY:
        raise Conflict("only a game that has not started can be cancelled")
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    append_event(game, "game_cancelled", {})
    game.save()
    return game


# Organisers' actions on a game (tournaments, the Pyramid): they go through these, never by writing the game's
# rows themselves (issue 35). Each runs in the caller's transaction, on a game whose row the caller has locked
# (`locked_game`).

def locked_game(*, game_id: int) -> Game:
    """The game with its row locked, for an organiser's action in the caller's transaction."""
    return _locked_game(game_id)


def add_game_time(*, game: Game, seconds: int, now: datetime) -> bool:
    """`seconds` more game time for every seat still playing (an organiser's extension): a running deadline
    moves on as much, and a clock that had run out runs again if its deadline is now ahead. A `clocks` event
    tells the screens. False, and nothing changed, for a game that has ended."""
    if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
        return False
    playing = Seat.objects.filter(game=game, ejected_at__isnull=True)
    playing.update(game_left=F("game_left") + seconds)
    playing.filter(deadline__isnull=False).update(deadline=F("deadline") + timedelta(seconds=seconds))
    playing.filter(expired=True, deadline__gt=now).update(expired=False)
    seats = list(game.seats.order_by("number"))
    append_event(game, "clocks", {"server_time": now.isoformat(), "seats": [clocks.public(s, now) for s in seats]})
    game.save(update_fields=["version", "updated_at"])
    return True


def hand_seat_to(*, seat: Seat, user) -> None:
    """A substitute takes a seat (a tournament's replacement, checked by the organiser's service first)."""
    seat.user = user
    seat.save(update_fields=["user"])


def cancel_for(*, game: Game, reason: str, now: datetime) -> None:
    """The game ends, cancelled, with `reason` in its `game_cancelled` event (a revoked Pyramid challenge): no
    clock runs on and there is no result."""
    game.status = Game.Status.CANCELLED
    game.finished_at = now
    Seat.objects.filter(game=game).update(clock_started_at=None, deadline=None)
    append_event(game, "game_cancelled", {"reason": reason})
    game.save(update_fields=["status", "finished_at", "version", "updated_at"])


@transaction.atomic
def start_game(*, user, game_id: int) -> Game:
    game = _locked_game(game_id, user=user)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can start it")
    if game.status != Game.Status.LOBBY:
        raise Conflict("this game has already started")
    seats = game.seats.count()
    minimum = selectors.start_minimum(game)  # a test drive starts with whoever is seated
    if seats < minimum:
        raise Conflict(f"{kinds.of(game).board_name(game)} needs at least {minimum} player(s); {seats} seated")
    _start(game)
    game.save()
    return game


def play_again(*, user, game_id: int) -> tuple[Game, bool]:
    """"Play again" on a finished game: a new lobby on the same course (the finished game's own copy of it) and
    settings (seats, lives, visibility, timers, timeout policy), the presser in seat 1, and the finished game's
    other players invited (a notice on their own socket; the game in their "My games"; a private game lets
    them in without its code). Exactly once: a second press, or another player's at the same moment, gets the
    same new game. Returns (the new game, whether this call made it)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seats = list(game.seats.select_related("user").order_by("number"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            if game.visibility == Game.Visibility.PRIVATE and not user.is_staff:
                raise NotFound(f"game {game_id} does not exist")  # a private game is absent to strangers
            raise NotAllowed("only the players of this game can play it again")
        if game.status != Game.Status.FINISHED:
            raise Conflict("only a finished game can be played again")
        competition = selectors.competition(game=game)
        if competition is not None:  # a tournament's table: the tournament seats its players' next games
            raise Conflict(f"this game was played in the {competition['kind']} {competition['name']}, which seats "
                           "its players' next games: it is not played again")
        if game.rematch_id is not None:
            return Game.objects.get(pk=game.rematch_id), False
        if game.test_drive and not selectors.may_test_drive(user=user, course_id=game.course_id):
            # A guest of a test drive would otherwise re-create the author's private draft (issue 33 item 12).
            raise NotAllowed("only the course's author and staff can play a test drive again")
        new = kinds.of(game).recreate(game, user=user)
        computers = [seat.computer for seat in seats if seat.computer]
        if computers:
            _rematch_computers(new, computers)  # the computer players come back to the new lobby
        # The row lock makes this the only writer on PostgreSQL; the condition keeps it so on any database.
        if not Game.objects.filter(pk=game.pk, rematch__isnull=True).update(rematch=new):
            raise Conflict("this game was played again meanwhile: open it from the results")
        game.rematch = new
        append_event(game, "rematch", {"game": new.pk, "seat": mine.number})
        game.save(update_fields=["version", "updated_at"])
        notice = selectors.rematch_notice(old=game, new=new, by=user)
        notices = [(seat.user_id, notice) for seat in seats if seat.user_id != user.pk]
        transaction.on_commit(lambda: broadcast.notify_users(notices), robust=True)
    return new, True


def _rematch_computers(game: Game, strengths: list[str]) -> None:
    """Play again with computer players: they take the new lobby's free seats again, and a game that fills up
    starts at once (a practice game plays on with one click). The caller holds the transaction."""
    game = _locked_game(game.pk)
    why = _computer_refusal(game, computers=len(strengths))
    if why is not None:
        raise Conflict(why)
    placed = list(game.seats.all())
    for strength in strengths:
        free = [n for n in range(1, game.max_seats + 1) if n not in {seat.number for seat in placed}]
        if not free:
            break
        seat = _seat_computer(game, placed, strength, free[0])
        placed.append(seat)
        _computer_joined(game, seat)
    game.rated = False
    if len(placed) == game.max_seats and not game.teams:
        _start(game)
    game.save()


def _start(game: Game) -> None:
    """Start the game as its kind does (games.kinds). The caller holds the lock and saves."""
    kinds.of(game).start(game)


def recreate_roboracer(game: Game, *, user) -> Game:
    """Play again on a RoboRacer game: the same course (the finished game's own copy) and settings."""
    return create_game(
        user=user,
        course=Course.objects.get(pk=game.course_id),
        course_data=game.course_data,
        max_seats=game.max_seats,
        lives=game.lives,
        visibility=game.visibility,
        timer_preset=game.timer_preset,
        move_time=game.move_time,
        game_time=game.game_time,
        timeout_policy=game.timeout_policy,
        test_drive=game.test_drive,
        modules=list(game.modules),
        rated=game.rated,
        ruleset=game.ruleset,
        options=dict(game.options),
    )


def start_roboracer(game: Game) -> None:
    """Place the bots on the starts in seat order and deal turn 1. The caller holds the lock and saves."""
    now = timezone.now()
    course = _course(game)
    seats = list(game.seats.order_by("number"))
    # Starts go by joining order: start 1 to the first seat, and so on.
    # The modules' starting prices: the course's book, or the all-course average while the course is new
    # (docs/rules.md "The module economy on the site"). Taken now, when the game starts.
    prices = {}
    if game.modules:
        economy.ensure_book(course_id=game.course_id)
        prices = economy_selectors.starting_prices(course=game.course, modules=game.modules)
    teams = _teams_at_start(game, seats)
    state = engine.new_game(
        course, [seat.bot_id for seat in seats], lives=game.lives, modules=game.modules, prices=prices, teams=teams,
        ruleset=game.ruleset, options=game.options,
    )  # fmt: skip
    for seat in seats:
        seat.move_left, seat.game_left = float(game.move_time), float(game.game_time)
    Seat.objects.bulk_update(seats, ["move_left", "game_left", "team"])
    game.state = engine.state_to_dict(state)
    game.status = Game.Status.PROGRAMMING
    game.turn = 1
    game.started_at = now
    game.max_seats = len(seats)
    append_event(game, "game_started", {"turn": 1, "modules": list(game.modules), "prices": state.prices})
    _deal(game, state, now)


@transaction.atomic
def submit_program(
    *, user, game_id: int, turn: int, chips: list, reboot: bool = False, action: dict | None = None
) -> Program:
    """Record (or replace) a seat's program for the current turn; the last one in schedules resolution.

    The hot path of a game (four per turn): one read of the seats and one of the turn's programs serve
    every check, and only the game's changed columns are written. A person whose seat a computer plays
    (timeout policy "computer") takes it back with this program.
    """
    game = _locked_visible_game(game_id, user=user)
    seats, hands, submitted = _seats_hands_programs(game)
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    with broadcast.batched_events():  # seat_ready, and turn_executing from the last program: one message
        program = _record_program(game, seats, seat, turn=turn, chips=chips, reboot=reboot, action=action,
                                  hand=hands.get(seat.pk), submitted=submitted)
        if seat.autopilot:
            _hand_back(game, seat)
    compiled.update(game, ["version", "status", "resolving_since", "updated_at"])
    return program


@transaction.atomic
def submit_computer_program(
    *, game_id: int, seat_number: int, turn: int, chips: list, reboot: bool = False, action: dict | None = None
) -> Program | None:
    """A computer player's program, through the same checks as a person's. For a computer seat, or a person's
    seat under autopilot that has no program of its owner this turn. None when the moment has passed (the
    turn moved on, the owner took the seat back): a late computer changes nothing."""
    game = _locked_game(game_id)
    seats = list(game.seats.all())
    seat = next((seat for seat in seats if seat.number == seat_number), None)
    if seat is None or not (seat.computer or seat.autopilot):
        raise NotAllowed(f"seat {seat_number} is not played by a computer")
    if game.status != Game.Status.PROGRAMMING or turn != game.turn or seat.ejected_at is not None:
        return None
    if Program.objects.filter(seat=seat, turn=turn).exists():
        return None  # sent already (a repeated task), or its owner took the seat back
    program = _record_program(game, seats, seat, turn=turn, chips=chips, reboot=reboot, action=action)
    game.save(update_fields=["version", "status", "resolving_since", "updated_at"])
    return program


_UNREAD = object()


def _record_program(game: Game, seats: list[Seat], seat: Seat, *, turn: int, chips: list, reboot: bool,
                    action: dict | None, hand=_UNREAD, submitted: set[int] | None = None) -> Program:
    """The checks and the write of a program, whoever sends it (a person, a computer player). The caller holds
    the game lock and saves the game. `hand` (this turn's chips of the seat, None if it has none) and
    `submitted` (the seats with a program this turn) save their queries when the caller read them."""
    if not kinds.of(game).takes_chips:
        raise InvalidInput(f"a {kinds.of(game).title} game takes no chips: send moves to /api/games/{game.pk}/move/")
    if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
        raise Conflict(f"this game is {game.status}")
    if seat.ejected_at is not None:
        raise Conflict("your bot was ejected from this game")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"this game takes no programs now (it is {game.status})")
    if turn != game.turn:
        raise Conflict(f"turn {turn} is not the current turn ({game.turn})")
    state = _state(game)
    bot = state.bot(seat.bot_id)
    if hand is _UNREAD:
        hand = Hand.objects.filter(seat=seat, turn=game.turn).values_list("chips", flat=True).first()
    if hand is None or not bot.in_game:
        raise Conflict("your bot has no program to run this turn")
    if "scanner" in game.modules and _scanned(seat, game.turn):
        # After a scan the turn's action is the Scanner's activation (docs/site.md "Bot modules in play").
        if action is not None and action != SCANNER_ACTION:
            raise InvalidInput("action: you scanned this turn, so this turn's action is the Scanner's activation; "
                               'send no action or {"activate": {}}')
        action = SCANNER_ACTION
    if reboot and state.mode == "arena":
        raise InvalidInput("reboot: bots can't reboot in an arena (003 \"Rebooting\")")
    if reboot and not engine.rulesets.get(state.ruleset).reboots:
        raise InvalidInput(f"reboot: {engine.rulesets.get(state.ruleset).title} has no reboot")
    _check_program(bot, hand, chips, action, state)
    # The game row is locked, so no other request adds this seat's program meanwhile.
    if submitted is None:
        submitted = set(Program.objects.filter(seat__game=game, turn=game.turn).values_list("seat_id", flat=True))
    created = seat.pk not in submitted
    if created:
        program = compiled.insert(Program(
            seat=seat, turn=game.turn, chips=list(chips), reboot=bool(reboot), action=action
        ))
        submitted = submitted | {seat.pk}
    else:
        program = Program.objects.get(seat=seat, turn=game.turn)
        program.chips, program.reboot, program.action = list(chips), bool(reboot), action
        program.save(update_fields=["chips", "reboot", "action", "submitted_at"])
    now = timezone.now()
    if created:
        live = _live_seats(game, state, seats)
        if clocks.running(seat):
            clocks.stop(seat, now)
            clocks.reload(
                seat, maximum=game.move_time, opponents_thinking=any(other.pk not in submitted for other in live)
            )
            compiled.update(seat, ["move_left", "game_left", "clock_started_at", "deadline", "expired"])
        # Only this seat's clock changed: its reading rides on the event (one message fewer per program).
        append_event(game, "seat_ready", {"seat": seat.number, "clocks": _clock_reading([seat], now)})
    _execute_when_all_ready(game, state, now, seats=seats, submitted=submitted)
    return program


def _scanned(seat: Seat, turn: int) -> bool:
    return Scan.objects.filter(seat=seat, turn=turn).exists()


def _check_program(bot: engine.Bot, hand: list, chips: list, action, state: engine.State) -> None:
    """engine.check_program, its refusal a 400 with its text. Whatever JSON comes in as the action, the engine
    answers a ProgramError; an exception of another kind still becomes a 400, never a 500."""
    rules = engine.rulesets.get(state.ruleset)
    if action is not None and not state.prices and rules.modules:
        raise InvalidInput("action: no modules are available in this game")
    if action is not None and not rules.modules and rules.requests is None:
        raise InvalidInput(f"action: {rules.title} takes no actions")
    try:
        error = engine.check_program(bot, hand, chips, action, state=state)
    except (TypeError, ValueError, KeyError, AttributeError, engine.InputError) as problem:
        raise InvalidInput(f"action: not an action ({type(problem).__name__})") from None
    if error is not None:
        raise InvalidInput(str(error))


def recompile_seed(game: Game, turn: int, bot_id: str) -> int:
    """The seed of a Recompile's new hand: derived from the game's secret seed, never published."""
    return engine.derive_seed(game.seed, turn, f"recompile-{bot_id}")


@transaction.atomic
def recompile(*, user, game_id: int, turn: int) -> dict:
    """000 "Recompile": the player discards this turn's instructions for new ones, at a cost of 2 damage, once
    a turn and before sending the program; the deadline does not change. The new hand is the player's alone;
    the damage is public (event `recompiled`), and the replay applies it again from the same derived seed."""
    game = _locked_game(game_id, user=user)
    seat = next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    if seat.ejected_at is not None:
        raise Conflict("your bot was ejected from this game")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"recompiling is only possible while programming (this game is {game.status})")
    if turn != game.turn:
        raise Conflict(f"turn {turn} is not the current turn ({game.turn})")
    rules = engine.rulesets.get(game.ruleset)
    if rules.redeal is None:
        raise InvalidInput(f"recompile: {rules.title} has no recompile")
    if Program.objects.filter(seat=seat, turn=turn).exists():
        raise Conflict("recompile: your program for this turn is already in")
    if game.events.filter(kind="recompiled", data__seat=seat.number, data__turn=turn).exists():
        raise Conflict("recompile: once a turn")
    hand = Hand.objects.filter(seat=seat, turn=turn).first()
    if hand is None:
        raise Conflict("your bot has no instructions this turn")
    seed = recompile_seed(game, turn, seat.bot_id)
    try:
        state, chips = rules.redeal(_state(game), seat.bot_id, seed)
    except engine.InputError as error:
        raise InvalidInput(f"recompile: {error}") from None
    game.state = engine.state_to_dict(state)
    hand.chips = list(chips)
    hand.save(update_fields=["chips"])
    # Public: no seed in it, since the seed draws the new hand (the replay derives it again, recompile_seed).
    append_event(game, "recompiled", {"seat": seat.number, "turn": turn, "bot": seat.bot_id,
                                      "damage": state.bot(seat.bot_id).damage})  # fmt: skip
    game.save(update_fields=["state", "version", "updated_at"])
    return {"turn": turn, "hand": list(chips)}


@transaction.atomic
def scan(*, user, game_id: int, turn: int) -> dict:
    """003 "Scanner": the owner of a Scanner with a usable charge sees the chips of the opponents' programs
    submitted so far, sorted (engine.scan). Free to repeat until the turn executes; the turn's action becomes
    the Scanner's activation, whose charge the engine takes at the start of the next turn. The result is kept
    for its owner alone (Scan), never in an event."""
    game = _locked_game(game_id, user=user)
    seats = list(game.seats.all())
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
        raise Conflict(f"this game is {game.status}")
    if seat.ejected_at is not None:
        raise Conflict("your bot was ejected from this game")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"scanning is only possible while programming (this game is {game.status})")
    if turn != game.turn:
        raise Conflict(f"turn {turn} is not the current turn ({game.turn})")
    state = _state(game)
    bot = state.bot(seat.bot_id)
    if not bot.in_game:
        raise Conflict("your bot is out of the game")
    from engine.modules.actions import action_problem

    if bot.module != "scanner":
        raise InvalidInput("scan: your bot has no Scanner installed")
    problem = action_problem(bot, SCANNER_ACTION, prices=state.prices, hand=None, program=None)
    if problem:
        raise InvalidInput(f"scan: {problem}")
    by_seat = {other.pk: other for other in seats}
    submitted = list(Program.objects.filter(seat__game=game, turn=game.turn))
    programs = {by_seat[p.seat_id].bot_id: p.chips for p in submitted if p.seat_id != seat.pk}
    try:
        shown = engine.scan(state, programs, seat.bot_id)
    except engine.InputError as error:
        raise InvalidInput(str(error)) from None
    Scan.objects.update_or_create(seat=seat, turn=game.turn, defaults={"programs": shown})
    mine = next((p for p in submitted if p.seat_id == seat.pk), None)
    if mine is not None and mine.action != SCANNER_ACTION:
        mine.action = SCANNER_ACTION
        mine.save(update_fields=["action"])
    return {"turn": game.turn, "programs": shown}


def _names(seats: list[Seat]) -> str:
    """The players' names as others see them, for system chat lines: "ada", "ada and bob", "ada, bob and cy"."""
    names = [account_selectors.player_name(user=seat.user) for seat in seats]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _forfeit_line(seats: list[Seat], *, by: str, by_name: str, reason: str) -> str:
    """The system chat line of an ejection: whoever leaves a running race forfeits it, and the line says so."""
    who = _names(seats)
    forfeits = "forfeits" if len(seats) == 1 else "forfeit"
    if reason == "resigned":
        return f"{who} forfeited (resigned)."
    if by == "timer":
        return f"{who} {forfeits}: out of game time, ejected automatically."
    if by == "staff":
        return f"{who} {forfeits}: ejected by a moderator."
    return f"{who} {forfeits}: out of game time, ejected by {by_name}."


def _eject(game: Game, seats: list[Seat], *, by: str, reason: str, by_name: str = "") -> list[int]:
    """Eject the seats' bots as the game's kind does (the caller holds the lock, the game is programming, and
    saves the game). `by` is the username (or "timer", "staff") the event records; `by_name` the name players
    see in the chat line."""
    return kinds.of(game).eject(game, seats, by=by, reason=reason, by_name=by_name)


def mark_ejected(game: Game, seats: list[Seat], *, by: str, now: datetime) -> None:
    """The seats' side of an ejection, whatever the game's kind: clocks stopped, marked ejected by `by`, and
    their programs of this turn gone."""
    for seat in seats:
        clocks.stop(seat, now)
        seat.ejected_at, seat.ejected_by, seat.expired = now, by, False
        seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline", "expired",
                                 "ejected_at", "ejected_by"])
    Program.objects.filter(seat__in=seats, turn=game.turn).delete()


def eject_roboracer(game: Game, state: engine.State, seats: list[Seat], *, by: str, reason: str,
                    by_name: str = "") -> list[int]:
    """Eject the seats' bots (the caller holds the lock, the game is programming, and saves the game).

    003 "!eject": after an ejection every remaining bot must resubmit, so their programs for this turn are
    cleared (a rebooting bot's automatic program stays) and their clocks run again. `by` is the username
    (or "timer", "staff") the event records; `by_name` the name players see in the chat line.
    """
    now = timezone.now()
    new_state, events = engine.eject(state, [seat.bot_id for seat in seats])
    mark_ejected(game, seats, by=by, now=now)
    game.state = engine.state_to_dict(new_state)
    numbers = [seat.number for seat in seats]
    _system_chat(game, _forfeit_line(seats, by=by, by_name=by_name or by, reason=reason))
    ejected = {"seats": numbers, "bots": [s.bot_id for s in seats], "by": by, "reason": reason, "turn": game.turn,
               "events": events}
    if new_state.finished:
        append_event(game, "seats_ejected", {**ejected, "resubmit": False})
        _finish(game, new_state, now)
        if game.winner is not None:
            _system_chat(game, f"{_names([game.winner])} wins by forfeit: every other robot is out of the race.")
        return numbers
    remaining = _live_seats(game, new_state)
    cleared = [
        seat for seat in remaining if engine.required_program(new_state.bot(seat.bot_id), new_state.ruleset) is None
    ]
    Program.objects.filter(seat__in=cleared, turn=game.turn).delete()
    for seat in cleared:
        if not clocks.running(seat) and not seat.autopilot:
            clocks.start(seat, now)
            seat.save(update_fields=["clock_started_at", "deadline", "expired"])
    _schedule_computers(game, [seat for seat in cleared if seat.computer or seat.autopilot])
    append_event(game, "seats_ejected", {**ejected, "resubmit": True})
    _clocks_event(game, list(game.seats.order_by("number")), now)
    _execute_when_all_ready(game, new_state, now)
    return numbers


def _chat_line(game: Game, **fields) -> dict:
    """Store a chat line and push it as a `chat` event; returns what the event carries. A team's line is no
    public event: it goes only to that team's players' own sockets (docs/modes.md "Team chat")."""
    message = ChatMessage.objects.create(game=game, **fields)
    data = selectors.chat_message(message=message)
    team = fields.get("team")
    if team:
        members = list(game.seats.filter(team=team, ejected_at__isnull=True).values_list("user_id", flat=True))
        message.readers.set([user_id for user_id in members if user_id is not None])  # who may ever read it
        game_id = game.pk
        transaction.on_commit(lambda: broadcast.push_team_chat(game_id, members, data), robust=True)
        return data
    append_event(game, "chat", data)
    return data


def _system_chat(game: Game, text: str) -> None:
    """A line the site writes into the game's chat (ejections, timers), pushed like any other."""
    _chat_line(game, text=text, system=True)


def _finish(game: Game, state: engine.State, now: datetime) -> None:
    seats = {seat.bot_id: seat for seat in game.seats.all()}
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.winner = seats.get(state.winner)
    Seat.objects.filter(game=game).update(clock_started_at=None, deadline=None)
    append_event(
        game, "game_finished", {"winner_seat": game.winner.number if game.winner else None, "places": state.places}
    )
    # Stored before the receivers run, so that their queries see this game finished (the caller saves again).
    game.save(update_fields=["state", "status", "finished_at", "winner", "version", "updated_at"])
    game_finished.send(sender=Game, game=game, state=state)


def _eject_command(game: Game, user) -> list[int]:
    """!eject (003 "Chat Commands"): before the start, close the empty seats (and start if enough are
    seated); while programming, eject every bot whose game timer has run out."""
    if game.status == Game.Status.LOBBY:
        seated = game.seats.count()
        minimum = selectors.start_minimum(game)
        if seated < minimum:
            raise Conflict(f"{kinds.of(game).board_name(game)} needs at least {minimum} player(s); {seated} seated")
        closed = list(range(seated + 1, game.max_seats + 1))
        _start(game)
        return closed
    if game.status == Game.Status.RESOLVING:
        raise Conflict("a turn is being played; try again once it has been")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"this game is {game.status}")
    now = timezone.now()
    expired = [s for s in game.seats.filter(ejected_at__isnull=True) if clocks.expired_at(s, now)]
    if not expired:
        return []
    return _eject(game, expired, by=user.get_username(), reason="game time ran out",
                  by_name=account_selectors.player_name(user=user))


@transaction.atomic
def post_chat(*, user, game_id: int, text: str) -> dict:
    """A chat line, or a chat command. Returns what the caller sees: {"message": ...} or {"command": ...}."""
    game = _locked_game(game_id, user=user)
    seat = game.seats.filter(user=user).first()
    if seat is None and not user.is_staff:
        raise NotAllowed("only the players of this game can chat in it")
    text = (text or "").strip()
    if not text:
        raise InvalidInput("text: a chat message can't be empty")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise InvalidInput(f"text: at most {ChatMessage.MAX_LENGTH} characters, not {len(text)}")
    now = timezone.now()
    recent = ChatMessage.objects.filter(game=game, user=user, created_at__gte=now - CHAT_WINDOW).count()
    if recent >= CHAT_BURST:
        raise RateLimited(f"slow down: at most {CHAT_BURST} messages in {int(CHAT_WINDOW.total_seconds())} seconds")
    command = text.split()[0].lower()
    if command == "!eject":
        ejected = _eject_command(game, user)
        game.save()
        return {"command": "eject", "ejected": ejected}
    if command == "!archive":
        if seat is None:
            raise Conflict("only a game in your own list can be archived")
        seat.archived = not seat.archived
        seat.save(update_fields=["archived"])
        return {"command": "archive", "archived": seat.archived}
    if command.startswith("!"):
        raise InvalidInput(f"unknown command {command}; the commands are {', '.join(COMMANDS)} and @all")
    to_all = False
    if command == "@all":
        text, to_all = text[len("@all"):].strip(), True
        if not text:
            raise InvalidInput("text: @all needs a message after it")
    # Team play: a player's line goes to their own team unless it starts with @all (003 "Chat Commands").
    team = seat.team if seat is not None and game.teams and seat.team and not to_all else ""
    data = _chat_line(
        game, user=user, seat_number=seat.number if seat else None, text=text, to_all=not team, team=team
    )
    game.save(update_fields=["version", "updated_at"])
    return {"message": data}


@transaction.atomic
def staff_eject(*, user, game_id: int, seat_number: int) -> list[int]:
    """Staff eject any seat, whatever its clocks say (Django admin and the API)."""
    if not user.is_staff:
        raise NotAllowed("only staff can eject a player whose game time has not run out; use !eject in the chat")
    game = _locked_game(game_id, user=user)
    seat = game.seats.filter(number=seat_number).first()
    if seat is None:
        raise NotFound(f"game {game_id} has no seat {seat_number}")
    if game.status == Game.Status.LOBBY:
        seat.delete()
        lobby_feed.changed(game=game, left=(seat.user_id,))
        append_event(game, "seat_left", {"seat": seat.number, "by": "staff"})
        game.save()
        return [seat_number]
    if game.status == Game.Status.RESOLVING:
        raise Conflict("a turn is being played; try again once it has been")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"this game is {game.status}")
    if seat.ejected_at is not None or not kinds.of(game).in_game(game, seat):
        raise Conflict(f"seat {seat_number} is already out of the game")
    ejected = _eject(game, [seat], by="staff", reason=f"ejected by {user.get_username()}")
    game.save()
    return ejected


def enforce_deadline(*, game_id: int, now: datetime | None = None) -> str | None:
    """The beat task's work for one game whose deadline passed: mark the seats expired (once), then apply the
    game's timeout policy. Safe to run twice and concurrently; returns what it did, for logs and tests."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.PROGRAMMING:
            return None
        now = now or timezone.now()
        due = list(game.seats.filter(ejected_at__isnull=True, deadline__lte=now))
        if not due:
            return None
        fresh = [seat for seat in due if not seat.expired]
        for seat in fresh:
            seat.expired = True
            seat.save(update_fields=["expired"])
        if fresh:
            then = {
                # A solo game (one seat) has nobody else to eject the player: it waits for their program.
                Game.TimeoutPolicy.WAIT: (" Any player may now send !eject." if game.max_seats > 1
                                           else " The game waits for their program."),
                Game.TimeoutPolicy.RANDOM: " A random program is played for them.",
                Game.TimeoutPolicy.COMPUTER: " A Normal computer player plays for them until they send a program.",
            }.get(game.timeout_policy, "")
            _system_chat(game, f"{_names(fresh)} {'has' if len(fresh) == 1 else 'have'} run out of game time.{then}")
            append_event(game, "timer_expired", {"seats": [seat.number for seat in fresh]})
            _clocks_event(game, list(game.seats.order_by("number")), now)
        did = "expired" if fresh else None
        if game.timeout_policy == Game.TimeoutPolicy.EJECT:
            _eject(game, due, by="timer", reason="game time ran out")
            did = "ejected"
        elif game.timeout_policy == Game.TimeoutPolicy.RANDOM:
            kinds.of(game).play_random(game, due, now)
            did = "random"
        elif game.timeout_policy == Game.TimeoutPolicy.COMPUTER:
            _hand_to_computer(game, due, now)
            did = "computer"
        game.save()
        return did


def play_random_roboracer(game: Game, seats: list[Seat], now: datetime) -> None:
    """Timeout policy "random": a random legal program for each seat whose game time ran out (no reload)."""
    state = _state(game)
    for seat in seats:
        clocks.stop(seat, now)  # whatever happens next, this seat is not due again this turn
        seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline"])
        hand = Hand.objects.filter(seat=seat, turn=game.turn).first()
        bot = state.bot(seat.bot_id)
        if hand is None or not bot.in_game:
            continue
        chips = engine.random_program(
            bot, hand.chips, engine.derive_seed(game.seed, game.turn, f"timeout-{seat.bot_id}"), ruleset=game.ruleset
        )
        # No module action, but a scan made this turn still costs its charge (docs/site.md "The Scanner").
        action = SCANNER_ACTION if "scanner" in game.modules and _scanned(seat, game.turn) else None
        _, created = Program.objects.update_or_create(
            seat=seat, turn=game.turn, defaults={"chips": list(chips), "action": action}
        )
        if created:
            append_event(game, "seat_ready", {"seat": seat.number, "random": True})
    _clocks_event(game, list(game.seats.order_by("number")), now)
    _execute_when_all_ready(game, state, now)


def _hand_back(game: Game, seat: Seat) -> None:
    """No computer plays the seat any more: its owner sent a program or took it back (`take_back`)."""
    seat.autopilot = False
    seat.save(update_fields=["autopilot"])
    append_event(game, "seat_autopilot", {"seat": seat.number, "on": False})
    _system_chat(game, f"{_names([seat])} is back and plays their own robot again.")


def _hand_to_computer(game: Game, seats: list[Seat], now: datetime) -> None:
    """Timeout policy "computer": a Normal computer player plays each seat whose game time ran out, from this
    turn on, until its owner sends a program (`submit_program` hands it back). Its clock stops meanwhile."""
    handed = []
    for seat in seats:
        clocks.stop(seat, now)
        seat.autopilot = True
        seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline", "autopilot"])
        append_event(game, "seat_autopilot", {"seat": seat.number, "on": True, "strength": AUTOPILOT_STRENGTH})
        handed.append(seat)
    _clocks_event(game, list(game.seats.order_by("number")), now)
    _schedule_computers(game, handed)


def due_games(*, now: datetime | None = None) -> list[int]:
    """Games in programming with a seat past its deadline that the beat task has not dealt with yet: not yet
    marked expired, or a policy that acts (eject, random). Indexed on Seat.deadline."""
    now = now or timezone.now()
    return list(
        Seat.objects.filter(deadline__lte=now, ejected_at__isnull=True, game__status=Game.Status.PROGRAMMING)
        .filter(Q(expired=False) | ~Q(game__timeout_policy=Game.TimeoutPolicy.WAIT))
        .values_list("game_id", flat=True)
        .distinct()
    )


_resolution_lock = compiled.Compiled(lambda _variant, *, game_id: Game.objects.select_for_update(
    of=("self",)).select_related("course").defer("course__data").filter(pk=game_id))
_turn_programs = compiled.Compiled(lambda _variant, *, game_id, turn: Program.objects.filter(
    seat__game_id=game_id, turn=turn).select_related("seat"))


def resolve_turn(*, game_id: int, turn: int) -> Turn | None:
    """Resolve a turn exactly once, as the game's kind does; a second call (a redelivered task) finds it done
    and returns None. The game row is locked and its state checked here, for every kind; the kind's `resolve`
    plays the turn and stores it inside the same transaction."""
    try:
        with transaction.atomic():
            # With its course row's name and state (not its layout), unlocked: the deal's notices and pushed
            # snapshots read them without a query each (docs/performance.md).
            game = next(iter(_resolution_lock.run(game_id=game_id)), None)
            if game is None:
                return None
            if game.status != Game.Status.RESOLVING or game.turn != turn:
                return None
            with broadcast.batched_events():  # turn_resolved, turn_dealt, clocks...: one message to the group
                record = kinds.of(game).resolve(game, turn)
        logger.info("game %s: turn %s resolved, %s events", game_id, turn, len(record.events))
        return record
    except IntegrityError:
        # Another worker stored this turn between our check and our insert: it is resolved once.
        logger.info("turn %s of game %s was resolved concurrently", turn, game_id)
        return None


def resolve_roboracer_turn(game: Game, turn: int) -> Turn:
    """Play a RoboRacer turn and store it: the caller (`resolve_turn`) holds the game's lock in its transaction and
    has checked that this turn is the one to resolve."""
    state = _state(game)
    submitted = _turn_programs.run(game_id=game.pk, turn=turn)
    programs = {program.seat.bot_id: program.chips for program in submitted}
    reboots = sorted(program.seat.bot_id for program in submitted if program.reboot)
    actions = {p.seat.bot_id: p.action for p in submitted if p.action is not None}
    hands = {}
    if game.modules or engine.rulesets.get(game.ruleset).check_program is not None:
        # Turbo, Crab Legs and Storage look at the hand's unplayed chips; the other rulesets check
        # the programs against the hands again (and classic's flywheel saves an unplayed one)
        hands = {
            hand.seat.bot_id: hand.chips
            for hand in Hand.objects.filter(seat__game=game, turn=turn).select_related("seat")
        }
    seed = engine.derive_seed(game.seed, turn, "resolve")
    try:
        new_state, events = engine.resolve_turn(
            state, programs, seed, reboots=reboots, actions=actions, hands=hands
        )
    except engine.InputError:
        if not actions:
            raise
        # Each action was checked when it was sent; should one no longer fit, the turn is played
        # without the actions rather than leaving the game stuck (logged: a bug to look at).
        logger.exception("game %s turn %s: actions refused at resolution, played without them", game.pk,
                         turn)
        actions = {}
        new_state, events = engine.resolve_turn(state, programs, seed, reboots=reboots, hands=hands)
    record = compiled.insert(Turn(
        game=game,
        number=turn,
        seed=seed,
        state_before=game.state,
        programs=programs,
        reboots=reboots,
        actions=actions,
        hands=hands,
        events=events,
        state_after=engine.state_to_dict(new_state),
    ))
    game.state = record.state_after
    game.resolving_since = None
    append_event(
        game,
        "turn_resolved",
        {"turn": turn, "events": events, "programs": programs, "reboots": reboots,
         "actions": selectors.public_actions(ruleset=game.ruleset, actions=actions), "places": new_state.places},
    )
    now = timezone.now()
    if new_state.finished:
        _finish(game, new_state, now)
    else:
        game.status = Game.Status.PROGRAMMING
        game.turn = turn + 1
        append_event(game, "turn_dealt", {"turn": game.turn})
        _deal(game, new_state, now, last_turn={"number": turn, "events": events})
    # Only what a resolution changes: the game's copy of its course is not written again.
    compiled.update(game, [
        "state", "resolving_since", "version", "status", "turn", "finished_at", "winner", "updated_at",
    ])
    # Last in the transaction, so the book's rows are locked only for its final moments.
    if game.modules:
        economy.apply_purchases(
            course_id=game.course_id, modules=game.modules, purchases=economy.purchases_of(events),
            game_id=game.pk, turn=turn,
        )
    return record


# -- Computer players (issue 20; docs/computer-players.md) ------------------------------------------------------

COMPUTER_STRENGTHS = engine.players.STRENGTHS
AUTOPILOT_STRENGTH = "normal"  # who plays a timed-out person's seat (timeout policy "computer")
COMPUTER_MODES = selectors.COMPUTER_MODES


def _schedule_computers(game: Game, seats: list[Seat]) -> None:
    """After the commit, a task on the `computers` queue for each seat a computer plays this turn: the workers
    of that queue do the thinking, so turn resolution never waits behind it."""
    if not seats:
        return
    from games.tasks import computer_move_task

    game_id, turn, numbers = game.pk, game.turn, [seat.number for seat in seats]

    def send() -> None:
        for number in numbers:
            computer_move_task.apply_async((game_id, turn, number), queue="computers")

    transaction.on_commit(send, robust=True)


def _check_strength(strength) -> str:
    if strength not in COMPUTER_STRENGTHS:
        raise InvalidInput(f"strength: one of {', '.join(COMPUTER_STRENGTHS)}")
    return strength


def computer_user(*, strength: str, index: int):
    """The account of a computer player: `computer-<strength>-<index>`, shown as "<Strength> Computer
    <index>". Made on first use; nobody can log in as it (no usable password)."""
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    username = f"{COMPUTER_PREFIX}{strength}-{index}"
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model(username=username)
        user.set_unusable_password()
        user.save()
    profile, _ = Profile.objects.get_or_create(user=user)
    name = f"{engine.players.strength_label(strength)} Computer {index}"
    if profile.display_name != name and not Profile.objects.filter(display_name_key=name.casefold()).exists():
        profile.display_name = name
        profile.save(update_fields=["display_name"])
    return user


def _seat_computer(game: Game, seats: list[Seat], strength: str, number: int) -> Seat:
    """A computer seat of `strength` at `number`; the caller holds the game lock."""
    taken_users = {seat.user_id for seat in seats}
    index = 1
    while True:
        user = computer_user(strength=strength, index=index)
        if user.pk not in taken_users:
            break
        index += 1
    color = _seat_color(user, {seat.color for seat in seats}, number)
    return Seat.objects.create(game=game, user=user, number=number, color=color, computer=strength)


def _computer_joined(game: Game, seat: Seat) -> None:
    """The public `seat_joined` of a computer seat taken in a lobby."""
    append_event(game, "seat_joined", {"seat": seat.number, "user": seat.user.get_username(), "color": seat.color,
                                       "computer": seat.computer, "display_name": account_selectors.player_name(user=seat.user)})


def _computer_refusal(game: Game, *, computers: int) -> str | None:
    """games.setup's answer for `game`'s setting with `computers` computer seats (a RoboRacer game's course
    and ruleset; a kind without courses asks with none)."""
    uses_courses = kinds.of(game).uses_courses
    return setup.refusal(kind=game.kind or kinds.DEFAULT, course_data=game.course_data if uses_courses else None,
                         use=setup.TEST_DRIVE if game.test_drive else setup.LOBBY, ruleset=game.ruleset,
                         seats=game.max_seats, computers=computers, modules=list(game.modules or ()),
                         teams=game.teams, options=dict(game.options or {}))


@transaction.atomic
def add_computer(*, user, game_id: int, strength: str = "normal", seat_number: int | None = None) -> Seat:
    """The creator seats a computer player in a free seat of a game in the lobby: `seat_number`, or the lowest
    free one. A game with a computer player is unrated. A full game starts, as when a person takes the last
    seat."""
    game = _locked_game(game_id, user=user)
    _check_strength(strength)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can add computer players")
    if game.status != Game.Status.LOBBY:
        raise Conflict("computer players are added in the lobby, before the game starts")
    seats = list(game.seats.all())
    why = _computer_refusal(game, computers=sum(1 for seat in seats if seat.computer) + 1)
    if why is not None:
        raise Conflict(why)
    if len(seats) >= game.max_seats:
        raise Conflict("this game is full")
    free = [n for n in range(1, game.max_seats + 1) if n not in {seat.number for seat in seats}]
    if seat_number is not None and seat_number not in free:
        raise Conflict(f"seat {seat_number} is not a free seat of this game")
    number = free[0] if seat_number is None else seat_number
    seat = _seat_computer(game, seats, strength, number)
    game.rated = False
    _computer_joined(game, seat)
    if len(seats) + 1 == game.max_seats and not game.teams:
        _start(game)
    game.save()
    return seat


@transaction.atomic
def remove_computer(*, user, game_id: int, seat_number: int) -> Game:
    """The creator takes a computer player out of a game in the lobby."""
    game = _locked_game(game_id, user=user)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can remove computer players")
    if game.status != Game.Status.LOBBY:
        raise Conflict("computer players are removed in the lobby, before the game starts")
    seat = game.seats.filter(number=seat_number).first()
    if seat is None or not seat.computer:
        raise NotFound(f"seat {seat_number} is not a computer player's")
    seat.delete()
    append_event(game, "seat_left", {"seat": seat_number, "computer": True})
    game.save()
    return game


@transaction.atomic
def practice_game(*, user, course: Course, opponents: int = 1, strength: str = "normal",
                  ruleset: str | None = None) -> Game:
    """"Play against the computer": a game with `user` in seat 1 and `opponents` computer players of
    `strength`, started at once (turn 1 dealt). Public, so others may watch; unrated."""
    _check_strength(strength)
    if isinstance(opponents, bool) or not isinstance(opponents, int) or not 1 <= opponents <= 7:
        raise InvalidInput("opponents: from 1 to 7")
    seats = opponents + 1
    if ruleset is None:
        ruleset = (course.data.get("rulesets") or [engine.rulesets.DEFAULT])[0]
    setup.check_setting(course_data=course.data, use=setup.PRACTICE, ruleset=ruleset, seats=seats,
                        computers=opponents)
    if not course.min_players <= seats <= course.max_players:
        raise InvalidInput(f"{course.name} takes {course.min_players} to {course.max_players} players, not {seats}")
    # If the player walks away, a computer plays for them too and the game ends by itself.
    game = create_game(user=user, course=course, max_seats=seats, rated=False, ruleset=ruleset,
                       timeout_policy=Game.TimeoutPolicy.COMPUTER, use=setup.PRACTICE, computers=opponents)
    game = _locked_game(game.pk)
    placed = list(game.seats.all())
    for number in range(2, seats + 1):
        placed.append(_seat_computer(game, placed, strength, number))
    append_event(game, "computers_seated", {"seats": list(range(2, seats + 1)), "strength": strength})
    _start(game)
    game.save()
    return game


@transaction.atomic
def take_back(*, user, game_id: int) -> Seat:
    """A person whose seat a computer plays (timeout policy "computer") takes it back at once, without waiting
    to send a program: from now on no computer plays for them. If they have no program this turn yet their
    clock runs again; a program the computer already sent stays until they replace it."""
    game = _locked_game(game_id, user=user)
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    if not seat.autopilot:
        raise Conflict("no computer is playing your robot")
    now = timezone.now()
    thinking = (game.status == Game.Status.PROGRAMMING and seat.ejected_at is None
                and not Program.objects.filter(seat=seat, turn=game.turn).exists()
                and Hand.objects.filter(seat=seat, turn=game.turn).exists())
    if thinking:
        clocks.start(seat, now)
        seat.save(update_fields=["clock_started_at", "deadline", "expired"])
    _hand_back(game, seat)
    if thinking:
        _clocks_event(game, list(game.seats.order_by("number")), now)
    game.save(update_fields=["version", "updated_at"])
    return seat


def play_computer_turn(*, game_id: int, turn: int, seat_number: int) -> Program | None:
    """A computer player's move (the `computers` queue's task): the game and the seat read without a lock, and
    nothing done unless that seat is a computer's (or on autopilot) still to move this turn; then the game's kind
    thinks and sends the move through the checks a person's goes through. None when there is nothing to do."""
    game = (Game.objects.filter(pk=game_id)
            .only("kind", "status", "turn", "seed", "state", "options", "course_data", "course_id", "created_at")
            .first())
    if game is None or game.status != Game.Status.PROGRAMMING or game.turn != turn:
        return None
    seat = Seat.objects.filter(game_id=game_id, number=seat_number).first()
    if seat is None or not (seat.computer or seat.autopilot) or seat.ejected_at is not None:
        return None
    if Program.objects.filter(seat=seat, turn=turn).exists():
        return None
    return kinds.of(game).computer_move(game, seat)


def roboracer_computer_turn(game: Game, seat: Seat) -> Program | None:
    """A RoboRacer computer player's move, for `play_computer_turn`: read the public state and this seat's own
    hand, think without any lock held (engine.players, a budget in engine calls), then send the program through
    `submit_computer_program`."""
    game_id, turn, seat_number = game.pk, game.turn, seat.number
    hand = Hand.objects.filter(seat=seat, turn=turn).values_list("chips", flat=True).first()
    if hand is None:
        return None
    state = _state(game)
    strength = seat.computer or AUTOPILOT_STRENGTH
    decision = engine.players.choose(
        state, seat.bot_id, hand, strength=strength, seed=engine.derive_seed(game.seed, turn, f"computer-{seat.bot_id}")
    )
    logger.info("game %s turn %s seat %s: %s computer decided with %s engine calls", game_id, turn, seat_number,
                strength, decision.engine_calls)
    try:
        return submit_computer_program(
            game_id=game_id, seat_number=seat_number, turn=turn, chips=list(decision.program),
            reboot=decision.reboot, action=decision.action,
        )
    except (InvalidInput, Conflict) as refusal:
        # The same checks as a person's: a refusal here is a bug in engine.players (logged), and the seat's
        # clock and the timeout policy still keep the game moving.
        logger.error("game %s turn %s seat %s: computer program refused: %s", game_id, turn, seat_number, refusal)
        return None


def stalled_computer_seats(*, older_than: timedelta) -> list[tuple[int, int, int]]:
    """(game, turn, seat) of computer-played seats still without a program this turn `older_than` after the
    deal: their task was lost (Redis restarted, a worker died), and the beat sweep sends it again."""
    since = timezone.now() - older_than
    this_turn = {"seat": OuterRef("pk"), "turn": OuterRef("game__turn")}
    return [
        tuple(row) for row in
        Seat.objects.filter(game__status=Game.Status.PROGRAMMING, ejected_at__isnull=True)
        .filter(Q(computer__gt="", clock_started_at__lt=since) | Q(autopilot=True, game__updated_at__lt=since))
        .filter(Exists(Hand.objects.filter(**this_turn)), ~Exists(Program.objects.filter(**this_turn)))
        .values_list("game_id", "game__turn", "number")
    ]
