"""`fused` (001): a play-by-web RoboRally. 10 hit points (HP = 10 - damage), HP - 1 numbered cards dealt, the
larger number first, registers fused from below 6 HP, real / virtual / destroyed modes, three robots.

A stage (001 "Mechanisms", in this order): the cards; conveyors (blue ones up to two squares, then every
belt one); pushers and crushers in their numbered stages; gears; laser turrets (a blue one is blocked by
robots, the others hit every robot in their line); robots' lasers; check points (flags and green wrenches
set the reinstate square, flags are tagged in order). A virtual robot alone on its square at the end of a
stage turns real, except in its first turn, which it spends virtual. At the end of the turn robots on a
wrench or a flag repair, destroyed robots with robots left are reinstated (virtual, full HP), then the last
robot in the game (the only player with robots left) wins, and a robot whose player asked for a reboot sits
the next turn out with its HP restored (it plays no cards, fires no laser and touches no check point; it
can still be pushed and shot). Leaving the board runs into the electrified fence (option `electric_fence`,
on by default): 2 HP and an obstacle; with it off the robot is destroyed. docs/rules.md "fused" has the
decisions the document leaves open.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import reports
from ..cards import roborace_deck, split
from ..chips import IDLE, PROGRAM_LENGTH
from ..elements.turntables import run_turntables
from ..errors import CourseError, InputError, ProgramError
from ..geometry import neighbour, opposite
from ..plans import WON, Plan, conveyors, step, winning
from ..program import roboracer_frozen
from ..state import State
from ..turn import Mover, Turn
from . import Ruleset, register
from .numbered import checked_programs, play_cards, program_problem

NAME = "fused"
HP = 10
FENCE_DAMAGE = 2  # 001 addendum
ELEMENTS = frozenset({"floor", "wall", "pit", "start", "checkpoint", "repair", "belt", "pusher", "turntable",
                      "crusher", "laser"})  # fmt: skip


def card_problem(card: object) -> str | None:
    if card == IDLE:
        return None  # an empty register: only when too few cards were dealt (001 "Submitting a turn")
    if split(card) is None:
        return f"{card!r} is not a card: a card is written '<chip>@<number>' (e.g. 'R@5')"
    return None


def hand_size(bot: Any) -> int:
    return max(0, HP - 1 - bot.damage)  # 001 "Hit points": HP - 1 cards


def _deal(state: State, seed: int) -> dict[str, tuple[str, ...]]:
    """HP - 1 cards to each robot from one shuffled deck of the 84 numbered cards, less the cards fused in
    registers (they stay where they are); a rebooting robot gets none."""
    fused = {card for bot in state.bots for card in roboracer_frozen(bot).values()}
    deck = [card for card in roborace_deck() if card not in fused]
    random.Random(seed).shuffle(deck)
    hands = {}
    for bot_id in state.priority:
        bot = state.bot(bot_id)
        if not bot.in_game:
            continue
        hands[bot_id] = () if bot.rebooting else tuple(deck.pop() for _ in range(min(hand_size(bot), len(deck))))
    return hands


def _check_program(bot: Any, hand: Sequence[str], cards: Any, action: Any = None, *, state: Any = None):
    if action is not None:
        return ProgramError("the fused ruleset has no bot modules (its options are forthcoming in 001)")
    if bot.rebooting:
        return None if list(cards) == [IDLE] * PROGRAM_LENGTH else ProgramError("a rebooting robot plays no cards")
    problem = program_problem(cards, hand, roboracer_frozen(bot), card_problem)
    return ProgramError(problem) if problem else None


def _random_program(bot: Any, hand: Sequence[str], seed: int) -> tuple[str, ...]:
    if bot.rebooting:
        return (IDLE,) * PROGRAM_LENGTH
    locked = roboracer_frozen(bot)
    pool = list(hand)
    random.Random(seed).shuffle(pool)
    return tuple(locked[i] if i in locked else (pool.pop() if pool else IDLE) for i in range(PROGRAM_LENGTH))


def _check_course(course: Any) -> None:
    for element in course.elements:
        if element.conveys and element.speed not in (1, 2):
            raise CourseError("course: a fused conveyor is yellow (speed 1) or blue (speed 2)", squares=[element.at])
        if element.repair_amount and element.upgrade:
            raise CourseError("course: fused's stations give options, not upgrades", squares=[element.at])


# --- the steps of a stage ----------------------------------------------------------------------------------


def _pushers(turn: Turn) -> None:
    """Active pushers push one square away from their wall; two pushing onto one square: neither moves."""
    pushers = turn.course.mounted.get("pusher", {})
    found = []
    for bot in turn.in_order():
        for pusher in pushers.get(bot.at, ()):
            if turn.phase in pusher.phases:
                found.append((bot, opposite(pusher.side)))
                break
    targets = [neighbour(bot.at, heading) for bot, heading in found]
    for (bot, heading), target in zip(found, targets, strict=True):
        if targets.count(target) > 1:
            turn.emit("blocked", bot.id, at=list(bot.at), dir=heading, by="pusher")
        elif bot.at is not None:
            turn.advance(bot, heading, by="pusher", mode="push")


def _crushers(turn: Turn) -> None:
    for bot in turn.in_order():
        above = turn.course.ceiling.get(bot.at)
        if above is not None and above.crushes(turn.phase):
            turn.destroy(bot, "crusher")


def _turrets(turn: Turn) -> None:
    """Each laser turret costs every robot it hits 1 HP a beam; a blue one stops at the first robot, the others
    pass through robots (001 "Laser turret"). Virtual robots are hit too (001 "Mode")."""
    for laser in turn.course.of_type("laser"):
        heading = opposite(laser.side)
        hit: list[Mover] = []
        for square in turn.course.ray(laser.at, heading):
            here = turn.bots_at(square)
            hit += here
            if here and laser.colour == "blue":
                break
        turn.emit("shot", None, source="laser", at=list(laser.at), dir=heading, hit=[bot.id for bot in hit])
        for bot in hit:
            turn.damage(bot, laser.beams, "laser")


def _combat(turn: Turn) -> None:
    """Every real robot that is not rebooting fires forward: the first real robot in its line loses 1 HP."""
    targets = turn.targets(False)
    shots = []
    for bot in turn.in_order():
        if bot.virtual or bot.rebooting:
            continue
        shot = turn.trace(bot.at, bot.dir, skip_first=True, hits_virtual=False, shooter=bot, targets=targets)
        shots.append((bot, shot))
    for bot, shot in shots:  # robots fire at once: one destroyed by a shot still fires its own
        if shot is None:
            continue
        turn.emit("shot", bot.id, source="bot", **shot.fields(), hit=[target.id for target in shot.hit])
        for target in shot.hit:
            turn.damage(target, 1, "bot laser")


def _checkpoints(turn: Turn, last: int) -> None:
    for bot in turn.in_order():
        if bot.rebooting:
            continue  # a rebooting robot can't interact with a check point
        marker, tile = turn.course.markers.get(bot.at), turn.course.tiles.get(bot.at)
        number = marker.flag_number if marker is not None else None
        if number is None and not (tile is not None and tile.archives):  # flags and green wrenches
            continue
        if (bot.spawn_at, bot.spawn_dir) != (bot.at, bot.dir):
            bot.spawn_at, bot.spawn_dir = bot.at, bot.dir
            turn.emit("reinstate_point", bot.id, at=list(bot.at), dir=bot.dir)
        if number is not None and number == bot.next_checkpoint:
            bot.next_checkpoint += 1
            turn.emit("checkpoint", bot.id, number=number, at=list(bot.at))
            if number == last and turn.winner is None:
                turn.winner = bot.id
                turn.emit("winner", bot.id, reason="course")


def _virtuality(turn: Turn, first_turn: set[str]) -> None:
    """A virtual robot alone on its square turns real, from the end of its first turn on."""
    on_course = turn.in_order()
    for bot in on_course:
        if not bot.virtual or (bot.id in first_turn and turn.phase < PROGRAM_LENGTH):
            continue
        if not any(other is not bot and other.at == bot.at for other in on_course):
            bot.virtual = False
            turn.emit("real", bot.id, at=list(bot.at))


def _fusing(turn: Turn, before: Mapping[str, int], cards: Mapping[str, list]) -> None:
    """A register fuses when HP drops below 6, 5, ...: event `register_fused` with the card it keeps."""
    for bot in turn.in_order():
        was, now = max(0, before[bot.id] - 4), max(0, bot.damage - 4)
        for count in range(was + 1, min(now, PROGRAM_LENGTH) + 1):
            register = PROGRAM_LENGTH - count
            program = cards.get(bot.id)
            card = program[register][2] if program else (bot.last_program[register] if bot.last_program else None)
            turn.emit("register_fused", bot.id, register=register + 1, card=card)


class Stages:
    """001's own data for a turn (`Turn.local`): the programs, the reboots asked for, the robots in their first
    turn, the last check point's number, the damage at the start of the stage, the robots reinstated."""

    def __init__(self, cards, asked, first_turn, last):
        self.cards, self.asked, self.first_turn, self.last = cards, asked, first_turn, last
        self.before: dict[str, int] = {}
        self.reinstated: set[str] = set()


