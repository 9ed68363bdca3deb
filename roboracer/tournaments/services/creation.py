"""Creating a tournament: its settings checked (games.services.setup's one policy asked for every course of the pool)."""

from __future__ import annotations

import re
import secrets
from datetime import datetime

from django.db import transaction

import engine
from games import clocks as game_clocks
from games import kinds
from games.kinds.roboracer import services as roboracer_services
from games.models import Game
from games.services import setup as game_setup
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed
from roboracer.courses.models import Course
from roboracer.tournaments.models import DEFAULT_POINTS, Tournament
from roboracer.tournaments.services.common import is_organiser, log_action, organised

MAX_LEAGUE_ROUNDS = 20
MAX_MIN_PLAYERS = 4096
COMPUTER_FILLS = tuple(engine.players.STRENGTHS)  # Tournament.computer_fill: one of these, or "" (off)


def check_settings(*, kind: str, courses: list[Course], table_size: int, lives: int, modules: list,
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
def _cleaned(*, name, description: str, modules, points, table_size) -> tuple[str, list, list]:
    """The name, description, modules and points as created and as edited: a stripped name of 1 to 100
    characters, a description of at most 5000, known modules in the catalog's order, the default points."""
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise InvalidInput("name: from 1 to 100 characters")
    if len(description) > 5000:
        raise InvalidInput("description: at most 5000 characters")
    modules = [] if modules is None else modules
    if isinstance(modules, list) and all(isinstance(m, str) and m in engine.MODULE_NAMES for m in modules):
        modules = sorted(set(modules), key=list(engine.MODULE_NAMES).index)
    points = list(DEFAULT_POINTS[:table_size]) if points is None else points
    return name, modules, points


def create_tournament(*, organiser, name: str, courses: list[Course], registration_opens: datetime,
                      registration_closes: datetime, description: str = "", table_size: int = 4, lives: int = 3,
                      modules: list | None = None, move_time: int = 3 * 24 * 3600, game_time: int = 15 * 24 * 3600,
                      timeout_policy: str = Game.TimeoutPolicy.EJECT, min_players: int = 2,
                      format: str = Tournament.Format.HEATS, advance: int = 1,
                      seeding: str = Tournament.Seeding.RANDOM, league_rounds: int = 3,
                      points: list | None = None, computer_fill: str = "", kind: str = kinds.DEFAULT,
                      allow_bots: bool = False) -> Tournament:
    if not is_organiser(organiser):
        raise NotAllowed("only organisers can create tournaments (staff grant the group in the admin)")
    name, modules, points = _cleaned(name=name, description=description, modules=modules, points=points,
                                     table_size=table_size)
    check_settings(kind=kind, courses=courses, table_size=table_size, lives=lives, modules=modules,
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
        computer_fill=computer_fill, seed=secrets.randbits(62), kind=kind, allow_bots=bool(allow_bots),
    )
    tournament.courses.set(courses)
    log_action(tournament, "created", f"{organiser.get_username()} created the tournament", actor=organiser)
    return tournament


FIELDS = ("name", "description", "table_size", "lives", "modules", "move_time", "game_time", "timeout_policy",
          "registration_opens", "registration_closes", "min_players", "format", "advance", "seeding",
          "league_rounds", "points", "computer_fill", "kind", "allow_bots")


@transaction.atomic
def update_tournament(*, user, tournament_id: int, courses: list[Course], **settings) -> Tournament:
    """The organiser edits a tournament before its start (issue 38 item 7): name, description, times, courses and
    settings, checked as when it was created; nothing changes unless all of it is valid. Once registration has
    closed (round 1 seated) it is refused."""
    tournament = organised(tournament_id, user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict(f"the tournament is {tournament.status}: it can be edited only before its start")
    unknown = set(settings) - set(FIELDS)
    if unknown:
        raise InvalidInput(f"unknown setting(s): {', '.join(sorted(unknown))}")
    values = {field: settings.get(field, getattr(tournament, field)) for field in FIELDS}
    name, modules, points = _cleaned(name=values["name"], description=values["description"] or "",
                                     modules=values["modules"] or [], points=values["points"],
                                     table_size=values["table_size"])
    check = {k: v for k, v in values.items() if k not in ("name", "description", "modules", "points", "allow_bots")}
    check_settings(courses=courses, modules=modules, points=points, **check)
    for field, value in {**values, "name": name, "modules": modules, "points": points}.items():
        setattr(tournament, field, value)
    tournament.save()
    tournament.courses.set(courses)
    log_action(tournament, "edited", f"{user.get_username()} edited the tournament's settings", actor=user)
    return tournament
