"""The actor modules (003 "Drone", "Bomb", "Virtualizer"): what scenarios don't show one by one, and random
turns with the three modules activated (hypothesis) keeping the invariants of the state and the result."""

import json
from dataclasses import replace

import pytest
from hypothesis import event as tally
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.state import Bot
from tests.engine.strategies import course_and_bots
from tests.engine.test_properties import _replay
from tests.profiles import examples

ACTORS = ("drone", "bomb", "virtualizer")
IDLE = ["0"] * 5


def _with_drone(state, owner="a", **fields):
    """The state with a drone of `owner` on `owner`'s square (virtual), last in priority."""
    base = state.bot(owner)
    drone = Bot(**{**base.__dict__, "id": owner + ".drone", "drone_of": owner, "virtual": True, "dir": "S", **fields})
    return replace(state, bots=(*state.bots, drone), priority=(*state.priority, drone.id))


def _game(ids=("a", "b"), modules=ACTORS, **a_fields):
    state = engine.new_game(engine.bundled_course("tiny-yard"), list(ids), modules=modules)
    bots = [b if b.id != "a" else Bot(**{**b.__dict__, **a_fields}) for b in state.bots]
    return state.with_bots(bots)


def test_deploying_adds_a_drone_bot_to_the_state_last_in_this_turns_priority():
    state = _game(module="drone", charges=1)
    new, events = engine.resolve_turn(state, {"a": IDLE, "b": IDLE}, 1, actions={"a": {"activate": {}}})
    drone = new.bot("a.drone")
    assert drone.drone_of == "a" and drone.at == state.bot("a").at and drone.dir == "S" and drone.virtual
    assert drone.battery == 0 and drone.module is None and drone.last_program == tuple(IDLE)
    chips = [e["bot"] for e in events if e["type"] == "chip" and e["phase"] == 1]
    assert chips == ["a", "b", "a.drone"]  # the latest priority at the time of creation
    assert sorted(new.priority) == ["a", "a.drone", "b"]
    assert engine.state_from_dict(engine.state_to_dict(new), new.course) == new


def test_a_drone_gets_no_hand_and_is_not_ranked():
    state = _with_drone(_game())
    assert set(engine.deal(state, 5)) == {"a", "b"}
    finished = engine.eject(state, ["b"])[0]
    assert finished.winner == "a" and finished.places == {"a": 1, "b": 2}


def test_a_drone_alone_does_not_keep_the_race_going():
    state = _with_drone(_game())
    gone = [b if b.id not in ("a", "b") else Bot(**{**b.__dict__, "at": None, "lives": 0, "out": (1, 1)})
            for b in state.bots]  # fmt: skip
    assert state.with_bots(gone).finished


def test_ejecting_the_owner_removes_its_drone_and_a_drone_is_not_ejected_alone():
    state = _with_drone(_game(ids=("a", "b", "c")))
    new, events = engine.eject(state, ["a"])
    assert [bot.id for bot in new.bots] == ["a", "b", "c"] and "a.drone" not in new.priority
    assert events[0] == {"phase": None, "step": "ejection", "type": "ejected", "bot": "a", "drone": "a.drone"}
    assert new.winner is None
    with pytest.raises(engine.InputError, match="is a drone: eject its owner"):
        engine.eject(state, ["a.drone"])


def test_an_owner_out_of_lives_leaves_its_drone_playing_idle_chips():
    state = _with_drone(_game(ids=("a", "b", "c")))
    owner = Bot(**{**state.bot("a").__dict__, "at": None, "lives": 0, "out": (1, 1)})
    state = state.with_bots([owner, *state.bots[1:]])
    new, events = engine.resolve_turn(state, {"b": IDLE, "c": IDLE}, 1)
    assert [e["chip"] for e in events if e["type"] == "chip" and e["bot"] == "a.drone"] == ["0"] * 5
    assert new.bot("a.drone").at is not None and new.winner is None  # b and c still race


def test_bombs_never_reach_the_result():
    state = _game(module="bomb", charges=1)
    new, events = engine.resolve_turn(state, {"a": ["1", "1", "0", "0", "0"], "b": IDLE}, 1,
                                      actions={"a": {"activate": {}}})  # fmt: skip
    assert [bot.id for bot in new.bots] == ["a", "b"] and sorted(new.priority) == ["a", "b"]
    assert [e["type"] for e in events if e["bot"] == "a.bomb"] == ["bomb_dropped", "bomb_exploded"]


def test_no_bomb_explodes_once_the_race_is_won():
    state = _game(module="bomb", charges=1, next_checkpoint=2, at=(1, 4), dir="N")
    new, events = engine.resolve_turn(state, {"a": ["2", "0", "0", "0", "0"], "b": IDLE}, 1,
                                      actions={"a": {"activate": {}}})  # fmt: skip
    assert new.winner == "a"
    assert "bomb_exploded" not in [e["type"] for e in events]


