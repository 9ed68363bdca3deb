"""Game state as immutable values, and its plain-data form (what the site stores)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .chips import DEALT_CHIPS, PROGRAM_LENGTH
from .course import Course
from .errors import InputError
from .geometry import DIRECTIONS, Square
from .modules import MODULE_NAMES
from .modules.economy import check_price, initial_prices
from .places import final_places
from .puzzle import target_bots
from .rulesets import DEFAULT as DEFAULT_RULESET

DEFAULT_LIVES = 3
START_BATTERY = 500  # 003 "Battery"
PUZZLE_BATTERY = 5000
MAX_BATTERY = 1_000_000
MAX_CHARGES = 99


def start_battery(mode: str) -> int:
    return PUZZLE_BATTERY if mode == "puzzle" else START_BATTERY


@dataclass(frozen=True)
class Bot:
    id: str
    at: Square | None  # None while destroyed or out of lives
    dir: str
    spawn_at: Square
    spawn_dir: str
    damage: int = 0
    lives: int = DEFAULT_LIVES
    next_checkpoint: int = 1
    virtual: bool = False
    last_program: tuple[str, ...] = ()
    rebooting: bool = False  # rebooted last turn: plays five "0" chips this turn (003 "Rebooting")
    spawned: bool = False  # respawned at the end of last turn: dealt a safe mix (003 "Spawning")
    bad_luck: bool = (
        False  # broke a mirror last turn: draws two chips per card, keeps the lower (003 "Mirror")
    )
    out: tuple[int, int] | None = None  # (turn, phase) it lost its last life; phase 0: ejected before that turn
    ejected: bool = False  # taken out by an ejection (timed out, resigned, staff): ranks below the others
    # Bot modules (003 "Bot Modules", "Battery"; docs/rules.md "Bot modules")
    battery: int = START_BATTERY
    module: str | None = None  # the installed module
    charges: int = 0  # charges of the installed module
    stored_chip: str | None = None  # Storage: a chip of the owner's hand, hidden from the others
    scan_due: bool = False  # activated the Scanner last turn: one charge is taken at the start of this turn
    drone_of: str | None = None  # this bot is a drone of that bot
    team: str | None = None  # team play: "blue" or "orange" (003 "Team Play"); a drone shares its owner's
    target: bool = False  # a puzzle's target bot: no player's, plays the puzzle's program (engine.puzzle)
    # classic (000): power down this round / announced for the next, upgrades with their uses and thresholds,
    # this round's switches, and Flywheel's saved instruction (docs/formats.md "Rulesets")
    powered_down: bool = False
    power_down_next: bool = False
    upgrades: tuple[str, ...] = ()
    upgrade_state: tuple[tuple[str, Any], ...] = ()
    upgrade_use: tuple[tuple[str, Any], ...] = ()
    saved_chip: str | None = None

    @property
    def alive(self) -> bool:
        return self.at is not None

    @property
    def in_game(self) -> bool:
        """Still racing: on the course, or destroyed with a life left to respawn with."""
        return self.at is not None or self.lives > 0


@dataclass(frozen=True)
class Board:
    """What the course elements remember between turns (003 "Elements")."""

    broken: frozenset[Square] = frozenset()  # damaged tiles that broke into screens
    filled: frozenset[Square] = frozenset()  # receptacles a bot fell into
    field_hits: frozenset[tuple[Square, int]] = frozenset()  # force fields and the shots they took
    fields_down: frozenset[Square] = frozenset()  # recharging force fields down: back at the end of phase 1
    mirrors_broken: frozenset[Square] = frozenset()
    loop: frozenset[tuple[Square, Square]] = frozenset()  # teleporter -> destination, drawn on the first turn
    series_shown: frozenset[Square] = frozenset()  # teleporters whose series number shows
    dest_shown: frozenset[Square] = frozenset()  # teleporters whose destination number shows
    # classic (000): the upgrade offered on each wrench/hammer square and the rounds it has been offered
    offers: frozenset[tuple[Square, str, int]] = frozenset()


_BOARD_SETS = ("broken", "filled", "fields_down", "mirrors_broken", "series_shown", "dest_shown")


def board_to_dict(board: Board) -> dict[str, Any]:
    data: dict[str, Any] = {name: sorted(list(sq) for sq in getattr(board, name)) for name in _BOARD_SETS}
    data["field_hits"] = sorted([list(sq), hits] for sq, hits in board.field_hits)
    data["loop"] = sorted([list(a), list(b)] for a, b in board.loop)
    data["offers"] = sorted([list(sq), name, rounds] for sq, name, rounds in board.offers)
    return {key: value for key, value in data.items() if value}


def public_board(board: Board) -> dict[str, Any]:
    """The board as anyone may see it: the teleporter loop only where a destination number shows (the
    rest of the loop is hidden until used, 003 "Teleporter")."""
    data = board_to_dict(board)
    if "loop" in data:
        data["loop"] = [pair for pair in data["loop"] if tuple(pair[0]) in board.dest_shown]
        if not data["loop"]:
            del data["loop"]
    return data


def board_from_dict(data: Any) -> Board:
    if not isinstance(data, Mapping):
        raise InputError(f"board: must be an object, got {data!r}")
    fields: dict[str, Any] = {}
    for name in _BOARD_SETS:
        fields[name] = frozenset(_square(sq, f"board.{name}") for sq in data.get(name, ()))
    try:
        fields["field_hits"] = frozenset(
            (_square(sq, "board.field_hits"), int(hits)) for sq, hits in data.get("field_hits", ())
        )
        fields["loop"] = frozenset(
            (_square(a, "board.loop"), _square(b, "board.loop")) for a, b in data.get("loop", ())
        )
        fields["offers"] = frozenset(
            (_square(sq, "board.offers"), str(name), int(rounds)) for sq, name, rounds in data.get("offers", ())
        )
    except (TypeError, ValueError):
        raise InputError("board: 'field_hits' and 'loop' must be lists of pairs, 'offers' of [[x, y], name, rounds]") from None
    return Board(**fields)


@dataclass(frozen=True)
class State:
    course: Course
    bots: tuple[Bot, ...]
    priority: tuple[str, ...]  # this turn's order of execution, first acts first
    turn: int = 1
    winner: str | None = None
    lives: int = DEFAULT_LIVES
    radiation: frozenset[Square] = frozenset()  # left by last turn's virtual burn (003 "Virtual Burn")
    board: Board = Board()
    price_table: tuple[tuple[str, int], ...] = ()  # (module, price) of each available module, by name
    remains: frozenset[Square] = frozenset()  # arena remains, one piece per square (003 "Arena Remains")
    winning_team: str | None = None  # team play: the team that won (003 "Team Play")
    outcome: str | None = None  # puzzles: "solved" or "failed" once decided (engine.puzzle)
    finishers: tuple[str, ...] = ()  # classic: the robots that touched the last flag, in order (000 "Ending")
    ends_after: int | None = None  # classic: the last turn of the runner-up rounds
    ruleset: str = DEFAULT_RULESET  # the rules it is played by (engine.rulesets)
    options: tuple[tuple[str, Any], ...] = ()  # the ruleset's game options, by name (`Ruleset.options`)

    @property
    def option(self) -> dict[str, Any]:
        """The game's ruleset options: the ruleset's defaults with this game's choices applied."""
        from . import rulesets

        return {**rulesets.get(self.ruleset).options, **dict(self.options)}

    @property
    def prices(self) -> dict[str, int]:
        """The current price of one charge of each available module (003 "The Economy")."""
        return dict(self.price_table)

    @property
    def mode(self) -> str:
        return self.course.mode

    @property
    def finished(self) -> bool:
        """Won, or every bot is out of lives at once (a race with no winner). A drone alone does not keep
        a race going (003 "Drone": it tags "until the game ends")."""
        if self.ends_after is not None:  # classic's runner-up rounds (000 "Ending the game")
            return self.turn > self.ends_after or not any(
                bot.in_game and bot.id not in self.finishers for bot in self.bots
            )
        return (
            self.winner is not None
            or self.winning_team is not None
            or self.outcome is not None
            or not any(bot.in_game and bot.drone_of is None and not bot.target for bot in self.bots)
        )

    @property
    def team_game(self) -> bool:
        """Team play: the bots are on the Blue and Orange teams (003 "Team Play")."""
        return any(bot.team is not None for bot in self.bots)

    @property
    def places(self) -> dict[str, int] | None:
        """Every bot's final place once the race is over (docs/rules.md "Final places"), else None. Drones
        are not ranked."""
        if not self.finished:
            return None
        ranked = (bot for bot in self.bots if bot.drone_of is None and not bot.target)
        return final_places(ranked, self.winner, self.winning_team, finishers=self.finishers)

    def bot(self, bot_id: str) -> Bot:
        for bot in self.bots:
            if bot.id == bot_id:
                return bot
        raise KeyError(bot_id)

    def with_bots(self, bots: Iterable[Bot]) -> State:
        return replace(self, bots=tuple(bots))


