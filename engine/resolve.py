"""Resolving a turn: five phases of chips, then the end of the turn (003 "Phase Steps").

The rules run on a working copy of the bots; the input state is never mutated. Every change is
recorded as an event dict with the phase and step it happened in, in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .chips import BACK_UP, CHIPS, IDLE, MOVES, PROGRAM_LENGTH, TURNS
from .errors import InputError
from .geometry import Square, neighbour, opposite, rotate
from .state import Bot, State

Event = dict[str, Any]


class _Turn:
    """The working state of one turn being resolved."""

    def __init__(self, state: State):
        self.state = state
        self.course = state.course
        self.bots: dict[str, Bot] = {bot.id: bot for bot in state.bots}
        self.events: list[Event] = []
        self.phase = 0
        self.step = ""
        self.winner = state.winner

    def emit(self, type_: str, bot: str, **fields: Any) -> None:
        self.events.append({"phase": self.phase, "step": self.step, "type": type_, "bot": bot, **fields})

    def real_bot_at(self, at: Square) -> Bot | None:
        for bot in self.bots.values():
            if bot.at == at and not bot.virtual:
                return bot
        return None

    def destroy(self, bot_id: str, at: Square, cause: str) -> None:
        bot = self.bots[bot_id]
        self.bots[bot_id] = replace(bot, at=None, lives=max(0, bot.lives - 1), damage=0)
        self.emit("destroyed", bot_id, at=list(at), cause=cause)

    def place(self, bot_id: str, to: Square) -> None:
        """Put a bot on a square it has moved to, destroying it if that is a pit or off the course."""
        self.bots[bot_id] = replace(self.bots[bot_id], at=to)
        if not self.course.on_course(to):
            self.destroy(bot_id, to, "edge")
        elif to in self.course.pits:
            self.destroy(bot_id, to, "pit")

    def move_one(self, bot_id: str, direction: str) -> bool:
        """Move a bot one square, pushing a chain of real bots; False if a wall stops it."""
        mover = self.bots[bot_id]
        assert mover.at is not None
        chain: list[str] = [bot_id]
        square = mover.at
        # Walk the line of real bots the mover would push; a wall anywhere in it blocks the move.
        while True:
            if self.course.wall_between(square, direction):
                self.emit("blocked", bot_id, at=list(mover.at), dir=direction)
                return False
            square = neighbour(square, direction)
            if mover.virtual or not self.course.on_course(square):
                break
            pushed = self.real_bot_at(square)
            if pushed is None:
                break
            chain.append(pushed.id)
        for pushed_id in reversed(chain[1:]):
            origin = self.bots[pushed_id].at
            assert origin is not None
            target = neighbour(origin, direction)
            self.emit("pushed", pushed_id, by=bot_id, **{"from": list(origin), "to": list(target)})
            self.place(pushed_id, target)
        target = neighbour(mover.at, direction)
        self.emit("moved", bot_id, **{"from": list(mover.at), "to": list(target)})
        self.place(bot_id, target)
        return True

    def turn_bot(self, bot_id: str, quarter_turns: int) -> None:
        bot = self.bots[bot_id]
        heading = rotate(bot.dir, quarter_turns)
        self.bots[bot_id] = replace(bot, dir=heading)
        self.emit("rotated", bot_id, **{"from": bot.dir, "to": heading})

    def play_chip(self, bot_id: str, chip: str) -> None:
        self.emit("chip", bot_id, chip=chip)
        if chip in MOVES:
            for _ in range(MOVES[chip]):
                bot = self.bots[bot_id]
                if bot.at is None or not self.move_one(bot_id, bot.dir):
                    return
        elif chip == BACK_UP:
            self.move_one(bot_id, opposite(self.bots[bot_id].dir))
        elif chip in TURNS:
            self.turn_bot(bot_id, TURNS[chip])

    def tag_checkpoints(self) -> None:
        """A bot ending a phase on its next check point tags it and stores its spawn position there."""
        self.step = "checkpoints"
        checkpoints = {cp.number: cp.at for cp in self.course.checkpoints}
        for bot_id in self.state.priority:
            bot = self.bots[bot_id]
            target = checkpoints.get(bot.next_checkpoint)
            if bot.at is None or target != bot.at:
                continue
            self.bots[bot_id] = replace(
                bot, next_checkpoint=bot.next_checkpoint + 1, spawn_at=bot.at, spawn_dir=bot.dir
            )
            self.emit("checkpoint", bot_id, number=bot.next_checkpoint, at=list(bot.at))
            if bot.next_checkpoint == len(checkpoints) and self.winner is None:
                self.winner = bot_id
                self.emit("winner", bot_id, reason="course")

    def end_of_turn(self) -> None:
        """Phase 5's closing steps: respawn destroyed bots (virtual), then virtual bots alone turn real."""
        self.step = "respawn"
        for bot_id in self.state.priority:
            bot = self.bots[bot_id]
            if bot.at is None and bot.lives > 0:
                self.bots[bot_id] = replace(bot, at=bot.spawn_at, dir=bot.spawn_dir, virtual=True, damage=0)
                self.emit("respawned", bot_id, at=list(bot.spawn_at), dir=bot.spawn_dir, virtual=True)
        self.step = "virtuality"
        for bot_id in self.state.priority:
            bot = self.bots[bot_id]
            if bot.at is None or not bot.virtual:
                continue
            if not any(other.id != bot_id and other.at == bot.at for other in self.bots.values()):
                self.bots[bot_id] = replace(bot, virtual=False)
                self.emit("real", bot_id, at=list(bot.at))
        self.step = "winning"
        if self.winner is None and len(self.bots) > 1:
            remaining = [bot_id for bot_id in self.state.priority if self.bots[bot_id].in_game]
            if len(remaining) == 1:
                self.winner = remaining[0]
                self.emit("winner", remaining[0], reason="last bot alive")


