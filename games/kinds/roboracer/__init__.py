"""RoboRacer (seed 003 and the other rulesets of `engine/`) as a game kind: its answers to the shared loop's
questions (games.services.turns, games.kinds "The interface"), over the pure engine. Its own services (the
Scanner, Recompile, practice games) are in `games.kinds.roboracer.services`."""

from __future__ import annotations

import logging

import engine
from games.kinds.roboracer import selectors, timing
from games.kinds.roboracer import services as roboracer_services
from games.kinds.roboracer.serializers import CreateGameSerializer
from games.models import Game, Scan
from games.selectors import prices as prices_selectors
from games.selectors import seats
from games.services import organisers, setup, team_play
from games.services.lobby import Settings
from games.services.moves import Move
from games.services.turns import Begin, Resolved
from roboracer.common.errors import Conflict, InvalidInput
from roboracer.courses.models import Course
from roboracer.economy import services as economy

logger = logging.getLogger(__name__)
SCANNER_ACTION = roboracer_services.SCANNER_ACTION


class RoboRacer:
    name = "roboracer"
    title = "RoboRacer"
    takes_chips = True  # programs of chips from a dealt hand, sent to /program/
    move_noun = "programs"
    rated = True  # rated as games.selectors.rated.is_rated says
    lobby_form = None  # its create form is the lobby's own (games.views.forms.CreateGameForm)
    lobby_hint = ""
    resubmit_after_eject = True  # 003 "!eject": every remaining bot resubmits
    forfeit_words = "every other robot is out of the race."
    # The timing table its screen animates a turn by (the page embeds it; `animation_seconds` reads it too).
    animation_timing = timing.table()

    # -- the lobby ------------------------------------------------------------------------------------------
    def board_name(self, game) -> str:
        if Game.course.is_cached(game):
            return game.course.name
        # Only the name: the course row's layout is not read on every deal (docs/performance.md).
        return Course.objects.filter(pk=game.course_id).values_list("name", flat=True).first() or ""

    def min_players(self, game) -> int:
        return game.course.min_players

    def summary(self, game) -> dict:
        return {"kind": self.name, "course": game.course.slug, "course_id": game.course_id,
                "course_name": game.course.name}

    def computers_play(self, game) -> bool:
        return game.course_data.get("mode", "race") in seats.COMPUTER_MODES

    def create_serializer(self, data):
        return CreateGameSerializer(data=data)

    def settings(self, *, user, use: str, computers: int, course: Course | str, max_seats: int | None = None,
                 lives: int = 3, course_data: dict | None = None, test_drive: bool = False, modules=None,
                 rated: bool = True, teams: bool = False, ruleset: str = engine.rulesets.DEFAULT,
                 options: dict | None = None) -> Settings:
        """A RoboRacer game's own settings, checked. `course_data`: the layout to play on (the course's current
        one by default; play again keeps the finished game's own copy). `test_drive`: the course builder's test
        drive, whose copy of the course takes from 1 player, so any number seated may start it. `course`: a Course,
        or the slug of a stable or development course (the lobby's form and API)."""
        if isinstance(course, str):
            course = roboracer_services.playable_course(slug=course)
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
            raise InvalidInput(f"{course.name} takes {minimum} to {course.max_players} players, not {max_seats}")
        if not 1 <= lives <= roboracer_services.MAX_LIVES:
            raise InvalidInput(f"lives must be from 1 to {roboracer_services.MAX_LIVES}, not {lives}")
        modules = roboracer_services.clean_modules(modules)
        options = setup.check_setting(course_data=course_data, use=use, ruleset=ruleset, seats=max_seats,
                                      computers=computers, modules=modules, teams=teams, options=options)
        fields = {
            "course": course, "course_data": course_data, "max_seats": max_seats, "lives": lives,
            # A puzzle game's own seed, every other game's secret one (games.services.setup.game_seed, docs/modes.md).
            "seed": setup.game_seed(course_data=course_data, use=use), "test_drive": test_drive, "modules": modules,
            "rated": bool(rated),  # the creator's wish; games.selectors.rated.is_rated decides
            "teams": bool(teams), "ruleset": ruleset, "options": options,
        }
        # A solo puzzle starts at once: nobody to wait for.
        return Settings(fields=fields, use=use, starts_at_once=puzzle is not None and max_seats == 1 and not test_drive)

    def again(self, game) -> dict:
        """Play again: the same course (the finished game's own copy) and settings."""
        return {"course": Course.objects.get(pk=game.course_id), "course_data": game.course_data,
                "max_seats": game.max_seats, "lives": game.lives, "test_drive": game.test_drive,
                "modules": list(game.modules), "rated": game.rated, "ruleset": game.ruleset,
                "options": dict(game.options)}

    # -- games the site seats itself (tournaments) ---------------------------------------------------------
    uses_courses = True  # a tournament draws each table's course from its pool
    max_table = 8

    def seated_game(self, *, creator, users: list, computers: list, courses: list, rng, options: dict):
        """A tournament table's game: a course of the pool that seats the table, drawn with `rng`."""
        size = len(users) + len(computers)
        fitting = [c for c in courses if c.min_players <= size <= c.max_players] or courses
        return organisers.create_seated_game(creator=creator, users=users, course=rng.choice(fitting),
                                             computers=computers, **options)

    def outcome(self, state):
        """What `game_finished` receivers read (`places`, `winner`): the engine's final state has both."""
        return state

    # -- the loop's questions (games.services.turns) ---------------------------------------------------------
    def load(self, game):
        return roboracer_services.state_of(game)

    def dump(self, state) -> dict:
        return engine.state_to_dict(state)

    def begin(self, game, seats) -> Begin:
        """The bots on the starts in seat order (start 1 to the first seat), turn 1. The modules' starting
        prices: the course's book, or the all-course average while the course is new (docs/rules.md "The
        module economy on the site"), taken now."""
        prices = {}
        if game.modules:
            economy.ensure_book(course_id=game.course_id)
            prices = prices_selectors.starting_prices(course=game.course, modules=game.modules)
        teams = team_play.teams_at_start(game, seats)
        state = engine.new_game(
            roboracer_services.course_of(game), [seat.bot_id for seat in seats], lives=game.lives,
            modules=game.modules, prices=prices, teams=teams, ruleset=game.ruleset, options=game.options,
        )
        return Begin(state=state, turn=1, event={"modules": list(game.modules), "prices": state.prices},
                     seat_fields=("team",))

    def deal(self, game, state) -> dict:
        return engine.deal(state, engine.derive_seed(game.seed, game.turn, "deal"))

    def required_move(self, state, bot_id: str) -> Move | None:
        required = engine.required_program(state.bot(bot_id), state.ruleset)
        return None if required is None else Move(chips=list(required))

    def in_game(self, state, seat) -> bool:
        return state.bot(seat.bot_id).in_game

    def parse_move(self, game, data) -> tuple[int, Move]:
        raise InvalidInput(f"a RoboRacer game takes programs at /api/games/{game.pk}/program/")

    def check_move(self, game, state, seat, move: Move, hand) -> Move:
        bot = state.bot(seat.bot_id)
        if hand is None or not bot.in_game:
            raise Conflict("your bot has no program to run this turn")
        action = move.action
        if engine.modules.scanning(game.modules) and roboracer_services.scanned(seat, game.turn):
            # After a scan the turn's action is the Scanner's activation (docs/site.md "Bot modules in play").
            if action is not None and action != SCANNER_ACTION:
                raise InvalidInput("action: you scanned this turn, so this turn's action is the Scanner's "
                                   'activation; send no action or {"activate": {}}')
            action = SCANNER_ACTION
        rules = engine.rulesets.get(state.ruleset)
        if move.reboot and state.mode == "arena":
            raise InvalidInput("reboot: bots can't reboot in an arena (003 \"Rebooting\")")
        if move.reboot and not rules.reboots:
            raise InvalidInput(f"reboot: {rules.title} has no reboot")
        roboracer_services.check_program(bot, hand, move.chips, action, state)
        return Move(chips=list(move.chips), reboot=bool(move.reboot), action=action)

    def complete(self, game, state, live, missing) -> list:
        return []

    def resolve(self, game, state, turn: int, programs: list) -> Resolved:
        chips = {program.seat.bot_id: program.chips for program in programs}
        reboots = sorted(program.seat.bot_id for program in programs if program.reboot)
        actions = {p.seat.bot_id: p.action for p in programs if p.action is not None}
        hands = {}
        if game.modules or engine.rulesets.get(game.ruleset).check_program is not None:
            # Turbo, Crab Legs and Storage look at the hand's unplayed chips; the other rulesets check the
            # programs against the hands again (and classic's flywheel saves an unplayed one).
            hands = roboracer_services.hands_of(game=game, turn=turn)
        seed = engine.derive_seed(game.seed, turn, "resolve")
        try:
            new_state, events = engine.resolve_turn(state, chips, seed, reboots=reboots, actions=actions, hands=hands)
        except engine.InputError:
            if not actions:
                raise
            # Each action was checked when it was sent; should one no longer fit, the turn is played without
            # the actions rather than leaving the game stuck (logged: a bug to look at).
            logger.exception("game %s turn %s: actions refused at resolution, played without them", game.pk, turn)
            actions = {}
            new_state, events = engine.resolve_turn(state, chips, seed, reboots=reboots, hands=hands)
        public = {"programs": chips, "reboots": reboots,
                  "actions": selectors.public_actions(ruleset=game.ruleset, actions=actions),
                  "places": new_state.places}
        return Resolved(state=new_state, events=events, public=public,
                        record={"seed": seed, "programs": chips, "reboots": reboots, "actions": actions,
                                "hands": hands})

    def after_resolution(self, game, turn: int, events: list) -> None:
        """The module economy's purchases: last in the transaction, so the book's rows are locked only for its
        final moments."""
        if game.modules:
            economy.apply_purchases(course_id=game.course_id, modules=game.modules,
                                    purchases=economy.purchases_of(events), game_id=game.pk, turn=turn)

    def finished(self, state) -> bool:
        return state.finished

    def animation_seconds(self, events: list) -> float:
        """How long the game screen plays these events at 1x (timing.json, read by the browser too)."""
        return timing.animation_ms(events) / 1000

    def remove(self, state, bot_ids: list) -> tuple:
        return engine.eject(state, bot_ids)

    def random_move(self, game, state, seat, hand, *, seed: int) -> Move:
        chips = engine.random_program(state.bot(seat.bot_id), hand, seed, ruleset=game.ruleset)
        # No module action, but a scan made this turn still costs its charge (docs/site.md "The Scanner").
        scanned = engine.modules.scanning(game.modules) and Scan.objects.filter(seat=seat, turn=game.turn).exists()
        return Move(chips=list(chips), action=SCANNER_ACTION if scanned else None)

    def computer_think_seconds(self, game, seat) -> float:
        """A computer's program is sent as soon as it is chosen: nothing ends the turn before the last one."""
        return 0.0

    def think(self, game, state, seat, hand, *, strength: str) -> Move:
        """A computer player's program (engine.players, a budget in engine calls), from the public state and
        this seat's own hand only."""
        decision = engine.players.choose(state, seat.bot_id, hand, strength=strength,
                                         seed=engine.derive_seed(game.seed, game.turn, f"computer-{seat.bot_id}"))
        logger.info("game %s turn %s seat %s: %s computer decided with %s engine calls", game.pk, game.turn,
                    seat.number, strength, decision.engine_calls)
        return Move(chips=list(decision.program), reboot=decision.reboot, action=decision.action)

    # -- what viewers see ---------------------------------------------------------------------------------------
    def private_context(self, *, game, state: dict, seat_ids: list[int], hands: dict | None = None) -> dict:
        return selectors.roboracer_private_context(game=game, state=state, seat_ids=seat_ids, hands=hands)

    def public_fields(self, *, game, state: dict, seats: list) -> dict:
        return selectors.roboracer_public_fields(game=game, state=state, seats=seats)

    def viewer_fields(self, *, game, state: dict, seat) -> dict:
        return {}

    def private_fields(self, *, game, state: dict, seat, program, context: dict) -> dict:
        return selectors.roboracer_private_fields(game=game, state=state, seat=seat, program=program, context=context)

    def public_turn(self, *, game, turn) -> dict:
        return selectors.roboracer_turn(game=game, turn=turn)


KIND = RoboRacer()