def prices_to_table(prices: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(prices.items()))


def new_game(
    course: Course,
    bot_ids: Sequence[str],
    *,
    lives: int = DEFAULT_LIVES,
    modules: Iterable[str] = (),
    prices: Mapping[str, int] | None = None,
    teams: Mapping[str, str] | None = None,
    ruleset: str = DEFAULT_RULESET,
    options: Mapping[str, Any] | None = None,
) -> State:
    """Place one bot per id on starts 1..n, facing each start's direction: real, with a safe first hand.

    `teams` ({bot id: "blue" | "orange"}, every bot, at least two on each) makes it a team game.
    `modules` are the bot modules available in this game; their prices start at `prices` where given,
    else at the base prices (engine.modules.economy). Batteries start at 500 (5000 in puzzles)."""
    from . import rulesets

    rules = rulesets.get(ruleset)
    if ruleset not in course.rulesets:
        raise InputError(f"course {course.name!r} does not suit the {ruleset} ruleset (it suits {', '.join(course.rulesets)})")
    if (modules or prices) and not rules.modules:
        raise InputError(f"the {ruleset} ruleset has no bot modules")
    if teams and not rules.teams:
        raise InputError(f"the {ruleset} ruleset has no team play")
    game_options = rules.check_options(options or {})
    if not course.players[0] <= len(bot_ids) <= course.players[1]:
        raise InputError(
            f"course {course.name!r} takes {course.players[0]} to {course.players[1]} players, got {len(bot_ids)}"
        )
    if len(set(bot_ids)) != len(bot_ids):
        raise InputError("bot ids must be unique")
    if lives < 1:
        raise InputError("lives must be at least 1")
    # fused (001 "Mode"): every robot starts virtual on the first start
    starts = [course.starts[0]] * len(bot_ids) if rules.shared_start else course.starts
    bots = tuple(
        Bot(
            id=bot_id,
            at=start.at,
            dir=start.dir,
            spawn_at=start.at,
            spawn_dir=start.dir,
            lives=lives,
            spawned=True,
            virtual=rules.shared_start,
            battery=start_battery(course.mode),
            team=teams.get(bot_id) if teams else None,
        )
        for bot_id, start in zip(bot_ids, starts, strict=False)
    )
    if teams:  # team play (003 "Team Play": "two teams of two or more bots")
        if course.mode not in ("race", "arena"):
            raise InputError(f"team play is for races and arenas, not a {course.mode}")
        if set(teams) != set(bot_ids):
            raise InputError("teams: every bot, and only the game's bots, needs a team")
        check_teams(bots, least=2)
    table = prices_to_table(initial_prices(modules, prices))
    targets = tuple(target_bots(course))  # a puzzle's target bots, after the players' (engine.puzzle)
    bots += targets
    priority = (*bot_ids, *(bot.id for bot in targets))
    if len(set(priority)) != len(priority):
        raise InputError("a player's bot id is also a puzzle target's id")
    return State(
        course=course, bots=bots, priority=priority, lives=lives, price_table=table, ruleset=ruleset,
        options=options_table(game_options, rules.options),
    )  # fmt: skip


