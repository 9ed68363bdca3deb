"""The weapon modules (Blaster, Turret, Repeller, Reflector, Shield) over random turns, and the `module` tag
of the events they cause. The scenarios (scenarios/module_*.json) pin each rule; here hypothesis checks
that with every bot firing a weapon module the invariants hold after every step and the events still add
up to the new state (a recoil is a `pushed` event, `pushed_back` moves nothing)."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.elements.lasers import Strike
from engine.modules import MODULES
from engine.turn import MODULE_CAUSED
from tests.engine.strategies import COURSES
from tests.profiles import examples

from .test_properties import _board, _replay

WEAPONS = ("blaster", "turret", "repeller", "reflector", "shield")


def _activation(draw, module):
    shape = MODULES[module].activation
    if shape == "two_phases":
        phase = draw(st.integers(1, 4))
        return {"phases": [phase, phase + 1]}
    if shape == "turret":
        return {"aim": draw(st.sampled_from("LRB")), "front": draw(st.booleans())}
    return {}


def _armed(state, draw):
    """Every bot gets a random weapon module with charges to spare."""
    bots = tuple(replace(bot, module=draw(st.sampled_from(WEAPONS)), charges=10) for bot in state.bots)
    return replace(state, bots=bots)


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(sorted(COURSES)), st.integers(2, 6), st.integers(1, 4), st.data())
def test_weapon_modules_keep_the_invariants_and_the_events_explain_the_state(slug, count, turns, data):
    course = COURSES[slug]
    count = max(course.players[0], min(count, course.players[1]))
    state = engine.new_game(course, [str(n) for n in range(1, count + 1)], modules=WEAPONS)
    state = _armed(state, data.draw)
    for turn in range(turns):
        if state.finished:
            break
        hands = engine.deal(state, turn + 1)
        programs, actions = {}, {}
        for bot in state.bots:
            if bot.at is None:
                continue
            programs[bot.id] = list(engine.random_program(bot, hands[bot.id], data.draw(st.integers(0, 1 << 30))))
            if not bot.rebooting and bot.charges and data.draw(st.booleans()):
                actions[bot.id] = {"activate": _activation(data.draw, bot.module)}
        after, events = engine.resolve_turn(state, programs, turn + 1, actions=actions, hands=hands)
        board = {}
        replayed = _replay(state, events, board)
        for bot in after.bots:
            assert replayed[bot.id] == {
                "at": bot.at, "dir": bot.dir, "virtual": bot.virtual, "damage": bot.damage, "lives": bot.lives,
                "bad_luck": bot.bad_luck,
            }, f"bot {bot.id}: the events don't add up to the new state"  # fmt: skip
        assert board == _board(after.board)
        for event in events:
            assert event.get("module") in (None, *WEAPONS), event
            if event["step"] == "bot_lasers":
                assert "module" not in event or event["type"] in MODULE_CAUSED, event
            assert event.get("source") != "bot" or event["bot"] is not None
        state = after


def _duel(module, activate, programs=None, **fields):
    """Bot a at [1, 3] facing east with `module` activated, bot b three squares ahead facing north."""
    course = engine.parse_course({
        "format": "roboracer-course/1", "name": "Duel", "width": 8, "height": 8, "players": [1, 2],
        "elements": [{"type": "start", "at": [0, 7], "number": 1, "dir": "N"},
                     {"type": "start", "at": [1, 7], "number": 2, "dir": "N"},
                     {"type": "checkpoint", "at": [7, 0], "number": 1}],
    })  # fmt: skip
    state = engine.new_game(course, ["a", "b"], modules=(module,))
    a, b = state.bots
    bots = (replace(a, at=(1, 3), dir="E", module=module, charges=1, **fields), replace(b, at=(4, 3), dir="N"))
    state = replace(state, bots=bots)
    programs = programs or {"a": ["L", "R", "L", "R", "U"], "b": ["L", "R", "L", "R", "U"]}
    return engine.resolve_turn(state, programs, 1, actions={"a": {"activate": activate}})


def test_the_module_tag_ends_with_the_effect_that_caused_it():
    _, events = _duel("blaster", {})
    shots = [e for e in events if e["type"] == "shot"]
    assert {e["bot"] for e in shots if e.get("module") == "blaster"} == {"a"}
    assert all("module" not in e for e in shots if e["bot"] == "b")
    assert all("module" not in e for e in events if e["type"] == "rotated")


def test_a_blaster_fires_each_phase_it_has_a_target_and_recoils_each_time():
    after, events = _duel("blaster", {}, programs={"a": ["0"] * 5, "b": ["0"] * 5})
    assert [e["phase"] for e in events if e["type"] == "pushed_back"] == [1, 2]
    assert after.bot("b").damage == 4  # 2 and 2: the second recoil pushes a off the course's west edge
    destroyed = [e for e in events if e["type"] == "destroyed"]
    assert [(e["bot"], e["phase"], e["cause"], e["module"]) for e in destroyed] == [("a", 2, "edge", "blaster")]
    assert after.bot("a").lives == 2


def test_a_turret_aimed_back_without_front_never_fires_forward():
    _, events = _duel("turret", {"aim": "B", "front": False}, programs={"a": ["0"] * 5, "b": ["0"] * 5})
    assert [e["dir"] for e in events if e["type"] == "shot" and e["bot"] == "a"] == ["W"] * 5
    assert not [e for e in events if e["type"] == "damaged"]


def test_a_strike_describes_the_shot_for_the_hit_hook():
    strike = Strike("bot", None, "E", "S", damage=2)
    assert (strike.push, strike.cause, strike.by) == (False, "bot laser", None)
