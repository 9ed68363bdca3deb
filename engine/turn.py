"""The working state of one turn being resolved, and the primitive actions every rule is built from.

`Turn` holds mutable working copies of the bots and of what the course elements remember (the input
`State` is never touched) and records every change as an event carrying the phase and step it happened in.
Elements act through these primitives: `advance` (one square of movement, with pushing), `rotate`,
`damage`, `destroy`, `place`, `make_virtual`, and `trace` (the path of a shot).

Movement asks the elements of the squares and edges it crosses through the named hooks of
`engine.hooks` (leave, enter, depart, hole, arrive, land, settle, and the edges' stops_move and bumped);
a shot asks blocks_shot and turns_shot. This module never asks what kind of element lies on a square.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from .elements.portals import exit_of, portal_on
from .geometry import Square, neighbour, opposite, rotate
from .state import Board, Bot, State

Event = dict[str, Any]
MAX_DAMAGE = 10
LOCKED_DAMAGE = 9  # every register frozen, no chips dealt (003 "Damage")
# Events that carry `"module": name` when a bot module caused them (`Turn.caused_by`).
MODULE_CAUSED = frozenset({"shot", "damaged", "moved", "pushed", "destroyed"})


# `Turn.advance`: the event a move of each mode is.
_MOVE_EVENT = {"chip": "moved", "flight": "moved", "push": "pushed", "belt": "carried", "slide": "slid",
               "carry": "carried"}  # fmt: skip
_BOT_FIELDS = tuple(Bot.__dataclass_fields__)
_bot_values = attrgetter(*_BOT_FIELDS)  # a Mover's values of the Bot fields, in their order


class Mover:
    """A bot's working copy during one turn."""

    __slots__ = (
        "id", "at", "dir", "spawn_at", "spawn_dir", "damage", "lives", "next_checkpoint", "virtual",
        "last_program", "rebooting", "spawned", "bad_luck", "out", "ejected", "distance", "moved",
        "battery", "module", "charges", "stored_chip", "scan_due", "drone_of",  # modules (issue 14)
        "team", "target",  # team play, puzzles (issue 16)
        "powered_down", "power_down_next", "upgrades", "upgrade_state", "upgrade_use", "saved_chip",  # classic
        "kind", "owner",  # a turn-local actor (a bomb) is not a bot: `Turn.actors`
    )  # fmt: skip

    def __init__(self, bot: Bot, kind: str = "bot", owner: str | None = None):
        values = bot.__dict__
        for name in _BOT_FIELDS:
            setattr(self, name, values[name])
        self.kind = kind  # "bot" (also a drone), or an actor kind such as "bomb"
        self.owner = owner  # an actor's owner
        self.spawned = False  # becomes true when it respawns at the end of this turn
        self.bad_luck = False  # becomes true when it breaks a mirror this turn
        self.distance = 0  # squares moved by its own chips this turn (003 "Priority")
        self.moved = False  # moved since teleporters last acted (003 "Teleporter")

    def freeze(self, **changes: Any) -> Bot:
        """The frozen Bot again. Its fields were checked when the turn began and the rules keep them in
        range, so it is built without re-running the dataclass' __init__ (the end of every turn does this
        for every bot)."""
        fields = dict(zip(_BOT_FIELDS, _bot_values(self), strict=True))
        fields.update(changes)
        bot = object.__new__(Bot)
        bot.__dict__.update(fields)
        return bot


@dataclass
class WorkingBoard:
    broken: set[Square]
    filled: set[Square]
    field_hits: dict[Square, int]
    mirrors_broken: set[Square]
    loop: dict[Square, Square]
    series_shown: set[Square]
    dest_shown: set[Square]

    @classmethod
    def of(cls, board: Board) -> WorkingBoard:
        return cls(
            broken=set(board.broken), filled=set(board.filled), field_hits=dict(board.field_hits),
            mirrors_broken=set(board.mirrors_broken), loop=dict(board.loop),
            series_shown=set(board.series_shown), dest_shown=set(board.dest_shown),
        )  # fmt: skip

    def freeze(self, fields_down: dict[Square, int]) -> Board:
        return Board(
            broken=frozenset(self.broken), filled=frozenset(self.filled),
            field_hits=frozenset(self.field_hits.items()), fields_down=frozenset(fields_down),
            mirrors_broken=frozenset(self.mirrors_broken), loop=frozenset(self.loop.items()),
            series_shown=frozenset(self.series_shown), dest_shown=frozenset(self.dest_shown),
        )  # fmt: skip


