"""Computer players (issue 20): pure code that turns a player's view of the game into a program.

    choose(state, bot_id, hand, strength=..., seed=...) -> Decision

A player sees what any player sees, the public state, and its own hand; `public_view` blanks the other
bots' private fields (a stored chip, a saved instruction) before anything else looks at the state, and
no other seat's hand is ever an input. The same inputs give the same decision: every random choice comes
from `seed`, and the search budget is counted in engine calls (`BUDGETS`), never in wall time.

- **easy**: hardly any search. It plays each program in its head on the bare course (walls, holes, the
  edge, its own chips; no belts, gears or other robots), glances with the engine at its few favourites
  (`BUDGETS["easy"]`) to stay out of the pits it could not foresee, and picks one of the best three of
  those at random. Plausible, not random.
- **normal**: ranks every distinct program as Easy does, then plays the best `BUDGETS["normal"]` of them with
  the engine, its robot alone on the course, and sends the one that ends best (progress, distance,
  damage, destruction).
- **hard**: in a race, the search of `hard` (issue 40): every distinct program of the hand in the course
  model (`course_model`: belts, gears, timed elements, phase by phase), each distinct future replayed with
  the engine, the best with every robot on the course against three guesses of the others' programs (hands
  dealt from the deck, never their real ones), and a look one turn further in the model; a position is worth
  the registers still needed to finish. In an arena: Normal's search, its best replayed with every robot. It
  reboots (003) or powers down (000) when damage has started to lock registers, and installs, charges and
  fires bot modules when the engine shows the turn goes better with them.

Puzzles are solved by `solver.solve(state, seed)`, a search that knows the goal and plays every seat.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import rulesets
from ..chips import BACK_UP, IDLE, MOVES, PROGRAM_LENGTH, TURNS
from ..errors import InputError
from ..geometry import neighbour, opposite, rotate
from ..program import check_program, deal, random_program
from ..state import State
from . import distance, hard
from .programs import cards_for, kind, kind_programs

STRENGTHS = ("easy", "normal", "hard")
# Engine calls a decision may spend: Normal's on its own programs; Hard's on its own programs, then on the
# replays with every robot (hard.FULL_REPLAYS) and the module and reboot choices.
BUDGETS = {"easy": 8, "normal": 400, "hard": 1000}
REBOOT_PAST_LOCK = 0  # Hard reboots (powers down) this much damage past the first locked register
EASY_CHOICES = 3  # Easy picks among its best few
# The evaluation's weights, in tenths of a square.
CHECKPOINT = 1000
SQUARE = 10
DESTROYED = 400
DAMAGE = 12  # a point of damage, in a ruleset where 10 destroy (the weight scales with the ruleset's maximum)
HARD_DAMAGE = 2.0  # Hard counts damage twice as dear as Normal: each point is a card fewer next turn
WIN = 10_000_000
# Modules Hard installs, in order of preference, when the game offers them (a race wants to move and to last).
MODULE_PREFERENCE = ("turbo", "shield", "repair", "crab_legs", "blaster", "reflector", "repeller")


@dataclass(frozen=True)
class Decision:
    program: tuple[str, ...]
    reboot: bool = False
    action: dict[str, Any] | None = None
    engine_calls: int = 0  # resolve_turn calls this decision spent
    candidates: int = 0  # distinct programs the hand allowed


def public_view(state: State, bot_id: str) -> State:
    """The state as the player of `bot_id` may see it: other bots' private fields blanked."""
    bots = tuple(
        bot if bot.id == bot_id else dataclasses.replace(bot, stored_chip=None, saved_chip=None)
        for bot in state.bots
    )
    return dataclasses.replace(state, bots=bots)


def choose(
    state: State, bot_id: str, hand: Sequence[str], *, strength: str, seed: int, budget: int | None = None
) -> Decision:
    """The program (and reboot, action) a computer player of `strength` sends for `bot_id` holding `hand`."""
    if strength not in STRENGTHS:
        raise InputError(f"unknown strength {strength!r} (known: {', '.join(STRENGTHS)})")
    state = public_view(state, bot_id)
    player = _Player(state, bot_id, tuple(hand), strength, seed, BUDGETS[strength] if budget is None else budget)
    decision = player.decide()
    # Never an illegal program: the decision is checked as the site checks a person's.
    if check_program(player.bot, hand, decision.program, decision.action, state=state) is not None:
        decision = dataclasses.replace(decision, action=None)
        if check_program(player.bot, hand, decision.program, state=state) is not None:
            decision = dataclasses.replace(
                decision, program=random_program(player.bot, hand, seed, state.ruleset), reboot=False
            )
    return decision


