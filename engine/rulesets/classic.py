"""`classic` (000): a play-by-mail RoboRally. 10 instructions drawn with 000's probabilities (not a deck), one
fewer per two damage; 22 damage destroys; registers lock from 12; three destructions and a robot is out.

A round (000 "What happens each round"): for each register, the robots move in priority order (F4, F3, F2,
B2, F, F0, B, turns, powered down; ties by the order of the register before, the robot destroyed most
recently last); conveyor belts move every robot on them one square, then express belts one more; gears turn;
board and robot lasers fire at once; robots on flags touch them and robots on flags and wrenches archive
there. At the end of the round wrenches repair 2, a wrench/hammer square repairs 2 and gives its upgrade,
and destroyed robots return at their archive with 4 damage, facing as they died (one that finds no free
square waits for the first end of round with one); then the last robot in the race wins. A robot that
announced a power down sits the next round out: it repairs all damage at its start, does not move, fire or
touch flags, but the floor still moves it. The first robot to touch the last flag wins; the race goes on
for five more rounds for the runner-ups. Upgrades: docs/rules.md "classic".
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import reports
from ..chips import IDLE, PROGRAM_LENGTH
from ..errors import CourseError, InputError, ProgramError
from ..geometry import DIRECTIONS, neighbour, opposite, rotate
from ..plans import Condition, Plan, conveyors, step, winning
from ..state import State, classic_fields
from ..turn import Mover, Turn
from . import Ruleset, register

NAME = "classic"
MAX_DAMAGE = 22
RETURN_DAMAGE = 4  # 000 "Robots reenter the race with 4 damage"
RUNNER_UP_ROUNDS = 5  # 000 "Ending the game": five more rounds after the first robot finishes
OFFER_ROUNDS = 5  # 000: "An upgrade that has been available for five rounds will be replaced"
HAND = 10
# 000 "Instructions sent out": the probabilities of each instruction, in percent.
WEIGHTS = {"1": 21, "2": 14, "3": 7, "B": 7, "L": 21, "R": 21, "U": 7}
UPGRADES = (
    "brakes", "fourth_gear", "reverse_gear", "crab_legs", "dual_processor", "gyroscopic_stabilizer",
    "double_barreled_lasers", "rear_firing_laser", "ramming_gear", "high_power_laser", "pressor_beam",
    "tractor_beam", "mini_howitzer", "scrambler", "radio_control", "ablative_coat", "circuit_breaker",
    "power_down_shield", "superior_archive", "extra_memory", "flywheel", "recompile",
)  # fmt: skip
PLAYED = frozenset(UPGRADES)  # every upgrade of 000 is played (docs/rules.md "classic")
# The laser switches that can be on for a round; at most one at a time (docs/rules.md "classic").
BEAMS = ("radio_control", "scrambler", "mini_howitzer", "pressor_beam", "tractor_beam")
SWITCHES = frozenset({*BEAMS, "gyroscopic_stabilizer"})
HOWITZER_USES = 5
BREAKER = 8  # 000 "Circuit Breaker": eight damage unless the threshold is set
RAMMING = 2
RECOMPILE_DAMAGE = 2
ABLATIVE = 6
# An instruction as written -> (the instruction of the hand it is played as, the upgrade it needs).
VARIANTS = {"F0": ("1", "brakes"), "4": ("3", "fourth_gear"), "B2": ("B", "reverse_gear")}
# 000 "Priority": F3 -> F2 -> F -> B -> L/R/U -> powered down -> dead; the upgrades slot in.
RANK = {"4": 0, "3": 1, "2": 2, "B2": 3, "1": 4, "F0": 5, "B": 6, "L": 7, "R": 7, "U": 7}
POWERED_DOWN = 8
MOVES = {"1": 1, "2": 2, "3": 3, "4": 4, "F0": 0, "B": -1, "B2": -2}
TURNS = {"L": -1, "R": 1, "U": 2}
ELEMENTS = frozenset({"floor", "wall", "pit", "start", "checkpoint", "repair", "belt", "turntable", "laser"})


def parse(card: object) -> tuple[str, str | None] | None:
    """(move or single instruction, turn of a two-instruction register) or None."""
    if not isinstance(card, str):
        return None
    if card in RANK:
        return card, None
    move, plus, turn_ = card.partition("+")
    if plus and move in ("1", "2", "3", "B") and turn_ in TURNS:
        return move, turn_
    return None


def card_problem(card: object) -> str | None:
    if card == IDLE or parse(card) is not None:
        return None
    return (f"{card!r} is not an instruction (1 2 3 B L R U, with upgrades F0 4 B2 and two in a register "
            f"as '1+L')")  # fmt: skip


def hand_size(bot: Any) -> int:
    return max(0, HAND - bot.damage // 2) + ("extra_memory" in bot.upgrades)


def locked(bot: Any) -> dict[int, str]:
    """Registers locked from 12 damage, from register 5 down (000 "Locked Registers")."""
    count = min(PROGRAM_LENGTH, max(0, bot.damage // 2 - 5))
    if not count or len(bot.last_program) != PROGRAM_LENGTH:
        return {}
    return {index: bot.last_program[index] for index in range(PROGRAM_LENGTH - count, PROGRAM_LENGTH)}


def _draw(rng: random.Random, count: int) -> tuple[str, ...]:
    return tuple(rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()), k=count))


def _deal(state: State, seed: int) -> dict[str, tuple[str, ...]]:
    """Each robot in the race draws its instructions; one powering down this round draws none. Flywheel's
    saved instruction joins the hand."""
    rng = random.Random(seed)
    hands = {}
    for bot_id in state.priority:
        bot = state.bot(bot_id)
        if not bot.in_game:
            continue
        if bot.power_down_next:
            hands[bot_id] = ()
            continue
        hand = _draw(rng, hand_size(bot))
        hands[bot_id] = hand + ((bot.saved_chip,) if bot.saved_chip else ())
    return hands


def _uses(card: str) -> tuple[list[str], set[str]]:
    """The hand's instructions a register uses, and the upgrades it needs."""
    move, turn_ = parse(card)
    needs = set()
    base = move
    if move in VARIANTS:
        base, upgrade = VARIANTS[move]
        needs.add(upgrade)
    if turn_ is None:
        return [base], needs
    needs.add("crab_legs" if move == "1" and turn_ in "LR" else "dual_processor")
    return [base, turn_], needs


