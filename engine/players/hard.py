"""Hard's race search (issue 40): the course model ranks every program, the engine replays the distinct ones.

1. **Every program, in the model.** A walk over the hand's sequences of kinds (`programs.kind_programs`'s
   order) plays each register in the course model (`course_model`: the chip on the bare course, then what
   the course does that phase), a prefix once for all the programs that share it. Programs that end in the
   same model position (square, heading, check point, damage, destroyed) are one future: only the first is
   kept. A typical hand's 1,250 programs are a few hundred futures.
2. **The best futures, with the engine.** The futures the model rates best are replayed with the engine, the
   robot alone (`BUDGETS["hard"]` counts these calls), and valued by the registers the robot still needs to
   finish from where the engine left it (the model's register map: belts and gears included), damage and
   destruction in registers too.
3. **With the others.** The best few are replayed with every robot on the course, each other robot playing
   the program the model finds best in a hand dealt from the deck (a hand it could hold; its real one is
   never read), and the value is mixed from both replays.

Everything is counted, nothing timed: the same position gives the same program.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..chips import IDLE, PROGRAM_LENGTH
from . import course_model
from .programs import cards_for, kind

if TYPE_CHECKING:
    from ..state import Bot, State

WIN = 1_000_000.0
FULL_REPLAYS = 24  # the best futures replayed with every robot on the course
FULL_SHARE = 0.6  # the value of a future: this share from the replay with every robot, the rest alone
LIFE = 8.0  # registers a destruction costs beyond the ground it loses (a robot fewer, damage on respawn)
OUT = WIN / 2  # out of the race
SAMPLES = 3  # ... each against this many guesses of the other robots' programs
RIVALS = 0.3  # ... valued by how far ahead of the leading other robot it ends (this share of that robot's value)
LOOKAHEAD = 12  # the best candidates also valued one turn further, in the model,
NEXT_HANDS = 4  # ... over this many hands dealt from the deck
AHEAD_SHARE = 0.5  # ... which makes this share of their value


def damage_cost(damage: int, max_damage: int) -> float:
    """Registers a robot's damage is worth: a card fewer per point, then locked registers."""
    scaled = damage * 10 / max(1, max_damage)
    return 0.5 * scaled + 1.5 * max(0.0, scaled - 4)


def model_futures(model: course_model.CourseModel, bot: Bot, hand: tuple[str, ...], frozen: dict[int, str],
                  max_damage: int, *, until: int | None = None, paths: bool = False,
                  ) -> list[tuple[float, tuple[str, ...]]]:  # fmt: skip
    """Every distinct model future of the hand's programs, best first: (model value, kinds). A future is where
    the program ends (square, heading, check point, damage; or destroyed), or with `paths` where it is after
    each register (for a puzzle, where the way matters to the robots on it). The value counts the registers
    still needed to tag check point `until` (the last when None)."""
    free = [index for index in range(PROGRAM_LENGTH) if index not in frozen]
    counts = Counter(kind(card) for card in hand)
    empty = max(0, len(free) - sum(counts.values()))
    filled = set(free[: len(free) - empty])
    kinds = sorted(counts)
    seen: dict[tuple, tuple[float, tuple[str, ...]]] = {}
    chosen: list[str] = []
    trail: list[tuple] = []
    step, to_go = model.step, model.to_go
    last = model.last if until is None else until
    checkpoints = model.checkpoints

    def walk(register: int, at, heading: str, next_cp: int, damage: int) -> None:
        if register == PROGRAM_LENGTH:
            key = tuple(trail) if paths else (at, heading, next_cp, damage, False)
            if key not in seen:
                value = -to_go(at, heading, next_cp, last) - damage_cost(damage, max_damage)
                seen[key] = (value, tuple(chosen))
            return
        if register in frozen or register not in filled:
            options = [kind(frozen[register]) if register in frozen else IDLE]
        else:
            options = [name for name in kinds if counts[name]]
        for name in options:
            to, facing, hurt, dead = step(at, heading, name, register + 1)
            total = damage + hurt
            if register in filled:
                counts[name] -= 1
            chosen.append(name)
            trail.append((to, facing, dead))
            if dead or total >= max_damage:
                key = tuple(trail) if paths else (None, None, next_cp, 0, True)
                if key not in seen:
                    seen[key] = (-OUT / 4, tuple(chosen) + _rest(register + 1, counts, frozen))
            else:
                reached = next_cp + 1 if checkpoints.get(next_cp) == to else next_cp
                if reached > last:
                    key = tuple(trail) if paths else ("won", register)
                    if key not in seen:
                        seen[key] = (WIN - register, tuple(chosen) + _rest(register + 1, counts, frozen))
                else:
                    walk(register + 1, to, facing, reached, total)
            trail.pop()
            chosen.pop()
            if register in filled:
                counts[name] += 1

    walk(0, bot.at, bot.dir, bot.next_checkpoint, bot.damage)
    return sorted(seen.values(), key=lambda pair: -pair[0])


