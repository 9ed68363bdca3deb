"""RoboRacer's own services: what no other kind has (the Scanner, Recompile, modules, practice games against
the computer), and its parsed course and state kept per process. Its turns run through the shared loop
(games.services.turns), which calls its adapter (games.kinds.roboracer)."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

import orjson
from django.db import transaction

import engine
from engine.modules.actions import action_problem
from games.models import Game, Hand, Program, Scan, Seat
from games.services import computer_seats, lobby, locking, publish, setup, turns
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed
from roboracer.courses import selectors as course_selectors
from roboracer.courses import services as course_services
from roboracer.courses.models import Course

logger = logging.getLogger(__name__)


MAX_LIVES = 9


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


_parsed_states: OrderedDict[int, tuple[dict, engine.State]] = OrderedDict()


def state_of(game: Game) -> engine.State:
    """The game's engine state, parsed again only when its stored state changed: the four programs of a turn
    parse the same state (engine states are immutable, so one is shared). The stored dict is compared with
    a private copy of the one parsed, so nothing that edits a game's dict in place can make a stale hit."""
    with _parsed_courses_lock:
        cached = _parsed_states.get(game.pk)
    if cached is not None and cached[0] == game.state:
        return cached[1]
    state = engine.state_from_dict(game.state, course_of(game))
    with _parsed_courses_lock:
        _parsed_states[game.pk] = (orjson.loads(orjson.dumps(game.state, option=orjson.OPT_NON_STR_KEYS)), state)
        _parsed_states.move_to_end(game.pk)
        while len(_parsed_states) > PARSED_COURSES_KEPT:
            _parsed_states.popitem(last=False)
    return state


_parsed_courses: OrderedDict[tuple, engine.Course] = OrderedDict()


_parsed_courses_lock = threading.Lock()  # requests run in threads


PARSED_COURSES_KEPT = 256


def course_of(game: Game) -> engine.Course:
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


def scanned(seat: Seat, turn: int) -> bool:
    return Scan.objects.filter(seat=seat, turn=turn).exists()


def check_program(bot: engine.Bot, hand: list, chips: list, action, state: engine.State) -> None:
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
    game = locking.locked_game(game_id, user=user)
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
        state, chips = rules.redeal(state_of(game), seat.bot_id, seed)
    except engine.InputError as error:
        raise InvalidInput(f"recompile: {error}") from None
    game.state = engine.state_to_dict(state)
    hand.chips = list(chips)
    hand.save(update_fields=["chips"])
    # Public: no seed in it, since the seed draws the new hand (the replay derives it again, recompile_seed).
    publish.append_event(game, "recompiled", {"seat": seat.number, "turn": turn, "bot": seat.bot_id,
                                      "damage": state.bot(seat.bot_id).damage})  # fmt: skip
    game.save(update_fields=["state", "version", "updated_at"])
    return {"turn": turn, "hand": list(chips)}


@transaction.atomic
def scan(*, user, game_id: int, turn: int) -> dict:
    """003 "Scanner": the owner of a Scanner with a usable charge sees the chips of the opponents' programs
    submitted so far, sorted (engine.scan). Free to repeat until the turn executes; the turn's action becomes
    the Scanner's activation, whose charge the engine takes at the start of the next turn. The result is kept
    for its owner alone (Scan), never in an event."""
    game = locking.locked_game(game_id, user=user)
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
    state = state_of(game)
    bot = state.bot(seat.bot_id)
    if not bot.in_game:
        raise Conflict("your bot is out of the game")
    if not engine.modules.scanning([bot.module] if bot.module else []):
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


@transaction.atomic
def practice_game(*, user, course: Course, opponents: int = 1, strength: str = "normal",
                  ruleset: str | None = None) -> Game:
    """"Play against the computer": a game with `user` in seat 1 and `opponents` computer players of
    `strength`, started at once (turn 1 dealt). Public, so others may watch; unrated."""
    computer_seats.check_strength(strength)
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
    game = lobby.create_game(user=user, course=course, max_seats=seats, rated=False, ruleset=ruleset,
                       timeout_policy=Game.TimeoutPolicy.COMPUTER, use=setup.PRACTICE, computers=opponents)
    game = locking.locked_game(game.pk)
    placed = list(game.seats.all())
    for number in range(2, seats + 1):
        placed.append(computer_seats.seat_computer(game, placed, strength, number))
    publish.append_event(game, "computers_seated", {"seats": list(range(2, seats + 1)), "strength": strength})
    turns.start(game)
    game.save()
    return game


def playable_course(*, slug: str) -> Course:
    """The course a lobby game is created on: a stable or development course by its slug (a draft is played
    through its test drive)."""
    found = course_selectors.playable_courses().filter(slug=slug).first()
    if found is None:
        raise InvalidInput(f"there is no course named {slug!r}")
    return found


def hands_of(*, game: Game, turn: int) -> dict:
    """The turn's hands by bot id (the modules and the stricter rulesets look at them at resolution)."""
    return {hand.seat.bot_id: hand.chips for hand in Hand.objects.filter(seat__game=game, turn=turn).select_related("seat")}


def start_test_drive(*, user, slug: str, seats: int) -> Game:
    """A private game on the course's current data, created by `user` (the author or staff). One seat: the game
    starts at once, whatever the course's minimum. More: a private lobby to share by its invite link, which the
    creator may start with any number seated (docs/course-builder.md "Test drive"; roboracer.courses.services.test_drive_course
    checks and locks the course in the same transaction)."""
    with transaction.atomic():
        course = course_services.test_drive_course(user=user, slug=slug, seats=seats)
        game = lobby.create_game(user=user, course=course, max_seats=seats,
                                    visibility=Game.Visibility.PRIVATE, test_drive=True)
        if seats == 1:
            game = lobby.start_game(user=user, game_id=game.pk)
        return game