def bot_to_dict(bot: Bot) -> dict[str, Any]:
    return {
        "id": bot.id,
        "at": list(bot.at) if bot.at is not None else None,
        "dir": bot.dir,
        "damage": bot.damage,
        "lives": bot.lives,
        "next_checkpoint": bot.next_checkpoint,
        "virtual": bot.virtual,
        "spawn": {"at": list(bot.spawn_at), "dir": bot.spawn_dir},
        "last_program": list(bot.last_program),
        "rebooting": bot.rebooting,
        "spawned": bot.spawned,
        **({"bad_luck": True} if bot.bad_luck else {}),
        **({"out": list(bot.out)} if bot.out is not None else {}),
        **({"ejected": True} if bot.ejected else {}),
        "battery": bot.battery,
        "module": None if bot.module is None else {"type": bot.module, "charges": bot.charges},
        "stored_chip": bot.stored_chip,
        "scan_due": bot.scan_due,
        **({"drone_of": bot.drone_of} if bot.drone_of is not None else {}),
        **({"team": bot.team} if bot.team is not None else {}),
        **({"target": True} if bot.target else {}),
    }


CLASSIC_FIELDS = ("powered_down", "power_down_next", "upgrades", "upgrade_state", "upgrade_use", "saved_chip")


def classic_fields(bot: Bot) -> dict[str, Any]:
    """The bot fields of classic (000), as the formats write them (docs/formats.md "Rulesets")."""
    return {
        "powered_down": bot.powered_down, "power_down_next": bot.power_down_next, "upgrades": list(bot.upgrades),
        "upgrade_state": dict(bot.upgrade_state), "upgrade_use": dict(bot.upgrade_use), "saved_chip": bot.saved_chip,
    }  # fmt: skip


