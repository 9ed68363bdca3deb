"""All 17 bot modules together (issue 14): random games on every bundled course, 2-8 bots, every module
available, random legal installs, charges and activations (filtered by `check_program` with the dealt hands,
as the site does), stored chips played, reboots asked now and then.

After every turn: nothing raised; charges and batteries are never negative; prices stay at or above the
floor; no two real bots share a square; bots on the course stand on it and not in a pit; drones carry
`drone_of`, are named owner + ".drone" and are not in `places`; the state survives a round trip through
plain data; the same inputs give the same events and state; and the events, applied to the state before,
give the state after (position, heading, damage, lives, virtual for every bot, drones included; bombs live
within the turn).
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

import engine
from engine.modules import MODULE_NAMES, MODULES
from engine.modules.economy import PRICE_FLOOR
from tests.engine.strategies import course_and_bots
from tests.profiles import examples

from .test_properties import _board, _replay


def _activation(draw, module):
    shape = MODULES[module].activation
    if shape == "phase":
        return {"phases": [draw(st.integers(1, 5))]}
    if shape == "two_phases":
        phase = draw(st.integers(1, 4))
        return {"phases": [phase, phase + 1]}
    if shape == "turret":
        return {"aim": draw(st.sampled_from("LRB")), "front": draw(st.booleans())}
    if shape == "prioritizer":
        return {"order": draw(st.sampled_from(["first", "last"]))}
    return {}


def _action(draw, bot):
    """A random action, mostly activations (the point of the test), some installs and charges."""
    kind = draw(st.sampled_from(["none", "install", "charge", "activate", "activate", "activate"]))
    if kind == "none" or (kind == "activate" and bot.module is None):
        return None
    if kind == "install":
        return {"install": draw(st.sampled_from(MODULE_NAMES))}
    if kind == "charge":
        return {"charge": draw(st.integers(1, 5))}
    return {"activate": _activation(draw, bot.module)}


@st.composite
def games(draw):
    course, ids = draw(course_and_bots())
    state = engine.new_game(course, ids, lives=draw(st.integers(1, 3)), modules=MODULE_NAMES)
    squares = {bot.id: bot.at for bot in state.bots}
    if draw(st.booleans()):  # a crowd: every bot on a plain square near one spot, so modules meet
        free = _plain_squares(course)
        centre = draw(st.sampled_from(free))
        near = sorted(free, key=lambda sq: (abs(sq[0] - centre[0]) + abs(sq[1] - centre[1]), sq))[: len(ids) + 4]
        if len(near) >= len(ids):
            squares = dict(zip(ids, draw(st.permutations(near))[: len(ids)], strict=True))
    bots = [
        engine.Bot(**{**bot.__dict__, "module": draw(st.sampled_from(MODULE_NAMES)),
                      "charges": draw(st.integers(0, 5)), "at": squares[bot.id],
                      "dir": bot.dir if squares[bot.id] == bot.at else draw(st.sampled_from("NESW"))})
        for bot in state.bots
    ]  # fmt: skip
    return state.with_bots(bots), draw(st.integers(2, 5))


def _plain_squares(course):
    """Squares with no element at all (plain floor), where any bot may stand."""
    taken = {element.at for element in course.elements if element.type != "floor"}
    return [(x, y) for y in range(course.height) for x in range(course.width) if (x, y) not in taken]


def _inputs(state, draw, seed):
    hands = engine.deal(state, seed)
    programs, actions, reboots = {}, {}, []
    for bot in state.bots:
        if bot.at is None or bot.drone_of is not None:  # a drone plays its owner's chips
            continue
        hand = hands[bot.id]
        program = engine.required_program(bot) or list(
            engine.random_program(bot, hand, draw(st.integers(0, 1 << 30)))
        )
        program = list(program)
        if bot.stored_chip and not bot.rebooting and draw(st.booleans()):
            free = [i for i in range(5) if i not in engine.frozen_registers(bot)]
            if free:
                program[draw(st.sampled_from(free))] = "S"
        assert engine.check_program(bot, hand, program) is None, (bot, program)
        programs[bot.id] = program
        action = _action(draw, bot)
        if action is not None and engine.check_program(bot, hand, program, action, state=state) is None:
            actions[bot.id] = action
        if not bot.rebooting and state.mode != "arena" and draw(st.integers(0, 9)) == 0:  # no reboot in arenas
            reboots.append(bot.id)
    return programs, actions, hands, reboots


def _check(before, after, events):
    for bot in after.bots:
        assert bot.charges >= 0 and bot.battery >= 0, bot
        if bot.at is not None:
            assert after.course.on_course(bot.at) and bot.at not in after.course.pits, bot
        if bot.drone_of is not None:
            assert bot.id == bot.drone_of + ".drone", bot
            assert after.bot(bot.drone_of).drone_of is None
            assert after.bot(bot.drone_of).next_checkpoint == bot.next_checkpoint
    assert set(after.prices) == set(MODULE_NAMES)
    assert min(after.prices.values()) >= PRICE_FLOOR, after.prices
    real = [bot.at for bot in after.bots if bot.at is not None and not bot.virtual]
    assert len(real) == len(set(real)), "two real bots share a square"
    ids = [bot.id for bot in after.bots]
    assert len(ids) == len(set(ids)) and sorted(after.priority) == sorted(ids)
    assert not any(bot_id.endswith(".bomb") for bot_id in ids)
    if after.places is not None:
        assert set(after.places) == {bot.id for bot in after.bots if bot.drone_of is None}
    if after.winner is not None:
        assert after.bot(after.winner).drone_of is None
    assert engine.state_from_dict(engine.state_to_dict(after), after.course) == after
    board = {}
    replayed = _replay(before, events, board)
    for bot in after.bots:
        assert replayed[bot.id] == {
            "at": bot.at, "dir": bot.dir, "virtual": bot.virtual, "damage": bot.damage, "lives": bot.lives,
            "bad_luck": bot.bad_luck,
        }, f"bot {bot.id}: the events don't add up to the new state"  # fmt: skip
    assert board == _board(after.board), "the events don't add up to the course elements' new state"
    gone = set(replayed) - set(ids)
    drones = {bot.id for bot in before.bots if bot.drone_of is not None} | {
        e["bot"] for e in events if e["type"] == "drone_deployed"
    }
    assert gone <= drones, f"only destroyed or replaced drones leave the state: {gone - drones}"
    for event in events:
        assert event.get("module") in (None, *MODULE_NAMES), event


def _dump(state, programs, actions, hands, reboots):
    return json.dumps({
        "state": engine.state_to_dict(state), "programs": programs, "actions": actions,
        "hands": {k: list(v) for k, v in hands.items()}, "reboots": reboots,
    })  # fmt: skip


@settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(games(), st.data())
def test_all_modules_together_keep_the_invariants_and_the_events_explain_the_state(case, data):
    state, turns = case
    activated = set()
    for _ in range(turns):
        if state.finished:
            break
        seed = state.turn * 7919 + 3
        programs, actions, hands, reboots = _inputs(state, data.draw, seed)
        stored = _dump(state, programs, actions, hands, reboots)
        after, events = engine.resolve_turn(
            state, programs, seed, reboots=reboots, actions=actions, hands=hands
        )
        assert _dump(state, programs, actions, hands, reboots) == stored, "the inputs were changed"
        _check(state, after, events)
        inputs = json.loads(stored)
        again, again_events = engine.resolve_turn(
            engine.state_from_dict(inputs["state"], state.course), inputs["programs"], seed,
            reboots=inputs["reboots"], actions=inputs["actions"], hands=inputs["hands"],
        )  # fmt: skip
        assert json.dumps([engine.state_to_dict(again), again_events]) == json.dumps(
            [engine.state_to_dict(after), events]
        )
        activated |= {e["module"] for e in events if e["type"] == "module_activated"}
        state = after
    tally(f"modules activated in one game: {min(len(activated), 6)}+")