def program_problem(bot: Any, hand: Sequence[str] | None, cards: Any) -> str | None:
    if not isinstance(cards, (list, tuple)) or len(cards) != PROGRAM_LENGTH:
        return f"a program is exactly {PROGRAM_LENGTH} instructions"
    if bot.power_down_next:
        if any(card != IDLE for card in cards):
            return "a robot powered down this round plays no instructions"
        return None
    for index, card in enumerate(cards):
        problem = card_problem(card)
        if problem:
            return f"register {index + 1}: {problem}"
    frozen = locked(bot)
    for index, card in frozen.items():
        if cards[index] != card:
            return f"register {index + 1} is locked with {card!r} and can't be changed"
    used: Counter[str] = Counter()
    for index, card in enumerate(cards):
        if index in frozen:
            continue
        if card == IDLE:
            return f"register {index + 1}: every register that is not locked holds an instruction"
        parts, needs = _uses(card)
        owned = set(bot.upgrades)
        if "crab_legs" in needs and "dual_processor" in owned:
            needs = needs - {"crab_legs"}  # 1+L / 1+R: Dual Processor plays it too (move 0, then turn)
        missing = sorted(needs - owned)
        if missing:
            return f"register {index + 1}: {card!r} needs the {missing[0].replace('_', ' ')} upgrade"
        used.update(parts)
    if hand is not None:
        held = Counter(hand)
        for chip, count in sorted(used.items()):
            if count > held[chip]:
                return f"the hand holds {held[chip]} {chip!r} instruction(s), the program uses {count}"
    return None


ACTION_SHAPE = "a classic action is {\"power_down\": true} and/or {\"upgrade_use\": {...}}"


def _is_action(action: Any) -> bool:
    """A classic action (the program's `action` on the site): a power down and/or the round's switches."""
    return isinstance(action, Mapping) and not set(action) - {"power_down", "upgrade_use"}


def public_action(action: Any) -> dict[str, Any] | None:
    """A robot's action as every player saw it happen: a power down, the switches it set (stabilizer, beams: on
    or off, seen when the robot moves and fires) and that its flywheel saved an instruction (the card set aside,
    face down). Never the instruction saved, nor the circuit breaker's threshold (only the owner knows them;
    a breaker that trips says so in its own event). None when nothing of it shows."""
    if not isinstance(action, Mapping):
        return None
    public: dict[str, Any] = {}
    if action.get("power_down") is True:
        public["power_down"] = True
    use = action.get("upgrade_use")
    if isinstance(use, Mapping):
        shown = {name: value for name, value in use.items() if name in SWITCHES and isinstance(value, bool)}
        if "flywheel" in use:
            shown["flywheel"] = True
        if shown:
            public["upgrade_use"] = dict(sorted(shown.items()))
    return public or None