def _prepare(
    state: State,
    programs: Mapping[str, Sequence[str]],
    seed: int,
    *,
    reboots: Iterable[str] = (),
    actions: Mapping[str, Mapping] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
) -> Turn:
    if actions:
        raise InputError("the fused ruleset has no bot modules")
    bots = {bot.id: bot for bot in state.bots}
    asked = set(reboots)
    for bot_id in sorted(asked):
        if bot_id not in bots:
            raise InputError(f"reboot for unknown bot {bot_id!r}")
        if bots[bot_id].rebooting:
            raise InputError(f"bot {bot_id!r} is rebooting this turn: it asks again with its next program")
    cards = checked_programs(state, programs, hands, locked=roboracer_frozen, card_problem=card_problem)
    turn = Turn(state, frozenset())
    if state.option.get("electric_fence", True):
        turn.fence = FENCE_DAMAGE
    first_turn = {bot.id for bot in state.bots if bot.spawned}
    turn.local = Stages(cards, asked, first_turn, len(turn.course.checkpoints))
    return turn


def _rebooting(turn: Turn) -> None:
    for bot in turn.in_order():
        if bot.rebooting:
            turn.emit("rebooting", bot.id)
            turn.repair(bot, bot.damage, "reboot")  # 001 "Reboot": it restores all HP for a whole turn