def _rest(start: int, counts: Counter, frozen: dict[int, str]) -> tuple[str, ...]:
    """Any legal kinds for the registers after a win (they are never played)."""
    pool = [name for name, count in counts.items() for _ in range(count)]
    out = []
    for register in range(start, PROGRAM_LENGTH):
        if register in frozen:
            out.append(kind(frozen[register]))
        else:
            out.append(pool.pop() if pool else IDLE)
    return tuple(out)


def race_value(model: course_model.CourseModel, after: State, events: list, bot_id: str, max_damage: int) -> float:
    """A replayed turn's end for `bot_id`, in registers (higher is better): what it still needs to finish,
    its damage, and what it lost to destruction."""
    bot = next((b for b in after.bots if b.id == bot_id), None)
    if bot is None:
        return -WIN
    if after.winner == bot_id:  # the earlier in the turn, the safer
        return WIN - next((event.get("phase", 0) for event in events if event["type"] == "winner"), 0)
    if not bot.in_game:
        return -OUT
    destroyed = sum(1 for event in events if event["type"] == "destroyed" and event.get("bot") == bot_id)
    at, heading = (bot.at, bot.dir) if bot.at is not None else (bot.spawn_at, bot.spawn_dir)
    value = -model.to_go(at, heading, bot.next_checkpoint) - damage_cost(bot.damage, max_damage) - LIFE * destroyed
    if destroyed and bot.lives <= 1:
        value -= 2 * LIFE  # one more and it is out
    return value


def best_value(model: course_model.CourseModel, bot: Bot, hand: tuple[str, ...], frozen: dict[int, str],
               max_damage: int) -> float:  # fmt: skip
    """The model value of the best program `hand` allows from where `bot` stands, in registers (finishing is
    worth the registers to spare): a search over registers that meets each (register, position, cards left)
    once."""
    free = [index for index in range(PROGRAM_LENGTH) if index not in frozen]
    counts = Counter(kind(card) for card in hand)
    kinds = sorted(counts)
    left = [counts[name] for name in kinds]
    filled = set(free[: len(free) - max(0, len(free) - sum(left))])
    fixed = {index: kind(card) for index, card in frozen.items()}
    step, to_go, last, checkpoints = model.step, model.to_go, model.last, model.checkpoints
    memo: dict[tuple, float] = {}

    def best(register: int, at, heading: str, next_cp: int, damage: int) -> float:
        if register == PROGRAM_LENGTH:
            return -to_go(at, heading, next_cp) - damage_cost(damage, max_damage)
        key = (register, at, heading, next_cp, damage, tuple(left))
        found = memo.get(key)
        if found is not None:
            return found
        found = -OUT / 4
        if register in filled:
            options = [(i, name) for i, name in enumerate(kinds) if left[i]]
        else:
            options = [(-1, fixed.get(register, IDLE))]
        for index, name in options:
            to, facing, hurt, dead = step(at, heading, name, register + 1)
            if dead or damage + hurt >= max_damage:
                continue
            reached = next_cp + 1 if checkpoints.get(next_cp) == to else next_cp
            if reached > last:  # done with registers to spare: worth them
                found = float(PROGRAM_LENGTH - 1 - register)
                break
            if index >= 0:
                left[index] -= 1
            value = best(register + 1, to, facing, reached, damage + hurt)
            if index >= 0:
                left[index] += 1
            if value > found:
                found = value
        memo[key] = found
        return found

    return best(0, bot.at, bot.dir, bot.next_checkpoint, bot.damage)