def ruleset_bot_dict(state: State, bot: Bot) -> dict[str, Any]:
    """The bot as stored, with its ruleset's own fields (`Ruleset.bot_dict`: classic's)."""
    from . import rulesets

    extra = rulesets.get(state.ruleset).bot_dict
    return bot_to_dict(bot) | (extra(bot) if extra is not None else {})


def state_to_dict(state: State) -> dict[str, Any]:
    """The state without its course (stored beside it)."""
    return {
        "turn": state.turn,
        "lives": state.lives,
        "priority": list(state.priority),
        "winner": state.winner,
        "bots": [ruleset_bot_dict(state, bot) for bot in state.bots],
        **({"finishers": list(state.finishers), "ends_after": state.ends_after} if state.ends_after else {}),
        "radiation": sorted([list(square) for square in state.radiation]),
        **({"board": board} if (board := board_to_dict(state.board)) else {}),
        **({"places": places} if (places := state.places) is not None else {}),
        **({"prices": state.prices} if state.price_table else {}),
        **({"remains": sorted(map(list, state.remains))} if state.remains else {}),
        **({"winning_team": state.winning_team} if state.team_game else {}),
        **({"outcome": state.outcome} if state.mode == "puzzle" else {}),
        **({"ruleset": state.ruleset} if state.ruleset != DEFAULT_RULESET else {}),
        **({"options": dict(state.options)} if state.options else {}),
    }


def _square(value: Any, field: str) -> Square:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise InputError(f"{field}: must be [x, y], got {value!r}")
    return (value[0], value[1])