def _damage_before(turn: Turn) -> None:
    """The damage at the start of the stage, for the registers it fuses (`_fuse`)."""
    turn.local.before = {bot.id: bot.damage for bot in turn.in_order()}


def _touch_checkpoints(turn: Turn) -> None:
    _checkpoints(turn, turn.local.last)


def _virtual_to_real(turn: Turn) -> None:
    _virtuality(turn, turn.local.first_turn)


def _fuse(turn: Turn) -> None:
    before = turn.local.before
    _fusing(turn, {bot_id: damage for bot_id, damage in before.items() if turn.bots[bot_id].at is not None},
            turn.local.cards)  # fmt: skip


def _repairs(turn: Turn) -> None:
    """Robots on a wrench or a flag repair (a rebooting robot is repaired already)."""
    for bot in turn.in_order():
        if bot.rebooting:
            continue
        tile, marker = turn.course.tiles.get(bot.at), turn.course.markers.get(bot.at)
        if tile is not None and tile.repair_amount:
            turn.repair(bot, tile.repair_amount, "repair")
        elif marker is not None and marker.flag_number is not None:
            turn.repair(bot, 1, "checkpoint")


def _reinstate(turn: Turn) -> None:
    """001 "Mode": a destroyed robot "will be reinstated at the end of the turn, if the player has any robots
    left", virtual, with full HP: reinstated first, then the last robot in the game wins (docs/rules.md
    "fused")."""
    for bot_id in turn.order:
        bot = turn.bots[bot_id]
        if bot.at is None and bot.lives > 0:
            bot.at, bot.dir, bot.virtual, bot.damage = bot.spawn_at, bot.spawn_dir, True, 0
            turn.local.reinstated.add(bot_id)
            turn.emit("respawned", bot_id, at=list(bot.at), dir=bot.dir, virtual=True)


def _end_of_turn(turn: Turn) -> dict[str, Any]:
    """A robot whose player asked for a reboot sits the next turn out (not one just reinstated)."""
    local, state = turn.local, turn.state
    reinstated = local.reinstated
    played = {bot_id: tuple(card for _, _, card in program) for bot_id, program in local.cards.items()}
    new_bots = []
    for bot_id in state.priority:
        bot = turn.bots[bot_id]
        rebooting = bot_id in local.asked and bot.at is not None and bot_id not in reinstated
        if rebooting:
            turn.emit("reboot_next", bot_id)
        last_program = () if bot_id in reinstated else played.get(bot_id, bot.last_program)
        new_bots.append(bot.freeze(last_program=last_program, rebooting=rebooting, spawned=bot_id in reinstated))
    return {"bots": tuple(new_bots), "priority": state.priority}


# 001 "Mechanisms", in this order, each stage; the race is won at once. At the end of the turn (unless it is
# won) repairs, then the reinstating, then the winning check.
PLAN = Plan(
    ruleset=NAME,
    prepare=_prepare,
    begin=(step("start", _rebooting),),
    phase=(
        step("chips", _damage_before, play_cards),
        step("belts", conveyors((2,), same_way_wins=True, turns="across", sub=1),
             conveyors((1, 2), same_way_wins=True, turns="across", sub=2)),  # fmt: skip
        step("pushers", _pushers),
        step("turntables", run_turntables),
        step("crushers", _crushers),
        step("wall_lasers", _turrets),
        step("bot_lasers", _combat),
        step("checkpoints", _touch_checkpoints),
        step("virtuality", _virtual_to_real),
        step("fusing", _fuse),
    ),
    stops=(WON,),
    end=(step("repairs", _repairs, unless=WON), step("respawn", _reinstate, unless=WON), winning(unless=WON)),
    finish=_end_of_turn,
)


RULESET = register(
    Ruleset(
        name=NAME,
        document="001",
        title="Fused",
        help="hit points, numbered cards, fused registers",
        max_damage=HP,
        counts_lives=True,
        numbered=True,
        modes=("race",),
        players=(1, 8),
        reboots=True,
        modules=False,
        teams=False,
        hand_size=hand_size,
        locked=roboracer_frozen,
        deal=_deal,
        card_problem=card_problem,
        plan=PLAN,
        elements=ELEMENTS,
        check_course=_check_course,
        options={"electric_fence": True},
        check_program=_check_program,
        random_program=_random_program,
        report=lambda state, events: reports.stage_table(state, events),
        shared_start=True,
    )
)