@dataclass
class Shot:
    """Where a shot went: its squares, the squares where a mirror turned it or a portal moved it, and what
    stopped it (bots hit, or an intact force field)."""

    first: Square
    last: Square
    heading: str
    via: list[Square] = field(default_factory=list)
    hit: list[Mover] = field(default_factory=list)
    field: Square | None = None

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"from": list(self.first), "to": list(self.last)}
        if self.via:
            out["via"] = [list(sq) for sq in self.via]
        if self.field is not None:
            out["field"] = list(self.field)
        return out


class ChipPlay:
    """What one chip does, as the bot's module and then the square it is played from change it through the
    `transform_chip` hooks; the bot then plays it (`engine.resolve`).

    `kind` is "turn", "move" or "idle". A turn chip turns by `quarter_turns` (clockwise positive), unless
    `forward_first` (a rail: it tries a move-1 first; when that move fails the chip turns after all, unless
    `turn_if_stuck` is False) or `blocked_by` names what stops it. A move chip moves `count` squares, backward
    when `backward`, or to the side without turning when `sideways` is -1 (left) or 1 (right); `blocked_by`
    stops it before it starts. `extra` more squares follow the chip's own movement, forward or, when
    `extra_backward`, backward (a Turbo). `taken` counts the squares moved so far, `in_extra` is set while
    the extra squares are under way, and `airborne` once it flies (a vent). `module` names the bot module
    that changed the chip, `moved_by` / `extra_by` the module whose doing the chip's movement / the extra
    squares are (their `moved`, `pushed`, `destroyed` and `damaged` events carry it)."""

    __slots__ = ("chip", "kind", "quarter_turns", "count", "backward", "forward_first", "blocked_by", "taken",
                 "airborne", "sideways", "extra", "extra_backward", "in_extra", "turn_if_stuck", "module",
                 "moved_by", "extra_by")  # fmt: skip

    def __init__(self, chip: str, kind: str, quarter_turns: int = 0, count: int = 0, backward: bool = False):
        self.chip = chip
        self.kind = kind
        self.quarter_turns = quarter_turns
        self.count = count
        self.backward = backward
        self.forward_first = False
        self.blocked_by: str | None = None
        self.taken = 0
        self.airborne = False
        self.sideways = 0
        self.extra = 0
        self.extra_backward = False
        self.in_extra = False
        self.turn_if_stuck = True
        self.module: str | None = None
        self.moved_by: str | None = None
        self.extra_by: str | None = None

    def heading(self, facing: str) -> str:
        """The heading of the next square of movement for a bot facing `facing`."""
        if self.in_extra:
            return opposite(facing) if self.extra_backward else facing
        if self.sideways:
            return rotate(facing, self.sideways)
        return opposite(facing) if self.backward else facing

    @property
    def going_back(self) -> bool:
        """The next square of movement is a backward one."""
        return self.extra_backward if self.in_extra else self.backward and not self.sideways

    def add_square(self) -> None:
        """One more square for the movement under way (a vent's flight)."""
        if self.in_extra:
            self.extra += 1
        else:
            self.count += 1

    def invert(self) -> None:
        """Reverse the chip: turns swap left and right, moves go the other way (a sideways move to the other
        side), and so do its extra squares."""
        if self.kind == "turn":
            if self.quarter_turns % 2:
                self.quarter_turns = -self.quarter_turns
        elif self.kind == "move":
            if self.sideways:
                self.sideways = -self.sideways
            else:
                self.backward = not self.backward
            if self.extra:
                self.extra_backward = not self.extra_backward

    def shape(self) -> dict[str, Any]:
        """What the chip does now, as the `from` / `to` of a `chip_transformed` event (docs/formats.md)."""
        if self.kind == "turn":
            return {"kind": "turn", "turn": "?RUL"[self.quarter_turns % 4]}
        if self.kind != "move":
            return {"kind": self.kind}
        side = {-1: "left", 1: "right"}.get(self.sideways)
        out: dict[str, Any] = {
            "kind": "move", "squares": self.count, "dir": side or ("back" if self.backward else "forward")
        }  # fmt: skip
        if self.extra:
            out["extra"] = self.extra
            out["extra_dir"] = "back" if self.extra_backward else "forward"
        return out