class _Player:
    def __init__(self, state: State, bot_id: str, hand: tuple[str, ...], strength: str, seed: int, budget: int):
        self.state, self.bot_id, self.hand, self.strength, self.budget = state, bot_id, hand, strength, budget
        self.bot = state.bot(bot_id)
        self.rules = rulesets.get(state.ruleset)
        self.rng = random.Random(seed)
        self.sim_seed = self.rng.getrandbits(62)  # one seed for every replay: the candidates meet the same luck
        self.next_seed = self.rng.getrandbits(62)  # Hard's sample of the next hand
        self.calls = 0
        self.course = state.course
        self.arena = state.mode == "arena"
        self.damage_weight = DAMAGE * 10 / max(1, self.rules.max_damage) * (HARD_DAMAGE if strength == "hard" else 1)
        self._others = None  # Hard: the other robots' likely programs and hands (`predicted_opponents`)

    # -- the decision ---------------------------------------------------------------------------------
    def decide(self) -> Decision:
        bot = self.bot
        if self.rules.sits_out(bot) or bot.at is None:
            return Decision(random_program(bot, self.hand, 0, self.state.ruleset))
        frozen = self.rules.locked(bot)
        candidates = list(kind_programs(self.hand, frozen))
        if not candidates:
            return Decision(random_program(bot, self.hand, 0, self.state.ruleset))
        ranked = self._rank(candidates)
        if self.strength == "easy":
            # A glance with the engine at its few favourites, to stay out of the pits it can't foresee, then
            # one of the best few at random.
            tried = [(self._solo_value(kinds, frozen), kinds) for _, kinds in ranked[: self.budget]]
            tried.sort(key=lambda pair: -pair[0])
            top = tried[:EASY_CHOICES] or ranked[:1]
            best = top[self.rng.randrange(len(top))][1]
            return Decision(cards_for(best, self.hand, frozen), engine_calls=self.calls, candidates=len(candidates))
        if self.strength == "hard" and not self.arena:
            rows = hard.search(self, frozen)
            return self._hard_decision(rows[0][2], self._others, len(candidates))
        solo_budget = self.budget if self.strength == "normal" else self.budget - hard.FULL_REPLAYS - 12
        scored = []
        for quick, kinds in ranked[: max(1, solo_budget)]:
            value = self._solo_value(kinds, frozen)
            scored.append((value, quick, self.rng.random(), kinds))
        scored.sort(reverse=True)
        if self.strength == "normal":
            return Decision(cards_for(scored[0][3], self.hand, frozen), engine_calls=self.calls,
                            candidates=len(candidates))
        return self._hard(scored, frozen, len(candidates))

    def _hard(self, scored: list, frozen: dict[int, str], count: int) -> Decision:
        """Hard in an arena: Normal's best replayed with every robot's likely program (a race: `hard.search`)."""
        others = self.predicted_opponents()
        rows = []
        for solo, _, tiebreak, kinds in scored[:hard.FULL_REPLAYS]:
            cards = cards_for(kinds, self.hand, frozen)
            full = self._full_value(cards, others) if others is not None else solo
            rows.append((0.6 * full + 0.4 * solo, tiebreak, cards))
        rows.sort(key=lambda row: (row[0], row[1]), reverse=True)
        return self._hard_decision(rows[0][2], others, count)

    def _hard_decision(self, cards: tuple[str, ...], others, count: int) -> Decision:
        """Hard's program with its reboot (003, 001), power down (000) or module action."""
        reboot, action = False, None
        damage_locks = self.bot.damage >= self._lock_threshold() + REBOOT_PAST_LOCK
        if damage_locks and not self.arena and self.rules.reboots:
            reboot = True  # repaired at the end of this turn, idle the next (003 "Rebooting")
        elif damage_locks and self.rules.requests is not None and not self.bot.power_down_next:
            action = {"power_down": True}  # 000: repaired while it sits the next round out
        elif self.state.prices and self.rules.modules:
            action = self._module_action(cards, others)
        return Decision(cards, reboot=reboot, action=action, engine_calls=self.calls, candidates=count)

    def _lock_threshold(self) -> int:
        """Damage from which the ruleset starts locking registers, found by asking it."""
        for damage in range(self.rules.max_damage):
            if self.rules.locked(dataclasses.replace(self.bot, damage=damage, last_program=(IDLE,) * 5)):
                return damage
        return self.rules.max_damage

    # -- Easy's head: the bare course ------------------------------------------------------------------
    def _rank(self, candidates: list[tuple[str, ...]]) -> list[tuple[float, tuple[str, ...]]]:
        holes = distance.holes(self.course)
        ranked = []
        for kinds in candidates:
            ranked.append((self._quick(kinds, holes), kinds))
        # Stable: equal estimates keep the enumeration's order, which depends only on the hand.
        ranked.sort(key=lambda pair: -pair[0])
        return ranked

    def _quick(self, kinds: tuple[str, ...], holes: frozenset) -> float:
        at, heading = self.bot.at, self.bot.dir
        next_cp = self.bot.next_checkpoint
        progress = 0
        for name in kinds:
            if name in TURNS:
                heading = rotate(heading, TURNS[name])
            elif name in MOVES or name == BACK_UP:
                steps = MOVES.get(name, 1)
                way = heading if name != BACK_UP else opposite(heading)
                for _ in range(steps):
                    if self.course.wall_between(at, way):
                        break
                    ahead = neighbour(at, way)
                    if not self.course.on_course(ahead) or ahead in holes:
                        return -DESTROYED * 10 + progress * CHECKPOINT
                    at = ahead
            target = self._checkpoint_at(next_cp)
            if target is not None and at == target:
                progress += 1
                next_cp += 1
        return progress * CHECKPOINT - SQUARE * self._distance(at, heading, next_cp, facing=False)

    # -- values of a replayed turn ---------------------------------------------------------------------
    def _checkpoint_at(self, number: int):
        for marker in self.course.checkpoints:
            if marker.number == number:
                return marker.at
        return None

    def _distance(self, at, heading: str, next_cp: int, *, facing: bool) -> int:
        if self.arena:
            return self._arena_distance(at)
        target = self._checkpoint_at(next_cp)
        if target is None:
            return 0
        if facing:
            return distance.effort(self.course, target).get((at, heading), distance.FAR)
        return distance.squares(self.course, target).get(at, distance.FAR)

    def _arena_distance(self, at) -> int:
        """In an arena, closeness to the nearest opponent (where it stood when the turn began)."""
        spots = [bot.at for bot in self.state.bots if bot.id != self.bot_id and bot.at is not None
                 and bot.drone_of is None and (bot.team is None or bot.team != self.bot.team)]
        if not spots:
            return 0
        return min(abs(at[0] - x) + abs(at[1] - y) for x, y in spots) // 2

    def _value(self, after: State, events: list, bot_id: str) -> float:
        bot = next((b for b in after.bots if b.id == bot_id), None)
        if bot is None:
            return -WIN
        if not self.arena and after.winner == bot_id:
            return WIN
        destroyed = sum(1 for e in events if e["type"] == "destroyed" and e["bot"] == bot_id)
        if not bot.in_game:
            return -WIN // 2
        value = -DESTROYED * destroyed - self.damage_weight * bot.damage
        if self.arena:
            value += self._arena_value(after, events, bot_id)
        else:
            value += (bot.next_checkpoint - 1) * CHECKPOINT
        at = bot.at if bot.at is not None else bot.spawn_at
        value -= SQUARE * self._distance(at, bot.dir, bot.next_checkpoint, facing=self.strength == "hard")
        return value

    def _arena_value(self, after: State, events: list, bot_id: str) -> float:
        """Damage dealt to and robots destroyed of the other side (only seen when they are on the course)."""
        mine = self.bot.team
        dealt = 0.0
        for event in events:
            target = event.get("bot")
            if target in (None, bot_id) or target.startswith(bot_id + "."):
                continue
            other = next((b for b in after.bots if b.id == target), None)
            if other is not None and mine is not None and other.team == mine:
                continue
            if event["type"] == "damaged":
                dealt += self.damage_weight * int(event.get("amount", 1))
            elif event["type"] == "destroyed":
                dealt += DESTROYED
        return dealt

    # -- replays with the engine -----------------------------------------------------------------------
    def resolve(self, state: State, programs, hands, actions=None, reboots=()):
        self.calls += 1
        try:
            return rulesets.get(state.ruleset).resolve(
                state, programs, self.sim_seed, reboots=reboots, actions=actions, hands=hands
            )
        except InputError:
            return None

    def solo_state(self) -> State:
        cached = getattr(self, "_solo", None)
        if cached is None:
            keep = tuple(b for b in self.state.bots if b.id == self.bot_id or b.drone_of == self.bot_id)
            cached = self._solo = dataclasses.replace(
                self.state, bots=keep, priority=tuple(i for i in self.state.priority if any(b.id == i for b in keep)),
                winner=None, winning_team=None,
            )
        return cached

    def _solo_value(self, kinds: tuple[str, ...], frozen: dict[int, str]) -> float:
        cards = cards_for(kinds, self.hand, frozen)
        result = self.resolve(self.solo_state(), {self.bot_id: cards}, {self.bot_id: self.hand})
        if result is None:
            return -WIN
        return self._value(result[0], result[1], self.bot_id)

    def predicted_opponents(self, likely=None) -> tuple[dict, dict] | None:
        """A likely program for every other robot in a hand dealt from the deck (a hand it could hold; its real
        one is never seen): `likely(rival, hand, frozen)`'s kinds, else the best of Easy's bare-course
        estimate. None when the robot races alone."""
        rivals = [b for b in self.state.bots if b.id != self.bot_id and b.in_game and b.drone_of is None
                  and not b.target]
        if not rivals:
            return None
        hands = self._guess_hands(rivals)
        programs: dict[str, tuple[str, ...]] = {}
        holes = distance.holes(self.course)
        for rival in rivals:
            if rival.at is None:
                continue
            hand = tuple(hands.get(rival.id, ()))
            if self.rules.sits_out(rival):
                programs[rival.id] = (IDLE,) * PROGRAM_LENGTH
                continue
            frozen = self.rules.locked(rival)
            if likely is not None:
                best = likely(rival, hand, frozen)
            else:
                model = _Player(self.state, rival.id, hand, "easy", 0, 0)
                best = max(kind_programs(hand, frozen), key=lambda kinds: model._quick(kinds, holes), default=None)
            if best is None:
                programs[rival.id] = random_program(rival, hand, 0, self.state.ruleset)
            else:
                programs[rival.id] = cards_for(best, hand, frozen)
        self._others = programs, hands
        return self._others

    def _guess_hands(self, rivals: list) -> dict[str, tuple[str, ...]]:
        """Hands dealt from the deck for the other robots, and this robot's own. Where every card is one of a
        kind (numbered cards), a guessed hand never holds a card this robot holds or another guess holds: those
        are replaced by cards of further deals."""
        hands = {bot_id: tuple(hand) for bot_id, hand in deal(self.state, self.rng.getrandbits(62)).items()}
        if self.rules.numbered:
            taken = set(self.hand)
            spare: list[str] = []
            for rival in rivals:
                hand = [card for card in hands.get(rival.id, ()) if card not in taken]
                missing = len(hands.get(rival.id, ())) - len(hand)
                for _ in range(4):
                    spare = [card for card in spare if card not in taken and card not in hand]
                    if len(spare) >= missing:
                        break
                    spare += [card for more in deal(self.state, self.rng.getrandbits(62)).values() for card in more]
                hand += spare[:missing]
                hands[rival.id] = tuple(hand)
                taken.update(hand)
        hands[self.bot_id] = self.hand
        return hands

    def _full_value(self, cards: tuple[str, ...], others, action=None) -> float:
        programs, hands = others
        programs = {**programs, self.bot_id: cards}
        result = self.resolve(self.state, programs, hands, {self.bot_id: action} if action else None)
        if result is None:
            return -WIN
        return self._value(result[0], result[1], self.bot_id)

    # -- modules ---------------------------------------------------------------------------------------
    def _module_action(self, cards: tuple[str, ...], others) -> dict[str, Any] | None:
        bot, prices = self.bot, self.state.prices
        if bot.module is None:
            for name in MODULE_PREFERENCE:
                if name in prices:
                    return {"install": name}
            return None
        if bot.charges == 0:
            if prices.get(bot.module, 10**9) * 2 <= bot.battery:
                return {"charge": 2}
            return None
        if others is None:
            return None
        plain = self._full_value(cards, others)
        best, chosen = plain, None
        for action in _activations(bot.module):
            if check_program(bot, self.hand, cards, action, state=self.state) is not None:
                continue
            value = self._full_value(cards, others, action)
            if value > best + SQUARE:  # worth a charge: at least a square better
                best, chosen = value, action
        return chosen


def _activations(module: str) -> list[dict[str, Any]]:
    """The activations of `module` worth trying (docs/formats.md "Bot modules")."""
    from ..modules import MODULES

    return MODULES[module].trial_activations()


def strength_label(strength: str) -> str:
    return strength.capitalize()


__all__ = ["BUDGETS", "STRENGTHS", "Decision", "choose", "kind", "public_view", "strength_label"]