def _module_fields(data: Mapping[str, Any], where: str, default_battery: int) -> dict[str, Any]:
    """The bot's module fields (docs/formats.md "Bot modules"), checked."""
    drone = data.get("drone_of") is not None
    battery = data.get("battery", 0 if drone else default_battery)
    if not isinstance(battery, int) or isinstance(battery, bool) or not 0 <= battery <= MAX_BATTERY:
        raise InputError(f"{where}: 'battery' must be a whole number from 0 to {MAX_BATTERY}, got {battery!r}")
    module, charges = data.get("module"), 0
    if module is not None:
        if not isinstance(module, Mapping) or set(module) - {"type", "charges"}:
            raise InputError(f"{where}: 'module' must be null or {{\"type\": name, \"charges\": n}}, got {module!r}")
        charges = module.get("charges", 0)
        module = module.get("type")
        if module not in MODULE_NAMES:
            raise InputError(f"{where}: 'module.type' must be one of {', '.join(MODULE_NAMES)}, got {module!r}")
        if not isinstance(charges, int) or isinstance(charges, bool) or not 0 <= charges <= MAX_CHARGES:
            raise InputError(
                f"{where}: 'module.charges' must be a whole number from 0 to {MAX_CHARGES}, got {charges!r}"
            )
    stored = data.get("stored_chip")
    if stored is not None and stored not in DEALT_CHIPS:
        raise InputError(f"{where}: 'stored_chip' must be null or one of {' '.join(DEALT_CHIPS)}, got {stored!r}")
    scan_due = data.get("scan_due", False)
    if not isinstance(scan_due, bool):
        raise InputError(f"{where}: 'scan_due' must be true or false, got {scan_due!r}")
    drone_of = data.get("drone_of")
    if drone_of is not None and (not isinstance(drone_of, str) or not drone_of or drone_of == data.get("id")):
        raise InputError(f"{where}: 'drone_of' must be the id of another bot, got {drone_of!r}")
    if drone and (battery or module is not None or stored is not None or scan_due):
        # 003 "Drone": "Modules do not affect the drone"; it has no battery of its own (docs/formats.md)
        raise InputError(
            f"{where}: a drone has no battery, module, stored chip or scan (battery 0, module null, "
            f"stored_chip null, scan_due false)"
        )
    return {
        "battery": battery, "module": module, "charges": charges, "stored_chip": stored,
        "scan_due": scan_due, "drone_of": drone_of,
    }  # fmt: skip


def check_drones(bots: Sequence[Bot]) -> None:
    """A drone's owner is another bot of the game that is not itself a drone."""
    by_id = {bot.id: bot for bot in bots}
    for bot in bots:
        if bot.drone_of is None:
            continue
        owner = by_id.get(bot.drone_of)
        if owner is None:
            raise InputError(f"bot {bot.id!r}: 'drone_of' {bot.drone_of!r} is not a bot of this game")
        if owner.drone_of is not None:
            raise InputError(f"bot {bot.id!r}: 'drone_of' {bot.drone_of!r} is itself a drone")
        if bot.id != bot.drone_of + ".drone":
            wanted = bot.drone_of + ".drone"
            raise InputError(f"bot {bot.id!r}: a drone's id is its owner's id + '.drone' ({wanted!r})")