class Turn:
    def __init__(self, state: State, reboots: frozenset[str]):
        from . import rulesets

        self.state = state
        self.rules = rulesets.get(state.ruleset)
        self.course = state.course
        self.order = state.priority
        self.bots: dict[str, Mover] = {bot.id: Mover(bot) for bot in state.bots}
        self.reboots = set(reboots)  # accepted reboot requests; repaired in phase 5
        self.radiation = state.radiation  # squares with radiation at the start of this turn
        self.new_radiation: set[Square] = set()
        self.board = WorkingBoard.of(state.board)
        self.fields_down: dict[Square, int] = dict.fromkeys(state.board.fields_down, 0)  # square -> phase
        self.occupied_at_start: set[Square] = set()
        self.programs: dict[str, tuple[str, ...]] = {}
        self.events: list[Event] = []
        self.phase = 1
        self.step = "start"
        self.winner = state.winner
        self.winning_team = state.winning_team  # team play (003 "Team Play")
        self.team_game = state.team_game
        self.outcome: str | None = None  # puzzles: decided at the end of the turn (engine.puzzle)
        self.puzzle_casualty = False  # puzzles: a player's bot was destroyed this turn (a "survive" goal)
        self.fence: int | None = None  # fused's electrified fence: leaving the course costs this much damage
        self.finishers: list[str] = list(state.finishers)  # classic: robots that touched the last flag, in order
        self.local: Any = None  # the ruleset's own data for this turn (its plan's `prepare`, engine.plans)
        hooks = self.course.hooks
        self._leave, self._enter, self._depart = hooks["leave"], hooks["enter"], hooks["depart"]
        self._hole, self._arrive, self._land = hooks["hole"], hooks["arrive"], hooks["land"]
        self._settle = hooks["settle"]
        self._blocks_shot, self._turns_shot = hooks["blocks_shot"], hooks["turns_shot"]
        self._portals = bool(self.course.mounted.get("portal"))
        self._bot_hooks: dict[str, dict[str, tuple[frozenset[int], Any]]] = {}  # `arm_modules`
        self.moves = 0  # squares moved this turn (`place`): who stands where changed
        self._shot_targets: tuple[tuple, dict] | None = None
        self._ordered: tuple[tuple[str, ...] | None, list[Mover]] = (None, [])  # `in_order`: order -> movers
        self.activations: dict[str, Any] = {}  # bot id -> modules.Activation: what it activated this turn
        # This turn's order before any Prioritizer (drones deployed this turn last): the next turn's
        # priority breaks its ties by reversing it (docs/rules.md "Modules").
        self.base_order: tuple[str, ...] = self.order
        self.module_memo: dict[Any, Any] = {}  # what module effects remember within this turn
        self.cause_module: str | None = None  # the module whose effect is being played (`caused_by`)
        # Turn-local actors that are not bots (bombs): moved by elements that ask `in_order(actors=True)`,
        # last in priority, in the order they were created; never in the result.
        self.actors: dict[str, Mover] = {}
        # Drones (003 "Drone"): owner id -> drone id, for the bots sharing check points.
        self.drones: dict[str, str] = {bot.drone_of: bot.id for bot in state.bots if bot.drone_of is not None}
        # Arena remains (engine.remains): the pieces' actor ids, oldest first, and the last serial used.
        self.remains_ids: dict[str, None] = {}
        self.remains_serial = 0
        if state.remains:
            from .remains import new_piece

            for at in sorted(state.remains):
                new_piece(self, at)

    def arm_modules(self) -> None:
        """Once the turn's activations are known: index, per bot hook, the bots whose module implements it."""
        from .hooks import BOT_HOOKS
        from .modules import unit

        self._bot_hooks = {hook: {} for hook in BOT_HOOKS}
        for bot_id, activation in self.activations.items():
            module = unit(activation.module)
            for hook, bots in self._bot_hooks.items():
                method = getattr(module, hook)
                if method is not None:
                    bots[bot_id] = (activation.phases, method)

    def bot_unit(self, bot: Mover, hook: str, *, whole_turn: bool = False) -> Any:
        """The bound `hook` of the bot's module while that module is activated for this phase (for any phase
        of the turn when `whole_turn`), else None."""
        bots = self._bot_hooks.get(hook)
        entry = bots.get(bot.id) if bots else None
        if entry is None or (not whole_turn and self.phase not in entry[0]):
            return None
        return entry[1]

    def hooked(self, hook: str) -> bool:
        """Some bot's module implements `hook` this turn."""
        return bool(self._bot_hooks.get(hook))

    def contact(self, bot: Mover, other: Mover) -> None:
        """Two real bots touch (one pushes the other or is blocked by it): the `contact` hook of each one's
        module (a shocker shocks the other)."""
        for toucher, touched in ((bot, other), (other, bot)):
            if toucher.at is not None and touched.at is not None:
                hook = self.bot_unit(toucher, "contact")
                if hook is not None:
                    hook(self, toucher, touched)

    def prioritize(self) -> None:
        """Start of the turn, after the actions: each activated module's `priority` hook ranks its bot (-1
        before the others, 1 after them: a prioritizer); this turn's order becomes the bots by rank, equal
        ranks in the original priority order. The next turn's priority is still computed from the original
        order (`State.priority`, docs/rules.md "Modules")."""
        ranks = {}
        for bot_id, bot in self.bots.items():
            hook = self.bot_unit(bot, "priority")
            if hook is not None:
                ranks[bot_id] = hook(self, bot)
        if ranks:
            self.order = tuple(sorted(self.order, key=lambda bot_id: ranks.get(bot_id, 0)))

    # --- events and queries ---------------------------------------------------------------------

    @contextmanager
    def caused_by(self, module: str) -> Iterator[None]:
        """While a module's effect plays out, the `shot`, `damaged`, `moved`, `pushed` and `destroyed` events
        it causes (also down a chain of pushes, or a fall into a pit) carry `"module": module`."""
        before, self.cause_module = self.cause_module, module
        try:
            yield
        finally:
            self.cause_module = before

    def emit(self, type_: str, bot: str | None, **fields: Any) -> None:
        if self.remains_ids and bot in self.remains_ids:
            from .remains import translate

            translate(self, type_, fields)  # a piece of remains moved: `remains_moved`
            return
        if self.cause_module is None:
            self.events.append({"phase": self.phase, "step": self.step, "type": type_, "bot": bot, **fields})
            return
        event = {"phase": self.phase, "step": self.step, "type": type_, "bot": bot, **fields}
        if type_ in MODULE_CAUSED:
            event.setdefault("module", self.cause_module)
        self.events.append(event)

    def team_of(self, bot_id: str | None) -> dict[str, Any]:
        """`{"team": name}` for a `winner` event in team play, else nothing."""
        if not self.team_game or bot_id is None:
            return {}
        return {"team": self.bots[bot_id].team}

    def in_order(self, actors: bool = False) -> list[Mover]:
        """Bots on the course, in this turn's priority order (first acts first); with `actors`, then the
        turn's actors on the course (bombs: last in priority), for the elements that move or hit them."""
        if self._ordered[0] is not self.order:  # `order` is only ever replaced, never changed in place
            self._ordered = (self.order, [self.bots[bot_id] for bot_id in self.order])
        found = [bot for bot in self._ordered[1] if bot.at is not None]
        if actors and self.actors:
            found += [actor for actor in self.actors.values() if actor.at is not None]
        return found

    def mates(self, bot: Mover) -> list[Mover]:
        """The bots sharing `bot`'s check points: its drone, or a drone's owner (003 "Drone")."""
        if not self.drones:
            return []
        mate = self.drones.get(bot.id) or bot.drone_of
        return [self.bots[mate]] if mate is not None and mate in self.bots else []

    def bots_at(self, at: Square) -> list[Mover]:
        return [bot for bot in map(self.bots.__getitem__, self.order) if bot.at == at]

    def real_bot_at(self, at: Square) -> Mover | None:
        for bot in self.bots.values():
            if bot.at == at and not bot.virtual:
                return bot
        return None

    def hole(self, at: Square) -> tuple[Any, str] | None:
        """What a bot arriving on the ground of the square falls into (a pit, an open trapdoor, an empty
        receptacle): (the element, the cause), or None."""
        for unit in self._hole.get(at, ()):
            kind = unit.hole(self, at)
            if kind is not None:
                return unit, kind
        return None

    def edge_blocker(self, at: Square, heading: str, *, shot: bool = False) -> str | None:
        """What stops a move (or a shot) leaving `at` toward `heading` on the edge: a plain wall, an edge
        element (`stops_move` / `stops_shot` hooks), a portal's back; None when nothing does."""
        course = self.course
        if (at, heading) in course.walls:
            return "wall"
        element = course.edges.get((at, heading))
        if element is not None:
            stops = element.stops_shot if shot else element.stops_move
            if stops(heading, self.phase):
                return element.type
        if self._portals:
            back = portal_on(course, neighbour(at, heading), opposite(heading))
            if back is not None:
                return "portal"
        return None

    def edge_stop(self, at: Square, heading: str) -> tuple[str | None, Any]:
        """What stops a move leaving `at` toward `heading`: (its name, the edge element, or None for a plain
        wall or a portal's back), or (None, None)."""
        blocker = self.edge_blocker(at, heading)
        if blocker is None or blocker in ("wall", "portal"):
            return blocker, None
        return blocker, self.course.edges[(at, heading)]

    def bump(self, bot: Mover, element: Any) -> None:
        """The bot ran into an edge element that stopped it (`bumped` hook: a shocker shocks it)."""
        if element is not None and element.bumped is not None:
            element.bumped(self, bot)

    # --- primitives -----------------------------------------------------------------------------

    def destroy(self, bot: Mover, cause: str, at: Square | None = None, **extra: Any) -> None:
        where = at if at is not None else bot.at
        if bot.kind != "bot":
            self.lose_actor(bot, cause, where)
            return
        bot.at = None
        if self.rules.counts_lives:
            bot.lives = max(0, bot.lives - 1)
        if bot.lives == 0 and bot.out is None:
            bot.out = (self.state.turn, self.phase)  # out of the race: ranks by when (engine.places)
        bot.damage = 0
        if not bot.target and bot.drone_of is None:
            self.puzzle_casualty = True
        self.reboots.discard(bot.id)
        self.emit("destroyed", bot.id, at=list(where) if where is not None else None, cause=cause, **extra)
        if self.course.mode == "arena":
            from .remains import drop

            drop(self, bot, where)  # 003 "Arena Remains"

    def lose_actor(self, actor: Mover, cause: str, at: Square | None) -> None:
        """An actor (a bomb) took damage or fell: it is gone, event `<kind>_destroyed` (003 "Bomb"); a piece of
        remains fell into a hole or off the course: `remains_lost`."""
        actor.at = None
        if actor.kind == "remains":
            self.emit("remains_lost", None, at=list(at) if at is not None else None, reason=cause)
            return
        self.emit(f"{actor.kind}_destroyed", actor.id, owner=actor.owner, at=list(at) if at is not None else None,
                  cause=cause)  # fmt: skip

    def place(self, bot: Mover, to: Square, *, airborne: bool = False) -> bool:
        """Put a bot on the square it moved to; the course edge, and (unless it flies over) a pit, an open
        trapdoor or an empty receptacle destroy it at once (a receptacle is filled by it)."""
        bot.moved = True
        self.moves += 1
        if not self.course.on_course(to):
            self.destroy(bot, "edge", at=to)
            return False
        if not airborne and self.fall(bot, to):
            return False
        bot.at = to
        if self.remains_ids and not airborne:
            self.arrived(bot)
        return True

    def arrived(self, bot: Mover) -> None:
        """A bot or a piece of remains came to rest on, or passed, a square: remains there are collected at
        once (003 "Arena Remains"). Only called while there are remains."""
        from .remains import KIND, bot_arrived, piece_arrived

        if bot.kind == "bot":
            bot_arrived(self, bot)
        elif bot.kind == KIND:
            piece_arrived(self, bot)

    def fall(self, bot: Mover, at: Square) -> bool:
        """A bot on the ground of `at` falls into its hole, if it has one (`hole` and `fallen` hooks)."""
        found = self.hole(at)
        if found is None:
            return False
        unit, cause = found
        if unit.fallen is not None:
            unit.fallen(self, bot, at)
        self.destroy(bot, cause, at=at)
        return True

    def damage(self, bot: Mover, amount: int, cause: str, **extra: Any) -> None:
        """`extra` (`module=name`) goes on the `damaged` event and on `destroyed` when it kills the bot."""
        if bot.at is None or amount <= 0:
            return
        if bot.kind != "bot":
            if bot.kind != "remains":  # nothing hurts remains (docs/rules.md "Arena remains")
                self.lose_actor(bot, cause, bot.at)  # any damage destroys a bomb (003 "Bomb")
            return
        most = self.rules.max_damage
        bot.damage = min(most, bot.damage + amount)
        self.emit("damaged", bot.id, amount=amount, damage=bot.damage, cause=cause, **extra)
        if bot.damage >= most:
            self.destroy(bot, cause, **extra)

    def repair(self, bot: Mover, amount: int, cause: str, **extra: Any) -> None:
        amount = min(amount, bot.damage)
        if amount > 0:
            bot.damage -= amount
            self.emit("repaired", bot.id, amount=amount, damage=bot.damage, cause=cause, **extra)

    def rotate(self, bot: Mover, quarter_turns: int, cause: str) -> None:
        heading = rotate(bot.dir, quarter_turns)
        self.emit("rotated", bot.id, **{"from": bot.dir, "to": heading, "cause": cause})
        bot.dir = heading

    def face(self, bot: Mover, heading: str, cause: str) -> None:
        if bot.dir != heading:
            self.emit("rotated", bot.id, **{"from": bot.dir, "to": heading, "cause": cause})
            bot.dir = heading

    def make_virtual(self, bot: Mover, cause: str, *, module: str | None = None) -> None:
        bot.virtual = True
        extra = {"module": module} if module is not None else {}
        self.emit("virtual", bot.id, at=list(bot.at), cause=cause, **extra)

    def shot_stopped(self, at: Square) -> None:
        """A real bot's shot was stopped on `at` by what stands there (`shot_hit` hook: a force field takes
        the hit)."""
        for unit in self.course.hooks["shot_hit"].get(at, ()):
            unit.shot_hit(self, at)

    def advance(
        self, bot: Mover, heading: str, *, by: str | None = None, mode: str = "chip", top: bool = True
    ) -> bool:
        """Move a bot one square toward `heading`; a real mover pushes the real bots ahead of it.

        `mode` is `chip` (its own chip), `push` (pushed by a bot, pusher or repeller: `by` names it),
        `belt`, `carry` (a belt that pushes the bots in its way, 004), `slide` (on oil) or `flight` (airborne from a vent: over walls, pits and magnets). Returns
        True when the bot is no longer in the way: it moved (and may have died doing so) or was destroyed
        trying. A blocked try emits `blocked` for the bot that started the move.
        """
        course = self.course
        origin = bot.at
        assert origin is not None
        airborne = mode == "flight"
        if self.activations:
            hook = self.bot_unit(bot, "leave")  # a module: clamps
            if hook is not None:
                heading, blocker = hook(self, bot, heading, mode)
                if blocker is not None:
                    return self._blocked(bot, heading, blocker, top)
        if not airborne:
            for unit in self._leave.get(origin, ()):  # magnets, corner rails
                heading, blocker = unit.leave(self, bot, heading, mode)
                if blocker is not None:
                    return self._blocked(bot, heading, blocker, top)
        portal = None if airborne or not course.mounted.get("portal") else portal_on(course, origin, heading)
        if portal is not None:
            target = exit_of(course, portal)
            if target is None:
                self._no_exit(bot)
                return self._blocked(bot, heading, "portal", top) or bot.at is None
        else:
            blocker, element = (None, None) if airborne else self.edge_stop(origin, heading)
            if blocker is not None:
                self.bump(bot, element)
                if bot.at is None:
                    return True  # destroyed running into it: no longer in the way (003 "Shocker")
                return self._blocked(bot, heading, blocker, top)
            target = neighbour(origin, heading)
        if self.fence is not None and not course.on_course(target):
            # fused (001 addendum): the electrified fence costs HP and is an obstacle
            self.damage(bot, self.fence, "fence")
            return self._blocked(bot, heading, "fence", top) or bot.at is None
        if course.on_course(target):
            if not airborne:
                for unit in self._enter.get(target, ()):  # force fields, mirrors
                    blocker = unit.enter(self, bot, heading, mode)
                    if blocker is not None:
                        return self._blocked(bot, heading, blocker, top)
            if not bot.virtual:
                ahead = self.real_bot_at(target)
                if ahead is not None and self.activations:
                    self.contact(bot, ahead)  # a module: shockers
                    if bot.at is None:
                        return True
                    if ahead.at is None:
                        ahead = None  # shocked to death: it won't push or block (003 "Shocker (Module)")
                if ahead is not None:
                    if mode in ("belt", "slide"):
                        return self._blocked(bot, heading, "bot", top)
                    if not self.advance(ahead, heading, by=bot.id, mode="push", top=False):
                        return self._blocked(bot, heading, "bot", top)
        if not airborne:
            for unit in self._depart.get(origin, ()):  # rails over pits
                if unit.depart(self, bot, heading):
                    return True
        kind = _MOVE_EVENT[mode]
        extra: dict[str, Any] = {"by": by} if mode == "push" else {}
        if airborne:
            extra["airborne"] = True
        if portal is not None:
            extra["portal"] = True
        self.emit(kind, bot.id, **extra, **{"from": list(origin), "to": list(target)})
        if not self.place(bot, target, airborne=airborne):
            return True
        if not airborne:
            self.arrive(bot, heading)
        if mode == "push" and bot.at is not None:
            self.slide(bot, heading)
        return True

    def arrive(self, bot: Mover, heading: str) -> None:
        """What a square does to a bot arriving on its ground (`arrive` hook: rails, magnets, mirrors)."""
        for unit in self._arrive.get(bot.at, ()):
            unit.arrive(self, bot, heading)
            if bot.at is None:
                return

    def land(self, bot: Mover, heading: str) -> None:
        """An airborne bot comes down (003 "Vent"): a hole or a force field kills it (`hole`, `land` hooks);
        it breaks a mirror even when virtual."""
        at = bot.at
        self.emit("landed", bot.id, at=list(at))
        if self.fall(bot, at):
            return
        if self.remains_ids:
            self.arrived(bot)
            if bot.at is None:
                return
        for unit in self._land.get(at, ()):
            if unit.land(self, bot):
                return
        self.arrive(bot, heading)

    def slide(self, bot: Mover, heading: str) -> None:
        """The bot's movement stopped: what lies on its square may carry it on (`settle` hook: oil)."""
        if bot.at is None:
            return
        for unit in self._settle.get(bot.at, ()):
            unit.settle(self, bot, heading)

    def _blocked(self, bot: Mover, heading: str, by: str, top: bool) -> bool:
        if top and bot.at is not None:
            self.emit("blocked", bot.id, at=list(bot.at), dir=heading, by=by)
        return False

    def _no_exit(self, bot: Mover) -> None:
        """003 "Portal": entering a portal with no exit locks all chips, or kills a rebooting bot."""
        if bot.rebooting:
            self.destroy(bot, "portal")
        else:
            self.damage(bot, LOCKED_DAMAGE - bot.damage, "portal")

    def trace(
        self,
        start: Square,
        heading: str,
        *,
        skip_first: bool,
        hits_virtual: bool,
        shooter: Mover | None = None,
        targets: dict[Square, list[Mover]] | None = None,
    ) -> Shot | None:
        """The path of a shot from `start` toward `heading` (from the square ahead when `skip_first`).

        It stops at a wall or another edge that stops shots, the course edge, an intact force field, or
        the first square holding a bot it hits (bot lasers hit real bots only). Mirrors turn it; red
        portals carry it on. None when it can't leave its first square. `targets` (square -> bots that
        may be hit there), when given, saves building it for each shot of a step; bots destroyed since are
        left out."""
        course = self.course
        if targets is None:
            targets = self.targets(hits_virtual)
        occupied = targets
        if course.plain_shots:
            # No element on this course bends or stops shots but walls: the cached ray will do.
            ray = course.ray(start, heading)
            if skip_first:
                ray = ray[1:]
                if not ray:
                    return None
            for square in ray:
                if square in occupied:
                    hit = [bot for bot in occupied[square] if bot.at == square]
                    if hit:
                        return Shot(first=ray[0], last=square, heading=heading, hit=hit)
            return Shot(first=ray[0], last=ray[-1], heading=heading)
        square = start
        if skip_first:
            nxt = self._shot_step(square, heading)
            if nxt is None:
                return None
            square = nxt
        shot = Shot(first=square, last=square, heading=heading)
        blocks, turns = self._blocks_shot, self._turns_shot
        for _ in range(4 * course.width * course.height + 4):
            shot.last = square
            if square in blocks:  # force fields
                for unit in blocks[square]:
                    if unit.blocks_shot(self, square):
                        shot.field = square if shooter is not None else None
                        return shot
            if square in occupied:
                hit = [bot for bot in occupied[square] if bot.at == square]
                if hit:
                    shot.hit = hit
                    return shot
            if square in turns:  # mirrors
                for unit in turns[square]:
                    turned = unit.turns_shot(self, square, shot.heading)
                    if turned is not None:
                        shot.heading = turned
                        shot.via.append(square)
            nxt = self._shot_step(square, shot.heading, shot)
            if nxt is None:
                return shot
            square = nxt
        return shot

    def shot_targets(self) -> dict[Square, list[Mover]]:
        """`targets(hits_virtual=False)` for the bots' shots of this step, found again only after a bot moved
        (a blaster's recoil, a repeller's push); bots destroyed since are skipped by `trace`."""
        key = (self.phase, self.step, self.moves)
        if self._shot_targets is None or self._shot_targets[0] != key:
            self._shot_targets = (key, self.targets(False))
        return self._shot_targets[1]

    def targets(self, hits_virtual: bool) -> dict[Square, list[Mover]]:
        """The bots a shot may hit, by square, in priority order."""
        occupied: dict[Square, list[Mover]] = {}
        for bot in self.in_order(actors=hits_virtual):  # what hits virtual bots hits bombs too
            if (hits_virtual or not bot.virtual) and bot.kind != "remains":  # shots pass over remains
                occupied.setdefault(bot.at, []).append(bot)
        return occupied

    def _shot_step(self, square: Square, heading: str, shot: Shot | None = None) -> Square | None:
        course = self.course
        portal = portal_on(course, square, heading) if self._portals else None
        if portal is not None:
            if portal.colour != "red":
                return None
            target = exit_of(course, portal)
            if target is not None and shot is not None:
                shot.via.append(target)
            return target
        if self.edge_blocker(square, heading, shot=True) is not None:
            return None
        ahead = neighbour(square, heading)
        return ahead if course.on_course(ahead) else None