def _checked_programs(state: State, programs: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    checked = {}
    for bot in state.bots:
        if not bot.in_game:
            continue
        program = programs.get(bot.id)
        if program is None:
            raise InputError(f"no program for bot {bot.id!r}")
        if len(program) != PROGRAM_LENGTH or any(chip not in CHIPS for chip in program):
            raise InputError(f"bot {bot.id!r}: a program is 5 chips from {', '.join(CHIPS)}, got {list(program)!r}")
        checked[bot.id] = tuple(program)
    unknown = set(programs) - {bot.id for bot in state.bots}
    if unknown:
        raise InputError(f"programs for unknown bots: {sorted(unknown)}")
    return checked


def resolve_turn(state: State, programs: Mapping[str, Sequence[str]], seed: int) -> tuple[State, list[Event]]:
    """Run one turn. Returns the next turn's state and the ordered events; `state` is left untouched.

    `seed` is the turn's random seed; the rules implemented so far draw nothing at random, and later
    elements that do (teleporters, Bad Luck) take their randomness from it alone.
    """
    del seed  # kept in the signature: every random rule draws from it
    if state.finished:
        raise InputError("the game is already over")
    checked = _checked_programs(state, programs)
    turn = _Turn(state)
    for phase in range(1, PROGRAM_LENGTH + 1):
        turn.phase, turn.step = phase, "chips"
        for bot_id in state.priority:
            bot = turn.bots[bot_id]
            chip = checked.get(bot_id, (IDLE,) * PROGRAM_LENGTH)[phase - 1]
            if bot.at is not None:
                turn.play_chip(bot_id, chip)
        turn.tag_checkpoints()
        if turn.winner is not None:
            break
    if turn.winner is None:
        turn.end_of_turn()
    bots = [
        replace(turn.bots[bot.id], last_program=checked.get(bot.id, turn.bots[bot.id].last_program))
        for bot in state.bots
    ]
    new_state = replace(state, bots=tuple(bots), turn=state.turn + 1, winner=turn.winner)
    return new_state, turn.events
