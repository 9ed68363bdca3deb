"""`roborace` (004): the teaching version. 84 numbered cards, 7 dealt, 5 played; no damage, no lasers.

A phase: every robot on the course plays its card, the larger number first; then each robot's space acts on
it once, the robots taken in a random order drawn from the turn's seed: the decoration first (a pusher or a
crusher, in its phases), then the tile (belt, gear, goal), the tile only when there is no decoration or the
decoration had no effect on the robot. Effects don't accumulate: a robot moved by its space is not acted on
again by the space it reaches. Pits and the course edge destroy at once; a destroyed robot plays no more
cards this round and comes back at the end of the round at its start, or at the first free start. Reaching
the goal (the course's only check point) ends the game at once.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..cards import ROBORACE_NUMBERS, roborace_deck, roborace_problem
from ..chips import PROGRAM_LENGTH
from ..errors import CourseError, InputError, ProgramError
from ..geometry import opposite
from ..plans import WON, Plan, step
from ..state import State
from ..turn import Mover, Turn
from . import Ruleset, register
from .numbered import checked_programs, play_cards, program_problem

HAND = 7  # 004 "Deal Program cards": 7 cards, 5 of them played
ELEMENTS = frozenset({"floor", "wall", "pit", "start", "checkpoint", "belt", "turntable", "pusher", "crusher"})
NAME = "roborace"


def _hand_size(bot: Any) -> int:
    return HAND


def _locked(bot: Any) -> dict[int, str]:
    return {}  # no damage, so nothing locks


def _deal(state: State, seed: int) -> dict[str, tuple[str, ...]]:
    """Seven cards to each robot from one shuffled deck of 84 (4 robots take 28 of them)."""
    deck = roborace_deck()
    random.Random(seed).shuffle(deck)
    hands = {}
    for bot_id in state.priority:
        if state.bot(bot_id).in_game:
            hands[bot_id] = tuple(deck.pop() for _ in range(HAND))
    return hands


def _check_program(bot: Any, hand: Sequence[str], cards: Any, action: Any = None, *, state: Any = None):
    if action is not None:
        return ProgramError("the roborace ruleset has no bot modules")
    problem = program_problem(cards, hand, {}, roborace_problem)
    return ProgramError(problem) if problem else None


def _random_program(bot: Any, hand: Sequence[str], seed: int) -> tuple[str, ...]:
    return tuple(random.Random(seed).sample(list(hand), PROGRAM_LENGTH))


def _check_course(course: Any) -> None:
    if len(course.checkpoints) != 1:
        raise CourseError(
            f"course: a roborace course has one goal (its only check point), found {len(course.checkpoints)}",
            squares=[c.at for c in course.checkpoints],
        )
    decorated: dict = {}
    for element in course.elements:
        if element.conveys and (element.speed != 1 or element.curves_from):
            raise CourseError(
                "course: a roborace belt moves one space and turns nobody (speed 1, no 'curves_from')",
                squares=[element.at],
            )
        if element.type in ("pusher", "crusher"):
            if element.at in decorated:
                raise CourseError(
                    f"course: a roborace space has at most one decoration; {list(element.at)} has a "
                    f"{decorated[element.at]} and a {element.type}",
                    squares=[element.at],
                )
            decorated[element.at] = element.type


def _space_acts(turn: Turn, bot: Mover) -> None:
    """The robot's space acts on it once (004 "Execute all program"): decoration, else (or when the
    decoration had no effect) the tile."""
    course, at = turn.course, bot.at
    for pusher in course.mounted.get("pusher", {}).get(at, ()):
        if turn.phase in pusher.phases:
            turn.advance(bot, opposite(pusher.side), by="pusher", mode="push")
            if bot.at != at:
                return  # the pusher moved it (or pushed it to its end)
    above = course.ceiling.get(at)
    if above is not None and above.crushes(turn.phase):
        turn.destroy(bot, "crusher")
        return
    tile = course.tiles.get(at)
    if tile is not None and tile.conveys:
        turn.advance(bot, tile.dir, mode="carry")
    elif tile is not None and tile.quarter_turns:
        turn.rotate(bot, tile.quarter_turns, "turntable")
    marker = course.markers.get(at)
    number = marker.flag_number if marker is not None else None
    if number is not None and turn.winner is None:  # the goal ends the game
        bot.next_checkpoint = number + 1
        turn.emit("checkpoint", bot.id, number=number, at=list(at))
        turn.winner = bot.id
        turn.emit("winner", bot.id, reason="goal")


def _revitalize(turn: Turn) -> None:
    """Every destroyed robot comes back at its start, or at the first free start when a robot stands there
    (004 "Revitalize all dead robots"), facing that start's direction."""
    for bot_id in turn.order:
        bot = turn.bots[bot_id]
        if bot.at is not None:
            continue
        taken = {other.at for other in turn.bots.values() if other.at is not None}
        if bot.spawn_at not in taken:
            at, facing = bot.spawn_at, bot.spawn_dir
        else:
            free = next((start for start in turn.course.starts if start.at not in taken), None)
            if free is None:
                continue  # every start is taken: it waits for the next round
            at, facing = free.at, free.dir
        bot.at, bot.dir, bot.virtual = at, facing, False
        turn.emit("respawned", bot.id, at=list(at), dir=facing, virtual=False)