def test_the_virtualizer_turns_real_only_from_its_phase_on():
    state = _game(module="virtualizer", charges=1)
    _, events = engine.resolve_turn(state, {"a": IDLE, "b": IDLE}, 1, actions={"a": {"activate": {"phases": [4]}}})
    mine = [(e["phase"], e["step"], e["type"]) for e in events if e["bot"] == "a" and e["type"] in ("virtual", "real")]
    assert mine == [(4, "modules", "virtual"), (4, "virtualizer_modules", "real")]


# --- random turns ---------------------------------------------------------------------------------------


@st.composite
def games(draw):
    course, ids = draw(course_and_bots(most=4))
    state = engine.new_game(course, ids, modules=ACTORS, lives=draw(st.integers(1, 2)))
    bots = [Bot(**{**bot.__dict__, "module": draw(st.sampled_from(ACTORS)), "charges": 99}) for bot in state.bots]
    return state.with_bots(bots), draw(st.integers(2, 6)), draw(st.randoms(use_true_random=False))


def _activation(draw, module):
    if module == "virtualizer":
        return {"activate": {"phases": [draw(st.integers(1, 5))]}}
    return {"activate": {}}


@settings(max_examples=examples(80), deadline=None)
@given(games(), st.data())
def test_random_actor_turns_keep_the_invariants_and_replay_exactly(case, data):
    state, turns, rng = case
    deployed = exploded = 0
    for _ in range(turns):
        if state.finished:
            break
        seed = state.turn * 7919
        hands = engine.deal(state, seed)
        assert not any(bot.drone_of for bot in state.bots if bot.id in hands)
        programs, actions = {}, {}
        for bot in state.bots:
            if bot.at is None or bot.drone_of is not None:
                continue
            programs[bot.id] = list(engine.random_program(bot, hands[bot.id], rng.randrange(1 << 30)))
            if not bot.rebooting and data.draw(st.booleans()):
                actions[bot.id] = _activation(data.draw, bot.module)
        inputs = json.dumps({"state": engine.state_to_dict(state), "programs": programs, "actions": actions})
        after, events = engine.resolve_turn(state, programs, seed, actions=actions, hands=hands)
        assert json.dumps({"state": engine.state_to_dict(state), "programs": programs, "actions": actions}) == inputs
        ids = [bot.id for bot in after.bots]
        assert sorted(after.priority) == sorted(ids) and len(set(ids)) == len(ids)
        for bot in after.bots:
            if bot.drone_of is not None:
                assert bot.id == bot.drone_of + ".drone" and bot.at is not None  # destroyed drones are gone
                assert after.bot(bot.drone_of).next_checkpoint == bot.next_checkpoint
            assert not bot.id.endswith(".bomb")
        real = [bot.at for bot in after.bots if bot.at is not None and not bot.virtual]
        assert len(real) == len(set(real))
        if after.places is not None:
            assert set(after.places) == {bot.id for bot in after.bots if bot.drone_of is None}
        if after.winner is not None:
            assert after.bot(after.winner).drone_of is None
        replayed_bots = _replay(state, events)
        for bot in after.bots:
            mine = replayed_bots[bot.id]
            assert (mine["at"], mine["dir"], mine["virtual"], mine["damage"]) == (bot.at, bot.dir, bot.virtual, bot.damage)
        deployed += sum(1 for e in events if e["type"] == "drone_deployed")
        exploded += sum(1 for e in events if e["type"] == "bomb_exploded")
        stored = json.loads(inputs)
        replayed, replay_events = engine.resolve_turn(
            engine.state_from_dict(stored["state"], state.course), stored["programs"], seed,
            actions=stored["actions"], hands=hands,
        )  # fmt: skip
        assert engine.state_to_dict(replayed) == engine.state_to_dict(after) and replay_events == events
        assert engine.state_from_dict(engine.state_to_dict(after), after.course) == after
        state = after
    tally(f"drones deployed: {min(deployed, 2)}+, bombs exploded: {min(exploded, 2)}+")


def test_a_new_drone_replaces_an_earlier_drone_of_another_name_and_a_taken_id_is_an_error():
    state = _game(ids=("a", "b", "c"), module="drone", charges=2)
    c = state.bot("c")
    state = state.with_bots([*state.bots[:2], Bot(**{**c.__dict__, "drone_of": "a", "virtual": True})])
    new, events = engine.resolve_turn(state, {"a": IDLE, "b": IDLE}, 1, actions={"a": {"activate": {}}})
    assert [bot.id for bot in new.bots] == ["a", "b", "a.drone"] and "c" not in new.priority
    deployed = [e for e in events if e["type"] == "drone_deployed"]
    assert deployed == [{"phase": 1, "step": "modules", "type": "drone_deployed", "bot": "a.drone", "owner": "a",
                         "at": list(state.bot("a").at), "dir": "S", "replaced": True, "replaces": "c"}]  # fmt: skip
    taken = _game(ids=("a", "a.drone"), module="drone", charges=1)
    with pytest.raises(engine.InputError, match="the id 'a.drone' is another bot's"):
        engine.resolve_turn(taken, {"a": IDLE, "a.drone": IDLE}, 1, actions={"a": {"activate": {}}})
