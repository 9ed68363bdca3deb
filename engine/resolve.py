"""Resolving a turn: five phases of the steps of 003 "Phase Steps", then the end of the turn.

The core rules live here: playing chips, rebooting, virtuality and virtual burn, respawning, the winning
check and the next turn's priority. Course elements act in their own modules (`engine.elements`) and
register the step they act in; `engine.steps` holds the order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import (
    elements,  # noqa: F401  (registers every element's steps)
    rulesets,
)
from . import remains as remains_rules  # arena remains (issue 16): registers the `remains` step
from .chips import BACK_UP, CHIPS, IDLE, MOVES, PROGRAM_LENGTH, TURNS
from .elements.teleporters import draw_loop
from .errors import InputError
from .modules.actions import apply_actions, prepare_turn, recharge  # modules (issue 14)
from .puzzle import decide as decide_puzzle
from .puzzle import goal_met_mid_turn, target_programs
from .state import State, prices_to_table
from .steps import runs_in
from .turn import ChipPlay, Event, Mover, Turn

IDLE_PROGRAM = (IDLE,) * PROGRAM_LENGTH


def chip_play(chip: str) -> ChipPlay:
    """What a chip does by itself."""
    if chip in TURNS:
        return ChipPlay(chip, "turn", quarter_turns=TURNS[chip])
    if chip in MOVES:
        return ChipPlay(chip, "move", count=MOVES[chip])
    if chip == BACK_UP:
        return ChipPlay(chip, "move", count=1, backward=True)
    return ChipPlay(chip, "idle")


def _play_chip(turn: Turn, bot: Mover, chip: str, **shown: Any) -> None:
    """One chip, changed by the bot's module (the bot's `transform_chip` hook: reverse, crab legs, turbo,
    clamp) and then by the square it is played from (the square's `transform_chip` hook, 003 "Elements": a
    rail makes a turn chip a move-1 first, an inverter reverses it, a doubler doubles its movement, water cuts
    it to one square, a magnet stops turns). Each square of its movement asks the `chip_step` hook of the
    square it leaves (corner rails backing up; vents lifting the bot into flight); the chip's `extra` squares
    (a Turbo) follow its own movement as part of the same chip. An airborne bot lands when the chip's
    movement is done; movement that ends asks `settle` (oil)."""
    turn.emit("chip", bot.id, chip=chip, **shown)
    hooks = turn.course.hooks
    play = chip_play(chip)
    units = hooks["transform_chip"].get(bot.at, ())
    if turn.activations:
        _transform_by_module(turn, bot, play, units)
    else:
        for unit in units:
            unit.transform_chip(turn, bot, play)
    if play.kind == "turn":
        if play.forward_first:
            if turn.advance(bot, bot.dir):
                if bot.at is not None:
                    bot.distance += 1
                    turn.slide(bot, bot.dir)
                return
            if not play.turn_if_stuck or bot.at is None:
                return  # a clamp held it: the failed move-1 is the whole chip (003 "Clamp")
        if play.blocked_by is not None:
            turn.emit("blocked", bot.id, at=list(bot.at), dir=bot.dir, by=play.blocked_by)
            return
        turn.rotate(bot, play.quarter_turns, "chip")
        return
    if play.kind != "move":
        return
    if play.blocked_by is not None:  # a sideways move on a rail or a magnet (003 "Crab Legs", "Magnet")
        turn.emit("blocked", bot.id, at=list(bot.at), dir=play.heading(bot.dir), by=play.blocked_by)
        return
    steps = hooks["chip_step"]
    turn.cause_module = play.moved_by
    heading = _chip_squares(turn, bot, play, steps, play.count)
    if play.extra and bot.at is not None:  # a Turbo: its squares follow, part of the same chip
        play.in_extra = True
        turn.cause_module = play.extra_by
        before = play.taken
        extra_heading = _chip_squares(turn, bot, play, steps, play.extra)
        if play.taken > before:
            heading = extra_heading
    turn.cause_module = None
    if bot.at is None:
        return
    if play.airborne:
        turn.land(bot, heading)
    if bot.at is not None and play.taken:
        turn.slide(bot, heading)


def _chip_squares(turn: Turn, bot: Mover, play: ChipPlay, steps: Mapping, limit: int) -> str:
    """Move the squares of one part of a chip's movement (its own, or its extra squares) until `limit` (which
    a vent may raise through `play.add_square`) or a block; returns the last heading tried."""
    heading = bot.dir
    done = 0
    while done < (play.extra if play.in_extra else play.count):
        for unit in steps.get(bot.at, ()):
            unit.chip_step(turn, bot, play)
        heading = play.heading(bot.dir)
        if not turn.advance(bot, heading, mode="flight" if play.airborne else "chip") or bot.at is None:
            break
        done += 1
        play.taken += 1
        bot.distance += 1
    return heading


def _transform_by_module(turn: Turn, bot: Mover, play: ChipPlay, units) -> None:
    """The bot's module changes the chip first, then the square's elements do. Each change of a chip a
    module changed is a `chip_transformed` event: `module` for the module's own, `cause` (the element
    type) for an element's change of it afterwards (an inverter reversing a Turbo's extra square)."""
    hook = turn.bot_unit(bot, "transform_chip")
    if hook is not None:
        before = play.shape()
        hook(turn, bot, play)
        after = play.shape()
        if after != before:
            play.module = turn.activations[bot.id].module
            turn.emit("chip_transformed", bot.id, module=play.module, **{"from": before, "to": after})
    for unit in units:
        if play.module is None:
            unit.transform_chip(turn, bot, play)
            continue
        before = play.shape()
        unit.transform_chip(turn, bot, play)
        after = play.shape()
        if after != before:
            turn.emit("chip_transformed", bot.id, cause=unit.type, **{"from": before, "to": after})


@runs_in("chips")
def play_chips(turn: Turn) -> None:
    """Each bot on the course plays this phase's chip, in priority order; a bot destroyed earlier in the
    step does not act (003 "Priority")."""
    for bot_id in turn.order:
        bot = turn.bots[bot_id]
        if bot.at is not None:
            _play_chip(turn, bot, turn.programs[bot_id][turn.phase - 1])


@runs_in("repairs")
def reboot_repairs(turn: Turn) -> None:
    """A rebooting bot is completely repaired just before the end of the turn (003 "Rebooting")."""
    for bot in turn.in_order():
        if bot.id in turn.reboots:
            turn.repair(bot, bot.damage, "reboot")


@runs_in("virtuality")
def virtual_to_real(turn: Turn) -> None:
    """A virtual bot alone on its square turns real; one sharing it with another virtual bot takes a point
    of virtual burn, stays virtual and leaves radiation there for the next turn (003 "Virtuality",
    "Virtual Burn"). One sharing it only with real bots stays virtual."""
    on_course = turn.in_order()
    burning = []
    for bot in on_course:
        if not bot.virtual:
            continue
        others = [other for other in on_course if other is not bot and other.at == bot.at]
        if not others:
            bot.virtual = False
            turn.emit("real", bot.id, at=list(bot.at))
        elif any(other.virtual for other in others):
            burning.append(bot)
    for bot in burning:
        if bot.at not in turn.new_radiation:
            turn.new_radiation.add(bot.at)
            turn.emit("radiation", None, at=list(bot.at))
        turn.damage(bot, 1, "virtual burn")


@runs_in("respawn")
def respawn(turn: Turn) -> None:
    """A destroyed bot with a life left comes back virtual at its stored position and heading; a destroyed
    drone does not (003 "Drone": it plays "until it is destroyed")."""
    for bot_id in turn.order:
        bot = turn.bots[bot_id]
        if bot.at is None and bot.lives > 0 and bot.drone_of is None:
            bot.at, bot.dir, bot.virtual, bot.damage = bot.spawn_at, bot.spawn_dir, True, 0
            bot.spawned = True
            turn.emit("respawned", bot.id, at=list(bot.at), dir=bot.dir, virtual=True)


@runs_in("winning")
def last_bot_alive(turn: Turn) -> None:
    """The last bot alive wins. It runs after the respawn (003 "Phase Steps": "(Phase 5) Bots Respawn- Check
    winning conditions"; 001 and 000 reinstate destroyed robots at the end of the turn too), and a bot counts
    as alive while it is in the game: on the course, or destroyed with a life left (a classic robot waiting
    for a free square beside its archive). A drone is not a bot alive: it neither wins nor keeps another bot
    from winning (003 "Drone"). In team play the last team alive wins: its bot is the winner when it is the
    only one left (003 "Team Play")."""
    if turn.course.mode == "puzzle":
        return  # a puzzle is solved or failed (engine.puzzle), never won by the last bot alive
    racers = [bot_id for bot_id in turn.order if turn.bots[bot_id].drone_of is None]
    if turn.winner is None and turn.winning_team is None and len(racers) > 1:
        remaining = [bot_id for bot_id in racers if turn.bots[bot_id].at is not None or turn.bots[bot_id].lives > 0]
        if len(remaining) == 1:
            turn.winner = remaining[0]
            turn.emit("winner", remaining[0], reason="last bot alive", **turn.team_of(remaining[0]))
        elif turn.team_game and remaining and len({turn.bots[bot_id].team for bot_id in remaining}) == 1:
            team = turn.bots[remaining[0]].team
            turn.winning_team = team
            turn.emit("winner", None, reason="last team alive", team=team)


def next_priority(order: Sequence[str], distances: Mapping[str, int]) -> tuple[str, ...]:
    """More distance moved by its own chips first; ties in the reverse of this turn's order."""
    return tuple(sorted(reversed(order), key=lambda bot_id: -distances[bot_id]))


def _kept_order(turn: Turn, kept: list[Mover]) -> tuple[str, ...]:
    """This turn's order less the drones gone at its end (a drone deployed this turn acts last)."""
    ids = {bot.id for bot in kept}
    return tuple(bot_id for bot_id in turn.base_order if bot_id in ids)


def _checked_programs(state: State, programs: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    known = {bot.id for bot in state.bots}
    unknown = set(programs) - known
    if unknown:
        raise InputError(f"programs for unknown bots: {sorted(unknown)}")
    checked = {}
    targets = target_programs(state.course)
    for bot in state.bots:
        program = programs.get(bot.id)
        if bot.target:
            if program is not None:
                raise InputError(f"bot {bot.id!r} is a puzzle's target: it plays the puzzle's own program")
            checked[bot.id] = targets.get(bot.id, IDLE_PROGRAM) if bot.at is not None else IDLE_PROGRAM
            continue
        if bot.rebooting:
            if program is not None and tuple(program) != IDLE_PROGRAM:
                raise InputError(f"bot {bot.id!r} is rebooting this turn and plays five '0' chips")
            checked[bot.id] = IDLE_PROGRAM
            continue
        if bot.at is None:
            checked[bot.id] = IDLE_PROGRAM
            continue
        if program is None:
            raise InputError(f"no program for bot {bot.id!r}")
        if len(program) != PROGRAM_LENGTH or any(chip not in CHIPS for chip in program):
            raise InputError(
                f"bot {bot.id!r}: a program is 5 chips from {', '.join(CHIPS)}, got {list(program)!r}"
            )
        checked[bot.id] = tuple(program)
    return checked


def arena_reboot_message(bot_id: str) -> str:
    return f"no reboot in an arena: bot {bot_id!r} asked to reboot (003 \"Rebooting\")"


def _start(turn: Turn, reboots: Iterable[str]) -> None:
    if turn.remains_ids:
        remains_rules.merge_remains(turn)  # remains given on a bot's square go to it at once
    for bot_id in turn.order:
        if turn.bots[bot_id].rebooting:
            turn.emit("rebooting", bot_id)
    for bot_id in sorted(reboots, key=turn.order.index):
        bot = turn.bots[bot_id]
        if bot.at is not None and bot.at in turn.radiation:
            turn.reboots.discard(bot_id)
            turn.emit("reboot_refused", bot_id, at=list(bot.at), reason="radiation")


def resolve_turn(
    state: State,
    programs: Mapping[str, Sequence[str]],
    seed: int,
    *,
    reboots: Iterable[str] = (),
    actions: Mapping[str, Mapping] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
) -> tuple[State, list[Event]]:
    """Run one turn by the rules of the state's ruleset (`engine.rulesets`). Returns the next turn's state and
    the ordered events; `state` is left untouched. `seed` is the turn's random seed: all randomness a turn
    uses comes from it."""
    return rulesets.get(state.ruleset).resolve(state, programs, seed, reboots=reboots, actions=actions, hands=hands)


def roboracer_prepare(
    state: State,
    programs: Mapping[str, Sequence[str]],
    seed: int,
    *,
    reboots: Iterable[str] = (),
    actions: Mapping[str, Mapping] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
) -> Turn:
    """The checks of a turn of 003, and the turn. `programs` maps each bot on the course to its five chips;
    `reboots` names the bots whose players asked to reboot with this program. `seed` is the turn's random
    seed: the core rules draw nothing at random, and elements that do (teleporters, Bad Luck) take their
    randomness from it alone. `actions` maps bots to their module action and `hands` bots to their dealt
    chips (docs/formats.md "Bot modules"); a program register "S" plays the bot's stored chip."""
    bots = {bot.id: bot for bot in state.bots}
    reboots = frozenset(reboots)
    for bot_id in sorted(reboots):
        if bot_id not in bots:
            raise InputError(f"reboot for unknown bot {bot_id!r}")
        if state.mode == "arena":  # 003 "Rebooting": "Rebooting is not possible in arena games."
            raise InputError(arena_reboot_message(bot_id))
        if bots[bot_id].rebooting:
            raise InputError(f"bot {bot_id!r} is already rebooting this turn")
    prepared = prepare_turn(state, programs, actions, hands)  # modules (issue 14)
    turn = Turn(state, frozenset(bot_id for bot_id in reboots if bots[bot_id].at is not None))
    turn.prices = state.prices  # modules (issue 14): read by the module effects
    turn.programs = _checked_programs(state, prepared.programs)
    if not turn.board.loop and state.course.of_type("teleporter"):
        turn.board.loop = draw_loop(state.course, seed)  # once per race, kept in the state
    turn.local = Roboracer(reboots, prepared, state.mode == "puzzle" and state.course.puzzle is not None)
    return turn


class Roboracer:
    """003's own data for a turn (`Turn.local`)."""

    __slots__ = ("asked", "prepared", "puzzle")

    def __init__(self, asked: frozenset[str], prepared: Any, puzzle: bool):
        self.asked, self.prepared, self.puzzle = asked, prepared, puzzle


def start_turn(turn: Turn) -> None:
    """Remains given on a bot's square, the reboots (refused on radiation), then the modules' actions:
    install, charge, activate, stored chips; prioritizers act first or last this turn."""
    _start(turn, turn.local.asked)
    apply_actions(turn, turn.local.prepared)  # modules (issue 14)
    if turn.activations:
        turn.arm_modules()
        turn.prioritize()


def puzzle_goal_met(turn: Turn) -> bool:
    return turn.local.puzzle and goal_met_mid_turn(turn)


def decide_puzzle_turn(turn: Turn) -> None:
    """A puzzle is solved or failed (engine.puzzle)."""
    turn.outcome = decide_puzzle(turn, turn.state.turn)


def roboracer_end_of_turn(turn: Turn) -> dict[str, Any]:
    """A destroyed drone is gone at the end of the turn, a drone deployed this turn stays (003 "Drone"); the
    next priority; the battery recharges; the bots go into the next turn."""
    kept = [bot for bot in turn.bots.values() if bot.drone_of is None or bot.at is not None]
    order = turn.base_order if len(kept) == len(turn.base_order) else _kept_order(turn, kept)
    priority = next_priority(order, {bot_id: bot.distance for bot_id, bot in turn.bots.items()})
    turn.emit("priority", None, order=list(priority))
    recharge(turn)  # modules (issue 14): the battery, at the very end of the turn
    rebooting_next = {bot_id for bot_id in turn.reboots if turn.bots[bot_id].at is not None}
    bots = tuple(
        bot.freeze(
            last_program=turn.programs[bot.id],
            rebooting=bot.id in rebooting_next,
        )
        for bot in kept
    )
    return {
        "bots": bots,
        "priority": priority,
        "radiation": frozenset(turn.new_radiation),
        "board": turn.board.freeze(turn.fields_down),
        "price_table": prices_to_table(turn.prices),  # modules (issue 14)
        "remains": remains_rules.remaining(turn) if turn.remains_ids else frozenset(),  # issue 16
        "outcome": turn.outcome,
        "winning_team": turn.winning_team or (turn.bots[turn.winner].team if turn.winner is not None else None),
    }