class Round:
    """004's own data for a round (`Turn.local`): the programs and the round's random draws."""

    def __init__(self, cards, rng):
        self.cards, self.rng = cards, rng


def _prepare(
    state: State,
    programs: Mapping[str, Sequence[str]],
    seed: int,
    *,
    reboots: Iterable[str] = (),
    actions: Mapping[str, Mapping] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
) -> Turn:
    if list(reboots):
        raise InputError("the roborace ruleset has no reboot")
    if actions:
        raise InputError("the roborace ruleset has no bot modules")
    cards = checked_programs(state, programs, hands, locked=_locked, card_problem=roborace_problem)
    rng = random.Random(seed)
    turn = Turn(state, frozenset())
    turn.local = Round(cards, rng)
    return turn


def _spaces(turn: Turn) -> None:
    """Each robot's space acts on it once, the robots in a random order; the goal ends the game at once."""
    order = [bot.id for bot in turn.in_order()]
    turn.local.rng.shuffle(order)
    turn.emit("space_order", None, order=order)
    for bot_id in order:
        bot = turn.bots[bot_id]
        if bot.at is not None:
            _space_acts(turn, bot)
        if turn.winner is not None:
            break


def _end_of_round(turn: Turn) -> dict[str, Any]:
    played = {bot_id: tuple(text for _, _, text in program) for bot_id, program in turn.local.cards.items()}
    bots = tuple(
        bot.freeze(last_program=played.get(bot.id, ()), rebooting=False, spawned=False) for bot in turn.bots.values()
    )
    return {"bots": bots, "priority": turn.state.priority}


# 004 "Execute all program": the cards, then the spaces, each register; the goal ends the game at once. Then
# (unless it is won) every destroyed robot comes back; nobody wins by being the last one alive.
PLAN = Plan(
    ruleset=NAME,
    prepare=_prepare,
    begin=(),
    phase=(step("cards", play_cards), step("spaces", _spaces)),
    stops=(WON,),
    end=(step("revitalize", _revitalize, unless=WON),),
    finish=_end_of_round,
)


RULESET = register(
    Ruleset(
        name=NAME,
        document="004",
        title="RoboRace",
        help="the small version (7 numbered cards, no damage)",
        max_damage=10,  # nothing damages a robot in 004
        counts_lives=False,  # 004: "All dead robots become alive again"
        numbered=True,
        modes=("race",),
        players=(1, 4),
        reboots=False,
        modules=False,
        teams=False,
        hand_size=_hand_size,
        locked=_locked,
        deal=_deal,
        card_problem=roborace_problem,
        plan=PLAN,
        elements=ELEMENTS,
        check_course=_check_course,
        check_program=_check_program,
        random_program=_random_program,
        damage=False,
    )
)
assert sum(len(numbers) for numbers in ROBORACE_NUMBERS.values()) == 84