def bot_from_dict(
    data: Mapping[str, Any],
    *,
    default_lives: int = DEFAULT_LIVES,
    default_battery: int = START_BATTERY,
    ruleset: str = DEFAULT_RULESET,
) -> Bot:
    from . import rulesets

    rules = rulesets.get(ruleset)
    where = f"bot {data.get('id')!r}"
    if not isinstance(data.get("id"), str) or not data["id"]:
        raise InputError("bot: 'id' must be a non-empty string")
    at = None if data.get("at") is None else _square(data["at"], f"{where} at")
    direction = data.get("dir")
    if direction not in DIRECTIONS:
        raise InputError(f"{where}: 'dir' must be one of N, E, S, W, got {direction!r}")
    spawn = data.get("spawn") or {}
    spawn_at = _square(spawn["at"], f"{where} spawn.at") if "at" in spawn else at
    spawn_dir = spawn.get("dir", direction)
    if spawn_at is None:
        raise InputError(f"{where}: a destroyed bot needs a 'spawn'")
    if spawn_dir not in DIRECTIONS:
        raise InputError(f"{where}: 'spawn.dir' must be one of N, E, S, W, got {spawn_dir!r}")
    damage = data.get("damage", 0)
    lives = data.get("lives", 1 if data.get("drone_of") is not None else default_lives)  # a drone: one life
    next_checkpoint = data.get("next_checkpoint", 1)
    for field, value, low, high in (
        ("damage", damage, 0, rules.max_damage - 1),
        ("lives", lives, 0, 99),
        ("next_checkpoint", next_checkpoint, 1, 99),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise InputError(f"{where}: '{field}' must be a whole number from {low} to {high}, got {value!r}")
    out = data.get("out")
    if out is not None and not (
        isinstance(out, (list, tuple))
        and len(out) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in out)
        and out[0] >= 1
        and 0 <= out[1] <= PROGRAM_LENGTH
    ):
        raise InputError(f"{where}: 'out' must be [turn, phase] (turn from 1, phase 0 to 5), got {out!r}")
    if out is not None and (at is not None or lives != 0):
        raise InputError(f"{where}: a bot with 'out' left the race: it needs 'at': null and 'lives': 0")
    if data.get("ejected") and out is None:
        raise InputError(f"{where}: an ejected bot needs 'out' (the turn it was ejected before, phase 0)")
    last_program = tuple(data.get("last_program", ()))
    if last_program and (
        len(last_program) != PROGRAM_LENGTH or any(rules.card_problem(c) for c in last_program)
    ):
        raise InputError(f"{where}: 'last_program' must be 5 {'cards' if rules.numbered else 'chips'}, got {list(last_program)!r}")
    team = data.get("team")
    if team is not None and team not in ("blue", "orange"):
        raise InputError(f"{where}: 'team' must be 'blue' or 'orange', got {team!r}")
    classic = _classic_fields(data, where, rules)
    return Bot(
        **classic,
        id=data["id"],
        at=at,
        dir=direction,
        spawn_at=spawn_at,
        spawn_dir=spawn_dir,
        damage=damage,
        lives=lives,
        next_checkpoint=next_checkpoint,
        virtual=bool(data.get("virtual", False)),
        last_program=last_program,
        rebooting=bool(data.get("rebooting", False)),
        spawned=bool(data.get("spawned", False)),
        bad_luck=bool(data.get("bad_luck", False)),
        out=None if out is None else (out[0], out[1]),
        ejected=bool(data.get("ejected", False)),
        **_module_fields(data, where, default_battery),
        team=team,
        target=bool(data.get("target", False)),
    )


def _classic_fields(data: Mapping[str, Any], where: str, rules: Any) -> dict[str, Any]:
    """classic's bot fields, checked by the ruleset (`Ruleset.bot_fields`); any of them elsewhere is refused."""
    given = [name for name in CLASSIC_FIELDS if name in data]
    if not given:
        return {}
    if rules.bot_fields is None:
        raise InputError(f"{where}: {given[0]!r} is a field of the classic ruleset, not of {rules.name}")
    return rules.bot_fields(data, where)


