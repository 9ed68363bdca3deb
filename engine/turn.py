"""The working state of one turn being resolved, and the primitive actions every rule is built from.

`Turn` holds mutable working copies of the bots (the input `State` is never touched) and records every
change as an event carrying the phase and step it happened in. Elements act through these primitives:
`move` (with pushing), `rotate`, `damage`, `destroy` and `place`.
"""

from __future__ import annotations

from typing import Any

from .geometry import Square, neighbour, rotate
from .state import Bot, State

Event = dict[str, Any]
MAX_DAMAGE = 10


class Mover:
    """A bot's working copy during one turn."""

    __slots__ = (
        "id", "at", "dir", "spawn_at", "spawn_dir", "damage", "lives", "next_checkpoint", "virtual",
        "last_program", "rebooting", "spawned", "distance",
    )  # fmt: skip

    def __init__(self, bot: Bot):
        for name in Bot.__dataclass_fields__:
            setattr(self, name, getattr(bot, name))
        self.spawned = False  # becomes true when it respawns at the end of this turn
        self.distance = 0  # squares moved by its own chips this turn (003 "Priority")

    def freeze(self, **changes: Any) -> Bot:
        fields = {name: getattr(self, name) for name in Bot.__dataclass_fields__}
        fields.update(changes)
        return Bot(**fields)


class Turn:
    def __init__(self, state: State, reboots: frozenset[str]):
        self.state = state
        self.course = state.course
        self.order = state.priority
        self.bots: dict[str, Mover] = {bot.id: Mover(bot) for bot in state.bots}
        self.reboots = set(reboots)  # accepted reboot requests; repaired in phase 5
        self.radiation = state.radiation  # squares with radiation at the start of this turn
        self.new_radiation: set[Square] = set()
        self.programs: dict[str, tuple[str, ...]] = {}
        self.events: list[Event] = []
        self.phase = 1
        self.step = "start"
        self.winner = state.winner

    # --- events and queries ---------------------------------------------------------------------

    def emit(self, type_: str, bot: str | None, **fields: Any) -> None:
        self.events.append({"phase": self.phase, "step": self.step, "type": type_, "bot": bot, **fields})

    def in_order(self) -> list[Mover]:
        """Bots on the course, in this turn's priority order (first acts first)."""
        return [bot for bot in map(self.bots.__getitem__, self.order) if bot.at is not None]

    def bots_at(self, at: Square) -> list[Mover]:
        return [bot for bot in map(self.bots.__getitem__, self.order) if bot.at == at]

    def real_bot_at(self, at: Square) -> Mover | None:
        for bot in self.bots.values():
            if bot.at == at and not bot.virtual:
                return bot
        return None

    # --- primitives -----------------------------------------------------------------------------

    def destroy(self, bot: Mover, cause: str, at: Square | None = None) -> None:
        where = at if at is not None else bot.at
        bot.at = None
        bot.lives = max(0, bot.lives - 1)
        bot.damage = 0
        self.reboots.discard(bot.id)
        self.emit("destroyed", bot.id, at=list(where) if where is not None else None, cause=cause)

    def place(self, bot: Mover, to: Square) -> bool:
        """Put a bot on the square it moved to; a pit or the course edge destroys it at once."""
        if not self.course.on_course(to):
            self.destroy(bot, "edge", at=to)
            return False
        if to in self.course.pits:
            self.destroy(bot, "pit", at=to)
            return False
        bot.at = to
        return True

    def damage(self, bot: Mover, amount: int, cause: str) -> None:
        if bot.at is None or amount <= 0:
            return
        bot.damage = min(MAX_DAMAGE, bot.damage + amount)
        self.emit("damaged", bot.id, amount=amount, damage=bot.damage, cause=cause)
        if bot.damage >= MAX_DAMAGE:
            self.destroy(bot, cause)

    def repair(self, bot: Mover, amount: int, cause: str) -> None:
        amount = min(amount, bot.damage)
        if amount > 0:
            bot.damage -= amount
            self.emit("repaired", bot.id, amount=amount, damage=bot.damage, cause=cause)

    def rotate(self, bot: Mover, quarter_turns: int, cause: str) -> None:
        heading = rotate(bot.dir, quarter_turns)
        self.emit("rotated", bot.id, **{"from": bot.dir, "to": heading, "cause": cause})
        bot.dir = heading

    def move(self, bot: Mover, direction: str, *, by: str | None = None) -> bool:
        """Move a bot one square, pushing the line of real bots ahead of a real mover.

        `by` is None for a bot's own chip, or what pushes it (`"pusher"`). A wall anywhere in the line
        blocks the whole move. Returns whether the bot moved (it may have died doing so).
        """
        assert bot.at is not None
        line = [bot]
        square = bot.at
        while True:
            if self.course.wall_between(square, direction):
                self.emit("blocked", bot.id, at=list(bot.at), dir=direction, by="wall")
                return False
            square = neighbour(square, direction)
            if bot.virtual or not self.course.on_course(square):
                break
            ahead = self.real_bot_at(square)
            if ahead is None:
                break
            line.append(ahead)
        for pushed in reversed(line[1:]):
            origin = pushed.at
            assert origin is not None
            target = neighbour(origin, direction)
            self.emit("pushed", pushed.id, by=bot.id, **{"from": list(origin), "to": list(target)})
            self.place(pushed, target)
        origin = bot.at
        target = neighbour(origin, direction)
        if by is None:
            self.emit("moved", bot.id, **{"from": list(origin), "to": list(target)})
        else:
            self.emit("pushed", bot.id, by=by, **{"from": list(origin), "to": list(target)})
        self.place(bot, target)
        return True