def _check_program(bot: Any, hand: Sequence[str], cards: Any, action: Any = None, *, state: Any = None):
    if action is not None and not _is_action(action):
        return ProgramError(ACTION_SHAPE)
    if action is not None:  # checked now as the turn will check it, so that it is refused when sent
        if not isinstance(action.get("power_down", False), bool):
            return ProgramError("'power_down' must be true or false")
        try:
            check_use(action.get("upgrade_use", {}), bot.upgrades, "upgrade_use")
        except InputError as error:
            return ProgramError(str(error))
    problem = program_problem(bot, hand, cards) or _flywheel_problem(bot, hand, cards, action)
    return ProgramError(problem) if problem else None


def _flywheel_problem(bot: Any, hand: Sequence[str] | None, cards: Any, action: Any) -> str | None:
    """The flywheel's choice is refused when sent, as the round would refuse it: it must be an instruction the
    program leaves unused in the hand (000 "Flywheel")."""
    use = action.get("upgrade_use") if isinstance(action, Mapping) else None
    choice = use.get("flywheel") if isinstance(use, Mapping) else None
    if choice is None or hand is None or "flywheel" not in bot.upgrades:
        return None
    frozen = locked(bot)
    used = Counter(part for index, card in enumerate(cards) if index not in frozen and card != IDLE
                   for part in _uses(card)[0])  # fmt: skip
    if Counter(hand)[choice] <= used[choice]:
        return f"the flywheel saves an instruction the program leaves unused, and no {choice!r} is left"
    return None


def _random_program(bot: Any, hand: Sequence[str], seed: int) -> tuple[str, ...]:
    """000 "An illegal or missing instruction will be replaced with a random available instruction"."""
    if bot.power_down_next:
        return (IDLE,) * PROGRAM_LENGTH
    frozen = locked(bot)
    pool = list(hand)
    random.Random(seed).shuffle(pool)
    return tuple(frozen[i] if i in frozen else pool.pop() for i in range(PROGRAM_LENGTH))


def _check_course(course: Any) -> None:
    for element in course.elements:
        if element.conveys and element.speed not in (1, 2):
            raise CourseError("course: a classic belt is normal (speed 1) or express (speed 2)", squares=[element.at])
        if element.repair_amount and element.repair_amount != 2:
            raise CourseError("course: a classic wrench repairs 2 (000 'Repair')", squares=[element.at])


