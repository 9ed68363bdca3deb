"""Bot modules over random turns (hypothesis): random actions, checked by check_program like the site will,
on bundled courses with a few modules available. Charges and batteries never go negative, prices never fall
below the floor and stay those of the available modules, and every turn replays exactly from its stored
inputs (state dict, programs, actions, hands, seed)."""

import json

from hypothesis import event as tally
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.modules import MODULE_NAMES, MODULES
from engine.modules.economy import PRICE_FLOOR
from tests.engine.strategies import course_and_bots
from tests.profiles import examples


def _action(draw, bot, modules):
    kind = draw(st.sampled_from(["none", "install", "charge", "activate", "activate"]))
    if kind == "none":
        return None
    if kind == "install":
        return {"install": draw(st.sampled_from(sorted(modules) + ["drone"]))}
    if kind == "charge":
        return {"charge": draw(st.integers(1, 6))}
    shape = MODULES[bot.module].activation if bot.module in MODULES else "turn"
    phase = draw(st.integers(1, 5))
    payload = {
        "turn": {}, "scanner": {}, "phase": {"phases": [phase]},
        "two_phases": {"phases": [phase, phase + 1]},
        "turret": {"aim": draw(st.sampled_from("LRB")), "front": draw(st.booleans())},
        "prioritizer": {"order": draw(st.sampled_from(["first", "last"]))},
    }[shape]  # fmt: skip
    return {"activate": payload}


@st.composite
def games(draw):
    course, ids = draw(course_and_bots(most=4))
    modules = draw(st.lists(st.sampled_from(MODULE_NAMES), min_size=1, max_size=5, unique=True))
    prices = {name: draw(st.integers(PRICE_FLOOR, 300)) for name in modules}
    state = engine.new_game(course, ids, modules=modules, prices=prices)
    return state, draw(st.integers(1, 6)), draw(st.randoms(use_true_random=False))


@settings(max_examples=examples(60), deadline=None)
@given(games(), st.data())
def test_random_actions_keep_the_invariants_and_replay_exactly(case, data):
    state, turns, rng = case
    draw = data.draw
    accepted = refused = 0
    for _ in range(turns):
        if state.finished:
            break
        seed = state.turn * 7919
        hands = engine.deal(state, seed)
        programs, actions = {}, {}
        for bot in state.bots:
            if bot.at is None or bot.drone_of is not None:  # a drone plays its owner's chips
                continue
            program = list(engine.random_program(bot, hands[bot.id], rng.randrange(1 << 30)))
            if bot.stored_chip and not bot.rebooting and draw(st.booleans()):
                frozen = engine.frozen_registers(bot)
                free = [i for i in range(5) if i not in frozen]
                if free:
                    program[draw(st.sampled_from(free))] = "S"
            assert engine.check_program(bot, hands[bot.id], program) is None, (bot, program)
            programs[bot.id] = program
            action = _action(draw, bot, state.prices)
            if action is None:
                continue
            if engine.check_program(bot, hands[bot.id], program, action, state=state) is None:
                actions[bot.id] = action
                accepted += 1
            else:
                refused += 1
        inputs = json.dumps({"state": engine.state_to_dict(state), "programs": programs, "actions": actions,
                             "hands": {k: list(v) for k, v in hands.items()}, "seed": seed})
        after, events = engine.resolve_turn(state, programs, seed, actions=actions, hands=hands)
        for bot in after.bots:
            assert 0 <= bot.charges <= 99, bot
            assert 0 <= bot.battery <= 1_000_000, bot
            assert bot.module is None or bot.module in state.prices
        assert set(after.prices) == set(state.prices)
        assert min(after.prices.values()) >= PRICE_FLOOR
        for event in events:
            if event["type"] == "module_charged":
                assert event["price_paid"] > 0 and 1 <= event["charges"] <= 5
            assert event["type"] != "chip_stored" or set(event) == {"phase", "step", "type", "bot", "replaced"}
        stored = json.loads(inputs)
        replayed, replay_events = engine.resolve_turn(
            engine.state_from_dict(stored["state"], state.course), stored["programs"], stored["seed"],
            actions=stored["actions"], hands=stored["hands"],
        )  # fmt: skip
        assert engine.state_to_dict(replayed) == engine.state_to_dict(after)
        assert replay_events == events
        assert engine.state_from_dict(engine.state_to_dict(after), after.course) == after
        state = after
    tally(f"actions accepted: {min(accepted, 3)}+, refused: {min(refused, 3)}+")