def state_from_dict(data: Mapping[str, Any], course: Course) -> State:
    from . import rulesets

    ruleset = data.get("ruleset", DEFAULT_RULESET)
    rules = rulesets.get(ruleset)
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise InputError(f"options: must be an object, got {options!r}")
    options = rules.check_options(options)
    lives = data.get("lives", DEFAULT_LIVES)
    battery = start_battery(course.mode)
    bots = tuple(
        bot_from_dict(b, default_lives=lives, default_battery=battery, ruleset=ruleset) for b in data.get("bots", ())
    )
    ids = [bot.id for bot in bots]
    if len(set(ids)) != len(ids):
        raise InputError("bots: ids must be unique")
    check_drones(bots)
    prices = data.get("prices", {})
    if not isinstance(prices, Mapping):
        raise InputError(f"prices: must be an object of module -> price, got {prices!r}")
    for name, price in prices.items():
        if name not in MODULE_NAMES:
            raise InputError(f"prices: unknown module {name!r}")
        check_price(name, price)
    for bot in bots:
        if bot.at is not None and not course.on_course(bot.at):
            raise InputError(f"bot {bot.id!r}: 'at' {list(bot.at)} is off the course")
    priority = tuple(data.get("priority") or ids)
    if sorted(priority) != sorted(ids):
        raise InputError(f"priority: must list every bot id once, got {list(priority)!r}")
    remains = remains_from_list(data.get("remains", ()), course)
    check_teams(bots)
    winning_team = data.get("winning_team")
    if winning_team is not None and (winning_team not in TEAMS or not any(bot.team for bot in bots)):
        raise InputError(f"winning_team: must be null or a team of this game, got {winning_team!r}")
    outcome = data.get("outcome")
    if outcome not in (None, "solved", "failed") or (outcome is not None and course.mode != "puzzle"):
        raise InputError(f"outcome: must be null, 'solved' or 'failed' (puzzles only), got {outcome!r}")
    return State(
        course=course,
        bots=bots,
        priority=priority,
        turn=data.get("turn", 1),
        winner=data.get("winner"),
        lives=lives,
        radiation=frozenset(_square(sq, "radiation") for sq in data.get("radiation", ())),
        board=board_from_dict(data.get("board", {})),
        price_table=prices_to_table(prices),
        remains=remains,
        winning_team=winning_team,
        outcome=outcome,
        ruleset=ruleset,
        options=options_table(options, rules.options),
        finishers=tuple(data.get("finishers", ())),
        ends_after=data.get("ends_after"),
    )


def options_table(options: Mapping[str, Any], defaults: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The options that differ from the ruleset's defaults, by name (what `State.options` keeps)."""
    return tuple(sorted((key, value) for key, value in options.items() if defaults.get(key) != value))


TEAMS = ("blue", "orange")  # 003 "Team Play": the Blue Team and the Orange Team


def check_teams(bots: Sequence[Bot], *, least: int = 1) -> None:
    """Team play: either no bot has a team, or every bot that is not a drone (nor a puzzle's target) has one
    of the two, both teams have at least `least` bots, and a drone is on its owner's team."""
    owners = {bot.id: bot for bot in bots}
    players = [bot for bot in bots if bot.drone_of is None and not getattr(bot, "target", False)]
    for bot in bots:
        if bot.team is not None and bot.team not in TEAMS:
            raise InputError(f"bot {bot.id!r}: 'team' must be 'blue' or 'orange', got {bot.team!r}")
    if not any(bot.team is not None for bot in bots):
        return
    for bot in players:
        if bot.team is None:
            raise InputError(f"bot {bot.id!r}: in team play every bot has a 'team' ('blue' or 'orange')")
    for team in TEAMS:
        if sum(1 for bot in players if bot.team == team) < least:
            raise InputError(f"team play needs at least {least} bot(s) on each team; {team} has fewer")
    for bot in bots:
        owner = owners.get(bot.drone_of) if bot.drone_of is not None else None
        if owner is not None and bot.team not in (None, owner.team):
            raise InputError(f"bot {bot.id!r}: a drone is on its owner's team ({owner.team!r})")

MAX_REMAINS_INPUT = 64 * 64


def remains_from_list(value: Any, course: Course) -> frozenset[Square]:
    """Arena remains as given: a list of distinct [x, y] squares on the course, in an arena only."""
    if not isinstance(value, (list, tuple)):
        raise InputError(f"remains: must be a list of [x, y] squares, got {value!r}")
    if not value:
        return frozenset()
    if course.mode != "arena":
        raise InputError(f"remains: only an arena has remains (this course's mode is {course.mode!r})")
    if len(value) > MAX_REMAINS_INPUT:
        raise InputError("remains: too many squares")
    squares = [_square(square, "remains") for square in value]
    for square in squares:
        if not course.on_course(square):
            raise InputError(f"remains: {list(square)} is off the course")
    if len(set(squares)) != len(squares):
        raise InputError("remains: at most one piece per square (pieces on one square merge)")
    return frozenset(squares)