def opponent_program(model: course_model.CourseModel, rival: Bot, hand: tuple[str, ...], frozen: dict[int, str],
                     max_damage: int) -> tuple[str, ...] | None:  # fmt: skip
    """The kinds a rival most likely plays with `hand`: the model's best future."""
    futures = model_futures(model, rival, hand, frozen, max_damage)
    return futures[0][1] if futures else None


def search(player: Any, frozen: dict[int, str]) -> list[tuple[float, float, tuple[str, ...], Any]]:
    """Hard's candidates, best first: (value, tiebreak, cards, state after the replay with every robot)."""
    state, bot = player.state, player.bot
    model = course_model.model(state)
    max_damage = player.rules.max_damage
    futures = model_futures(model, bot, player.hand, frozen, max_damage)
    solo_budget = max(1, player.budget - SAMPLES * FULL_REPLAYS - 12)
    scored = []
    solo = player.solo_state()
    for _, kinds in futures[:solo_budget]:
        cards = cards_for(kinds, player.hand, frozen)
        result = player.resolve(solo, {player.bot_id: cards}, {player.bot_id: player.hand})
        value = -WIN if result is None else race_value(model, result[0], result[1], player.bot_id, max_damage)
        scored.append((value, player.rng.random(), cards))
    scored.sort(reverse=True)
    samples = []
    for _ in range(SAMPLES):
        others = player.predicted_opponents(lambda rival, hand, rival_frozen: opponent_program(
            model, rival, hand, rival_frozen, max_damage))
        if others is not None:
            samples.append(others)
    rows = []
    for value, tiebreak, cards in scored[:FULL_REPLAYS]:
        after, full = None, []
        for programs, hands in samples:
            result = player.resolve(state, {**programs, player.bot_id: cards}, hands)
            if result is None:  # a guess the engine refused: the others' guesses still count
                continue
            mine = race_value(model, result[0], result[1], player.bot_id, max_damage)
            if abs(mine) < OUT / 8:
                rivals = [race_value(model, result[0], result[1], rival, max_damage) for rival in programs]
                mine -= RIVALS * max(rivals, default=0.0)
            full.append(mine)
            after = result[0] if after is None else after
        if full:
            value = FULL_SHARE * sum(full) / len(full) + (1 - FULL_SHARE) * value
        rows.append((value, tiebreak, cards, after))
    rows.sort(key=lambda row: (row[0], row[1]), reverse=True)
    if LOOKAHEAD:
        looked = []
        for value, tiebreak, cards, after in rows[:LOOKAHEAD]:
            if after is None:
                result = player.resolve(solo, {player.bot_id: cards}, {player.bot_id: player.hand})
                after = None if result is None else result[0]
            ahead = next_turn(player, model, after) if after is not None and abs(value) < OUT / 8 else None
            looked.append((value if ahead is None else (1 - AHEAD_SHARE) * value + AHEAD_SHARE * ahead,
                           tiebreak, cards, after))  # fmt: skip
        looked.sort(key=lambda row: (row[0], row[1]), reverse=True)
        rows = looked + rows[LOOKAHEAD:]
    return rows


def next_turn(player: Any, model: course_model.CourseModel, after: State) -> float | None:
    """The value of where a program leaves the robot, one turn on: the mean, over `NEXT_HANDS` hands dealt
    from the deck (the same for every candidate), of the best the model finds for each (finishing is worth the
    registers to spare), less a turn's registers so that it compares with a value of now."""
    bot = next((b for b in after.bots if b.id == player.bot_id), None)
    if bot is None or bot.at is None or not bot.in_game or after.finished:
        return None
    rules = player.rules
    alone = dataclasses.replace(after, bots=(bot,), priority=(bot.id,), winner=None, winning_team=None)
    frozen = rules.locked(bot)
    total = 0.0
    for sample in range(NEXT_HANDS):
        hand = () if rules.sits_out(bot) else tuple(rules.deal(alone, player.next_seed + sample).get(bot.id, ()))
        total += best_value(model, bot, hand, frozen, rules.max_damage)
    return total / NEXT_HANDS - PROGRAM_LENGTH