def _bot_fields(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("powered_down", "power_down_next"):
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise InputError(f"{where}: {name!r} must be true or false, got {value!r}")
        out[name] = value
    upgrades = data.get("upgrades", [])
    if not isinstance(upgrades, list) or len(set(map(str, upgrades))) != len(upgrades) or any(
        u not in UPGRADES for u in upgrades
    ):
        raise InputError(f"{where}: 'upgrades' must be a list of distinct names from {' '.join(UPGRADES)}, got {upgrades!r}")
    for upgrade in upgrades:
        if upgrade not in PLAYED:
            raise InputError(f"{where}: the {upgrade} upgrade is not available yet (docs/rules.md \"classic\")")
    out["upgrades"] = tuple(upgrades)
    state = data.get("upgrade_state", {})
    if not isinstance(state, Mapping) or any(k not in upgrades or type(v) is not int or v < 0 for k, v in state.items()):
        raise InputError(f"{where}: 'upgrade_state' must map upgrades the bot has to a whole number, got {state!r}")
    out["upgrade_state"] = tuple(sorted(state.items()))
    out["upgrade_use"] = tuple(sorted(check_use(data.get("upgrade_use", {}), upgrades, where).items()))
    saved = data.get("saved_chip")
    if saved is not None and (saved not in WEIGHTS or "flywheel" not in upgrades):
        raise InputError(f"{where}: 'saved_chip' is an instruction (1 2 3 B L R U) saved by the flywheel upgrade, got {saved!r}")
    out["saved_chip"] = saved
    return out


def check_use(use: Any, upgrades: Sequence[str], where: str) -> dict[str, Any]:
    """A robot's upgrade switches (`upgrade_use`): on/off for the stabilizer and the beams (one beam at a time),
    the circuit breaker's threshold, the instruction the flywheel saves."""
    if not isinstance(use, Mapping):
        raise InputError(f"{where}: 'upgrade_use' must be an object, got {use!r}")
    for name, value in use.items():
        if name not in upgrades:
            raise InputError(f"{where}: 'upgrade_use' names {name!r}, which the robot does not have")
        if name in SWITCHES and not isinstance(value, bool):
            raise InputError(f"{where}: 'upgrade_use.{name}' is true or false, got {value!r}")
        if name == "circuit_breaker" and (type(value) is not int or not 1 <= value < MAX_DAMAGE):
            raise InputError(f"{where}: 'upgrade_use.circuit_breaker' is a damage from 1 to 21, got {value!r}")
        if name == "flywheel" and value not in WEIGHTS:
            raise InputError(f"{where}: 'upgrade_use.flywheel' is the instruction to save (1 2 3 B L R U), got {value!r}")
        if name not in SWITCHES | {"circuit_breaker", "flywheel"}:
            raise InputError(f"{where}: the {name} upgrade has no switch")
    if sum(1 for name in BEAMS if use.get(name)) > 1:
        raise InputError(f"{where}: one laser switch at a time ({', '.join(BEAMS)})")
    return dict(use)


def _requests(bots_data: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """A scenario's per-bot `power_down` (for the next round), as the turn's actions."""
    out = {}
    for index, data in enumerate(bots_data):
        value = data.get("power_down", False)
        if not isinstance(value, bool):
            raise InputError(f"bots[{index}]: 'power_down' must be true or false, got {value!r}")
        if value:
            out[data["id"]] = {"power_down": True}
    return out


# --- a round -----------------------------------------------------------------------------------------------


def _play(turn: Turn, bot: Mover, card: str) -> None:
    seen = len(turn.events)
    _move(turn, bot, card)
    if "ramming_gear" in bot.upgrades:  # 000 "Ramming Gear": two damage to each robot it pushes or touches
        rammed = []
        for event in turn.events[seen:]:
            if event["type"] == "pushed" and event.get("by") == bot.id:
                rammed.append(event["bot"])
            elif event["type"] == "blocked" and event["bot"] == bot.id and event.get("by") == "bot":
                ahead = turn.bots_at(neighbour(tuple(event["at"]), event["dir"]))
                rammed += [other.id for other in ahead[:1]]
        for other_id in rammed:
            _damage(turn, turn.bots[other_id], RAMMING, "ramming gear", by=bot.id)


def _move(turn: Turn, bot: Mover, card: str) -> None:
    move, turn_ = parse(card)
    turn.emit("chip", bot.id, chip=card)
    crab = turn_ is not None and move == "1" and turn_ in "LR" and "crab_legs" in bot.upgrades
    if crab:  # 000 "Crab Legs": sidestep without turning
        turn.advance(bot, rotate(bot.dir, TURNS[turn_]))
        return
    if move in TURNS:
        turn.rotate(bot, TURNS[move], "chip")
        return
    squares = MOVES[move]
    if turn_ is not None:  # 000 "Dual Processor": one square less (two for a U-turn), then the turn
        squares = (max(0, squares - (2 if turn_ == "U" else 1)) if squares > 0
                   else min(0, squares + (2 if turn_ == "U" else 1)))  # fmt: skip
    heading = bot.dir if squares > 0 else opposite(bot.dir)
    for _ in range(abs(squares)):
        if not turn.advance(bot, heading) or bot.at is None:
            break
    if turn_ is not None and bot.at is not None:
        turn.rotate(bot, TURNS[turn_], "chip")


def _beam(turn: Turn, start, heading: str, *, pierce: int) -> list[Mover]:
    """The robots a robot's laser hits from `start` (its own square, not hit) toward `heading`: the first robot,
    or with a High-Power Laser through one wall or robot to the next robot too."""
    hits: list[Mover] = []
    square = start
    for _ in range(turn.course.width + turn.course.height):
        if turn.course.wall_between(square, heading):
            if pierce == 0:
                break
            pierce -= 1
        square = neighbour(square, heading)
        if not turn.course.on_course(square):
            break
        here = turn.bots_at(square)
        if here:
            hits.append(here[0])
            if pierce == 0:
                break
            pierce -= 1
    return hits


def _use(bot: Mover) -> dict[str, Any]:
    return dict(bot.upgrade_use)


def _lasers(turn: Turn, down: set[str], cards: dict[str, list[str]], rng: random.Random) -> None:
    """Board lasers hit the first robot in their beam, a damage a beam; every robot not powered down fires its
    forward laser (two with Double-Barreled Lasers, and a rear one with a Rear-Firing Laser) at the first robot
    in its line. All at once (000 "Lasers Fire"); the upgrades' beams act instead of damage."""
    hits: list[tuple[Mover, int, str, str, Mover | None]] = []  # target, damage, cause, heading, shooter
    for laser in turn.course.of_type("laser"):
        heading = opposite(laser.side)
        for square in turn.course.ray(laser.at, heading):
            here = turn.bots_at(square)
            if here:
                hits.append((here[0], laser.beams, "laser", heading, None))
                turn.emit("shot", None, source="laser", at=list(laser.at), hit=[here[0].id])
                break
    for bot in turn.in_order():
        if bot.id in down:
            continue
        pierce = 1 if "high_power_laser" in bot.upgrades else 0
        barrels = 2 if "double_barreled_lasers" in bot.upgrades else 1
        headings = [bot.dir] + ([opposite(bot.dir)] if "rear_firing_laser" in bot.upgrades else [])
        for heading in headings:
            struck = _beam(turn, bot.at, heading, pierce=pierce)
            turn.emit("shot", bot.id, source="bot", dir=heading, hit=[target.id for target in struck])
            hits += [(target, barrels, "bot laser", heading, bot) for target in struck]
    shielded: set[tuple[str, str]] = set()
    for target, amount, cause, heading, shooter in hits:
        if target.at is None:
            continue
        if shooter is not None and _beam_effect(turn, shooter, target, heading, amount, cards, rng):
            continue
        if target.id in down and "power_down_shield" in target.upgrades and (target.id, heading) not in shielded:
            shielded.add((target.id, heading))  # 000 "Power-Down Shield": one damage from each direction
            turn.emit("absorbed", target.id, upgrade="power_down_shield", amount=1, dir=heading)
            amount -= 1
        _damage(turn, target, amount, cause, **({"by": shooter.id} if shooter is not None else {}))


def _beam_effect(turn: Turn, shooter: Mover, target: Mover, heading: str, amount: int,
                 cards: dict[str, list[str]], rng: random.Random) -> bool:  # fmt: skip
    """The shooter's laser switch for the round acts on the target; True when it replaces the damage."""
    use = _use(shooter)
    beam = next((name for name in BEAMS if use.get(name) and name in shooter.upgrades), None)
    if beam is None:
        return False
    turn.emit("beam", shooter.id, upgrade=beam, target=target.id)
    if beam == "radio_control":  # the target copies the shooter's program for the remaining registers
        for index in range(turn.phase, PROGRAM_LENGTH):
            if target.id in cards and shooter.id in cards:
                cards[target.id][index] = cards[shooter.id][index]
        return True
    if beam == "scrambler":  # the target's next register becomes a random instruction
        if turn.phase < PROGRAM_LENGTH and target.id in cards:
            cards[target.id][turn.phase] = _draw(rng, 1)[0]
            turn.emit("scrambled", target.id, register=turn.phase + 1)
        return True
    if beam == "tractor_beam":  # pulled one square closer when more than one square away
        distance = abs(target.at[0] - shooter.at[0]) + abs(target.at[1] - shooter.at[1])
        if distance > 1:
            turn.advance(target, opposite(heading), by=shooter.id, mode="push")
        return True
    turn.advance(target, heading, by=shooter.id, mode="push")  # pressor beam, mini howitzer: pushed away
    if beam == "mini_howitzer":
        if target.at is not None:
            _damage(turn, target, amount, "mini howitzer", by=shooter.id)
        state = dict(shooter.upgrade_state)
        state["mini_howitzer"] = state.get("mini_howitzer", 0) + 1
        if state["mini_howitzer"] >= HOWITZER_USES:
            state.pop("mini_howitzer")
            shooter.upgrades = tuple(u for u in shooter.upgrades if u != "mini_howitzer")
            shooter.upgrade_use = tuple((k, v) for k, v in shooter.upgrade_use if k != "mini_howitzer")
            turn.emit("upgrade_lost", shooter.id, upgrade="mini_howitzer", reason="used up")
        shooter.upgrade_state = tuple(sorted(state.items()))
    return True


def _damage(turn: Turn, bot: Mover, amount: int, cause: str, **extra: Any) -> None:
    """Damage, less what the Ablative Coat absorbs (six, then it is discarded)."""
    if "ablative_coat" in bot.upgrades and bot.at is not None:
        state = dict(bot.upgrade_state)
        taken = min(amount, ABLATIVE - state.get("ablative_coat", 0))
        state["ablative_coat"] = state.get("ablative_coat", 0) + taken
        amount -= taken
        turn.emit("absorbed", bot.id, upgrade="ablative_coat", amount=taken)
        if state["ablative_coat"] >= ABLATIVE:
            bot.upgrades = tuple(u for u in bot.upgrades if u != "ablative_coat")
            state.pop("ablative_coat")
            turn.emit("upgrade_lost", bot.id, upgrade="ablative_coat", reason="used up")
        bot.upgrade_state = tuple(sorted(state.items()))
    turn.damage(bot, amount, cause, **extra)  # `by`: the robot whose laser or ram it is (the awards count it)


def _flags(turn: Turn, down: set[str], state: State) -> None:
    last = len(turn.course.checkpoints)
    for bot in turn.in_order():
        if bot.id in down:
            continue
        marker, tile = turn.course.markers.get(bot.at), turn.course.tiles.get(bot.at)
        if (marker is not None and marker.archives) or (tile is not None and tile.archives):  # flags, wrenches
            if bot.spawn_at != bot.at:
                bot.spawn_at, bot.spawn_dir = bot.at, bot.dir
                turn.emit("archived", bot.id, at=list(bot.at))
        number = marker.flag_number if marker is not None else None
        if number is not None and number == bot.next_checkpoint:
            bot.next_checkpoint += 1
            turn.emit("checkpoint", bot.id, number=number, at=list(bot.at))
            if number == last:
                turn.finishers.append(bot.id)
                place = len(turn.finishers)
                if place == 1 and turn.winner is None:
                    turn.winner = bot.id
                turn.emit("finished", bot.id, place=place)


def _steady(bot: Mover) -> bool:
    """000 "Gyroscopic Stabilizer": switched on, gears and rotating belts don't turn the robot."""
    return "gyroscopic_stabilizer" in bot.upgrades and bool(_use(bot).get("gyroscopic_stabilizer"))


def _flywheel(turn: Turn, cards: Mapping[str, list[str]], hands: Mapping[str, Sequence[str]] | None) -> dict[str, str]:
    """000 "Flywheel": the instruction a robot saves for the next round must be one its program left unused."""
    saved = {}
    for bot in turn.bots.values():
        choice = _use(bot).get("flywheel")
        if choice is None or "flywheel" not in bot.upgrades:
            continue
        if hands is not None and bot.id in hands:
            used = Counter(part for index, card in enumerate(cards.get(bot.id, ())) if index not in locked(bot)
                           and card != IDLE for part in _uses(card)[0])  # fmt: skip
            if Counter(hands[bot.id])[choice] <= used[choice]:
                raise InputError(f"bot {bot.id!r}: the flywheel saves an unused instruction, and no {choice!r} is left")
        saved[bot.id] = choice
    return saved


def recompile(state: State, bot_id: str, seed: int) -> tuple[State, tuple[str, ...]]:
    """000 "Recompile": the robot discards its instructions for new ones, at a cost of 2 damage. Returns the
    state with the damage taken and the new hand (of the size the new damage allows)."""
    bot = state.bot(bot_id)
    if "recompile" not in bot.upgrades:
        raise InputError(f"bot {bot_id!r} has no recompile upgrade")
    if bot.at is None or bot.power_down_next:
        raise InputError(f"bot {bot_id!r} has no instructions to recompile this round")
    damage = bot.damage + RECOMPILE_DAMAGE
    if damage >= MAX_DAMAGE:
        raise InputError(f"bot {bot_id!r}: recompiling would destroy it ({damage} damage)")
    after = replace(bot, damage=damage)
    hand = _draw(random.Random(seed), hand_size(after)) + ((bot.saved_chip,) if bot.saved_chip else ())
    return state.with_bots(after if other.id == bot_id else other for other in state.bots), hand


def _offer(rng: random.Random) -> str:
    return rng.choice(sorted(PLAYED))


class Round:
    """000's own data for a round (`Turn.local`): the programs, the robots powered down, the priority, the
    robots destroyed this round in the order they were, the upgrade offers, the flywheel's saved instructions,
    what was played and asked, and the round's random draws."""

    def __init__(self, cards, played, down, order, offers, flywheel, actions, rng):
        self.cards, self.played, self.down, self.order = cards, played, down, order
        self.offers, self.flywheel, self.actions, self.rng = offers, flywheel, actions, rng
        self.died: list[str] = []
        self.seen = 0  # the events before this register's


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
        raise InputError("the classic ruleset has no reboot: robots power down (000)")
    actions = dict(actions or {})
    known = {bot.id: bot for bot in state.bots}
    for bot_id, action in actions.items():
        if bot_id not in known:
            raise InputError(f"actions: {bot_id!r} is not a bot of this game")
        if not _is_action(action):
            raise InputError(f"actions: {ACTION_SHAPE}, got {action!r}")
    cards: dict[str, tuple[str, ...]] = {}
    for bot in state.bots:
        if bot.at is None:
            continue
        program = programs.get(bot.id)
        if program is None and bot.power_down_next:
            program = [IDLE] * PROGRAM_LENGTH
        if program is None:
            raise InputError(f"no program for bot {bot.id!r}")
        problem = program_problem(bot, hands.get(bot.id) if hands else None, program)
        if problem:
            raise InputError(f"bot {bot.id!r}: {problem}")
        cards[bot.id] = list(program)
    unknown = set(programs) - set(known)
    if unknown:
        raise InputError(f"programs for unknown bots: {sorted(unknown)}")
    rng = random.Random(seed)
    turn = Turn(state, frozenset())
    offers = {sq: (name, rounds) for sq, name, rounds in state.board.offers}
    for tile in turn.course.of_type("repair"):
        if tile.upgrade and tile.at not in offers:  # drawn once, on the first turn (kept in the state)
            offers[tile.at] = (_offer(rng), 0)
    played = {bot_id: tuple(program) for bot_id, program in cards.items()}
    for bot_id, action in actions.items():
        if "upgrade_use" in action:  # this round's switches (000: "can be activated or deactivated for the round")
            bot = turn.bots[bot_id]
            bot.upgrade_use = tuple(sorted(check_use(action["upgrade_use"], bot.upgrades, f"bot {bot_id!r}").items()))
    flywheel = _flywheel(turn, cards, hands)
    turn.local = Round(cards, played, set(), list(state.priority), offers, flywheel, actions, rng)
    return turn


def _power_down(turn: Turn) -> None:
    """A robot that announced a power down sits this round out: it repairs all its damage."""
    down = turn.local.down
    for bot in turn.in_order():
        bot.powered_down = bot.power_down_next
        bot.power_down_next = False
        if bot.powered_down:
            down.add(bot.id)
            turn.emit("powered_down", bot.id)
            turn.repair(bot, bot.damage, "power down")


def _registers(turn: Turn) -> None:
    """The register's priority (000 "Priority"), then each robot in it plays its instruction."""
    local, phase = turn.local, turn.phase
    cards, down, order = local.cards, local.down, local.order
    local.seen = len(turn.events)
    alive = [bot_id for bot_id in order if turn.bots[bot_id].at is not None]
    rank = {bot_id: POWERED_DOWN if bot_id in down else RANK[parse(cards[bot_id][phase - 1])[0]] for bot_id in alive}
    order = sorted(alive, key=lambda bot_id: (rank[bot_id], order.index(bot_id))) + [
        bot_id for bot_id in order if bot_id not in alive
    ]
    local.order = order
    turn.order = tuple(order)
    turn.emit("register_order", None, order=[bot_id for bot_id in order if bot_id in alive])
    for bot_id in order:  # in this register's priority
        bot = turn.bots[bot_id]
        if bot_id in alive and bot.at is not None and bot_id not in down:
            _play(turn, bot, cards[bot_id][phase - 1])


def _gears(turn: Turn) -> None:
    for bot in turn.in_order():
        tile = turn.course.tiles.get(bot.at)
        if tile is not None and tile.quarter_turns and not _steady(bot):
            turn.rotate(bot, tile.quarter_turns, "turntable")


def _robot_lasers(turn: Turn) -> None:
    _lasers(turn, turn.local.down, turn.local.cards, turn.local.rng)


def _touch_flags(turn: Turn) -> None:
    _flags(turn, turn.local.down, turn.state)


def _destroyed_last(turn: Turn) -> None:
    """The robot destroyed most recently goes last (000 "Priority")."""
    local = turn.local
    order = local.order
    for event in turn.events[local.seen:]:
        if event["type"] == "destroyed" and event["bot"] in turn.bots:
            local.died.append(event["bot"])
            order = [bot_id for bot_id in order if bot_id != event["bot"]] + [event["bot"]]
    local.order = order
    turn.order = tuple(order)


def _wrenches(turn: Turn) -> None:
    """Wrenches and hammers repair, hammers give their upgrade; an offer five rounds old is replaced."""
    local = turn.local
    down, offers, rng = local.down, local.offers, local.rng
    for bot in turn.in_order():
        tile = turn.course.tiles.get(bot.at)
        if bot.id in down or tile is None or not tile.repair_amount:
            continue
        turn.repair(bot, tile.repair_amount, "wrench")
        if tile.upgrade and bot.at in offers:
            name, _ = offers[bot.at]
            if name not in bot.upgrades:
                bot.upgrades = (*bot.upgrades, name)
                turn.emit("upgraded", bot.id, upgrade=name, at=list(bot.at))
            offers[bot.at] = (_offer(rng), 0)
            turn.emit("offer", None, at=list(bot.at), upgrade=offers[bot.at][0])
    for square, (name, rounds) in sorted(offers.items()):
        if rounds + 1 >= OFFER_ROUNDS:  # offered five rounds: replaced (000 "Repair using wrenches")
            offers[square] = (_offer(rng), 0)
            turn.emit("offer", None, at=list(square), upgrade=offers[square][0])
        else:
            offers[square] = (name, rounds + 1)


def _return(turn: Turn) -> None:
    """The robots return: those destroyed in an earlier round that found no free square then first (the
    priority keeps destroyed robots at its end in the order they were destroyed), then those destroyed this
    round, each in the order they were destroyed (000 "Multiple archive markers")."""
    local = turn.local
    died, rng = local.died, local.rng
    waiting = [bot_id for bot_id in local.order
               if turn.bots[bot_id].at is None and turn.bots[bot_id].lives > 0 and bot_id not in died]  # fmt: skip
    for bot_id in died:
        bot = turn.bots[bot_id]
        if bot.upgrades:
            lost = rng.choice(sorted(bot.upgrades))
            bot.upgrades = tuple(u for u in bot.upgrades if u != lost)
            bot.upgrade_state = tuple((k, v) for k, v in bot.upgrade_state if k != lost)
            turn.emit("upgrade_lost", bot_id, upgrade=lost, reason="destroyed")
    for bot_id in waiting + died:
        bot = turn.bots[bot_id]
        if bot.at is not None or bot.lives <= 0:
            continue
        taken = {other.at for other in turn.bots.values() if other.at is not None}
        at = bot.spawn_at
        if at in taken:
            free = [neighbour(at, d) for d in DIRECTIONS]
            free = [sq for sq in free if turn.course.on_course(sq) and sq not in taken and sq not in turn.course.pits]
            if not free:
                continue  # nowhere to return this round
            at = rng.choice(free)
        bot.at, bot.virtual = at, False
        bot.damage = 0 if "superior_archive" in bot.upgrades else RETURN_DAMAGE
        turn.emit("respawned", bot_id, at=list(at), dir=bot.dir, virtual=False, damage=bot.damage)


def _end_of_round(turn: Turn) -> dict[str, Any]:
    """A power down asked for the next round (cancelled by a destruction, or set by the circuit breaker), the
    flywheel's saved instruction; the race ends five rounds after the first robot finished."""
    local, state = turn.local, turn.state
    down, died, actions = local.down, local.died, local.actions
    new_bots = []
    for bot_id in state.priority:
        bot = turn.bots[bot_id]
        asked = bool((actions.get(bot_id) or {}).get("power_down"))
        power_next = asked and bot_id not in died  # destruction cancels it (000)
        if not power_next and bot.at is not None and "circuit_breaker" in bot.upgrades and bot.id not in down:
            threshold = _use(bot).get("circuit_breaker", BREAKER)
            if bot.damage >= threshold:  # 000 "Circuit Breaker": powers down next round by itself
                power_next = True
                turn.emit("circuit_breaker", bot_id, damage=bot.damage, threshold=threshold)
        use = tuple((k, v) for k, v in bot.upgrade_use if k != "flywheel")
        new_bots.append(bot.freeze(
            last_program=local.played.get(bot_id, ()) if bot_id not in down else bot.last_program,
            power_down_next=power_next, rebooting=False, spawned=False, upgrade_use=use,
            saved_chip=local.flywheel.get(bot_id) if "flywheel" in bot.upgrades else None,
        ))  # fmt: skip
    ends_after = state.ends_after
    if turn.finishers and ends_after is None:
        ends_after = state.turn + RUNNER_UP_ROUNDS
    offers = frozenset((sq, name, rounds) for sq, (name, rounds) in local.offers.items())
    return {
        "bots": tuple(new_bots),
        "priority": tuple(local.order),
        "board": replace(state.board, offers=offers),
        "finishers": tuple(turn.finishers),
        "ends_after": ends_after,
    }


FINISHED = Condition("a robot finished", lambda turn: bool(turn.finishers))
# 000 "What happens each round": the registers, then the end of the round; the robots return before the
# winning check (a robot with lives left is still in the race).
PLAN = Plan(
    ruleset=NAME,
    prepare=_prepare,
    begin=(step("start", _power_down),),
    phase=(
        step("chips", _registers),
        step("belts", conveyors((1, 2), same_way_wins=False, turns="curves", sub=1, steady=_steady)),
        step("express", conveyors((2,), same_way_wins=False, turns="curves", sub=2, steady=_steady)),
        step("turntables", _gears),
        step("lasers", _robot_lasers),
        step("checkpoints", _touch_flags, _destroyed_last),
    ),
    stops=(),
    end=(step("repairs", _wrenches), step("respawn", _return), winning(unless=FINISHED)),
    finish=_end_of_round,
)


RULESET = register(
    Ruleset(
        name=NAME,
        document="000",
        title="Classic",
        help="10 instructions, power down, upgrades",
        max_damage=MAX_DAMAGE,
        counts_lives=True,
        numbered=False,
        modes=("race",),
        players=(1, 8),
        reboots=False,
        modules=False,
        teams=False,
        hand_size=hand_size,
        locked=locked,
        deal=_deal,
        card_problem=card_problem,
        plan=PLAN,
        elements=ELEMENTS,
        check_course=_check_course,
        check_program=_check_program,
        random_program=_random_program,
        public_action=public_action,
        report=lambda state, events: reports.register_report(state, events),
        bot_fields=_bot_fields,
        requests=_requests,
        sits_out=lambda bot: bot.power_down_next,
        redeal=recompile,
        runner_up_rounds=RUNNER_UP_ROUNDS,
        bot_dict=classic_fields,
        awards=True,
    )
)
