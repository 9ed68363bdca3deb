"""One policy for a game's setting (issue 33 item 6; docs/game-setup.md).

Whether a course, a ruleset, the course's mode, the game's kind and its options fit together is asked here,
and only here, by every place that makes a game or promises one: the lobby (games.services.create_game, which
test drives, the puzzle page and play again go through), games the site seats itself
(create_seated_game: tournament tables, Pyramid challenges), computer seats (add_computer, practice games,
play again with computers), tournament creation (every course of the pool, before the tournament exists) and
the Pyramid's pool (only the courses that pass are in it). So a setting that will not play is refused where it
is chosen, never later when a round starts or a challenge is drawn.

A later issue moves this module into its own layer; until then it depends on nothing but the engine, the
kinds registry and the errors, so that move is a rename.

`use` says what the game is for:
- LOBBY: a game someone creates (the lobby's form and API, the puzzle page, play again);
- TEST_DRIVE: the course builder's test drive (games.services.create_game(test_drive=True));
- TOURNAMENT, PYRAMID: competitive games the site seats itself. They refuse puzzle courses: a puzzle is
  solved, not raced for a result, and its seed (which every solver shares, and anyone can read in the course)
  would let a player know every hand in advance;
- PRACTICE: a game against computer players.
"""

from __future__ import annotations

import secrets

import engine
from games import kinds
from roboracer.common.errors import InvalidInput

LOBBY, TEST_DRIVE, TOURNAMENT, PYRAMID, PRACTICE = "lobby", "test_drive", "tournament", "pyramid", "practice"
CHALLENGE = "challenge"  # a direct challenge between two accounts (games.services.challenges; docs/bot-api.md)
USES = (LOBBY, TEST_DRIVE, TOURNAMENT, PYRAMID, PRACTICE, CHALLENGE)
COMPETITIVE = (TOURNAMENT, PYRAMID, CHALLENGE)  # never on a puzzle course
PUZZLE_USES = (LOBBY, TEST_DRIVE)  # where a puzzle course is played as the puzzle, with its own seed
COMPUTER_MODES = ("race", "arena")  # where computer players play (a puzzle is solved by people)
TEAM_MODES = ("race", "arena")
MIN_TEAM_GAME = 4  # two bots a team (003 "Team Play": "two teams of two or more bots")
WHERE = {TOURNAMENT: "a tournament", PYRAMID: "the Pyramid", CHALLENGE: "a challenge"}


def _mode(course_data) -> str:
    return (course_data or {}).get("mode", "race")


def _name(course_data) -> str:
    return (course_data or {}).get("name") or "this course"


def check_setting(*, kind: str = kinds.DEFAULT, course_data: dict | None, use: str = LOBBY,
                  ruleset: str = engine.rulesets.DEFAULT, seats: int | None = None, computers: int = 0,
                  modules=(), teams: bool = False, options: dict | None = None) -> dict:
    """The setting checked as a whole: InvalidInput naming the first thing that does not fit, or the game's
    ruleset options as stored (those that differ from the ruleset's defaults; {} for a kind without rulesets).

    `course_data`: the course the game is played on (its roboracer-course/1 data; None for a kind without
    courses). `seats`: the game's seats (None: not known yet, e.g. a tournament's tables). `computers`: how
    many of them computer players take."""
    if use not in USES:
        raise InvalidInput(f"use: one of {', '.join(USES)}, not {use!r}")
    if not isinstance(kind, str) or kind not in kinds.names():
        raise InvalidInput(f"kind: one of {', '.join(kinds.names())}")
    adapter = kinds.get(kind)
    if not adapter.uses_courses:
        if course_data:
            raise InvalidInput(f"course: {adapter.title} has no courses")
        if use == TEST_DRIVE:
            raise InvalidInput(f"course: {adapter.title} has no courses to test-drive")
        return {}
    if not isinstance(course_data, dict):
        raise InvalidInput(f"course: a {adapter.title} game needs a course")
    mode, name = _mode(course_data), _name(course_data)
    if mode == "puzzle" and use in COMPETITIVE:
        raise InvalidInput(f"course: {name} is a puzzle; {WHERE[use]} plays races and arenas only "
                           "(a puzzle is solved, and its fixed seed would tell every hand in advance)")
    if (computers or use == PRACTICE) and mode not in COMPUTER_MODES:
        raise InvalidInput(f"course: {name} is a {mode} course; computer players race and fight, they don't "
                           "solve puzzles")
    if teams and (mode not in TEAM_MODES or (seats is not None and seats < MIN_TEAM_GAME)):
        raise InvalidInput(
            f"teams: team play is for races and arenas with at least {MIN_TEAM_GAME} seats (two bots a team)"
        )
    return _ruleset_options(ruleset=ruleset, course_data=course_data, seats=seats, modules=list(modules or ()),
                            teams=teams, options=options)


def _ruleset_options(*, ruleset, course_data: dict, seats: int | None, modules: list, teams: bool,
                     options) -> dict:
    try:
        rules = engine.rulesets.get(ruleset)
    except engine.InputError as error:
        raise InvalidInput(f"ruleset: {error}") from None
    if ruleset not in engine.rulesets.on_site():
        raise InvalidInput(f"ruleset: {rules.title} is not playable on the site yet")
    suits = course_data.get("rulesets") or [engine.rulesets.DEFAULT]
    if ruleset not in suits:
        titles = ", ".join(engine.rulesets.get(name).title for name in suits if name in engine.rulesets.available())
        raise InvalidInput(f"ruleset: this course suits {titles}, not {rules.title}")
    if _mode(course_data) not in rules.modes:
        raise InvalidInput(f"ruleset: {rules.title} plays no {_mode(course_data)} (it plays {', '.join(rules.modes)})")
    if modules and not rules.modules:
        raise InvalidInput(f"modules: {rules.title} has no bot modules")
    if teams and not rules.teams:
        raise InvalidInput(f"teams: {rules.title} has no team play")
    if seats is not None and seats > rules.players[1]:
        raise InvalidInput(f"max_seats: {rules.title} takes at most {rules.players[1]} players")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidInput("options: must be an object of option -> value")
    try:
        merged = rules.check_options(options)
    except engine.InputError as error:
        raise InvalidInput(f"options: {error}") from None
    return dict(engine.state.options_table(merged, rules.options))


def refusal(**setting) -> str | None:
    """Why `check_setting(**setting)` refuses the setting, or None when it fits (for filters: the Pyramid's
    pool, the lists that offer only what can be played)."""
    try:
        check_setting(**setting)
    except InvalidInput as error:
        return error.message
    return None


def fits(**setting) -> bool:
    return refusal(**setting) is None


def is_puzzle_game(*, course_data: dict | None, use: str) -> bool:
    """A game that plays a puzzle course as the puzzle: made in the lobby or a test drive. No other use is
    allowed on a puzzle course (check_setting)."""
    return _mode(course_data) == "puzzle" and use in PUZZLE_USES


def game_seed(*, course_data: dict | None, use: str) -> int:
    """The game's seed, which every deal and resolution derives from (engine.derive_seed). A puzzle game has
    its puzzle's own fixed seed, so every solver is dealt the same hands (docs/modes.md "Puzzles"); every other
    game draws its own secret one, never published (issue 33 item 5)."""
    if is_puzzle_game(course_data=course_data, use=use):
        return int(((course_data or {}).get("puzzle") or {}).get("seed", 0))
    return secrets.randbits(62)
