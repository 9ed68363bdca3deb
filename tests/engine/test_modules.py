"""Bot modules framework (issue 14): economy, refusals, state round-trip, scan, battery, course modes."""

import json
from dataclasses import replace

import pytest

import engine
from engine.course import parse_course
from engine.modules import MODULE_NAMES, MODULES
from engine.modules.actions import unused_chips
from engine.modules.economy import BASE_PRICES, PRICE_FLOOR, after_purchase, charge_cost, initial_prices
from engine.state import Bot

TSR = {"turbo": 250, "shield": 200, "repair": 150}
PROGRAM = ["L", "R", "L", "R", "U"]


def _game(modules=("turbo", "shield", "repair", "storage", "scanner", "repeller", "turret", "prioritizer"),
          prices=None, **a_fields):
    state = engine.new_game(engine.bundled_course("tiny-yard"), ["a", "b"], modules=modules, prices=prices)
    bots = [b if b.id != "a" else Bot(**{**b.__dict__, **a_fields}) for b in state.bots]
    return state.with_bots(bots)


# --- registry and activation shapes ------------------------------------------------------------------


def test_every_module_is_registered_once_with_its_activation_shape():
    assert list(MODULES) == list(MODULE_NAMES) and len(MODULE_NAMES) == 17
    shapes = {name: MODULES[name].activation for name in MODULE_NAMES}
    assert {n for n, a in shapes.items() if a == "phase"} == {"clamp", "crab_legs", "reverse", "turbo", "virtualizer"}
    assert {n for n, a in shapes.items() if a == "two_phases"} == {"repeller", "reflector"}
    assert (shapes["turret"], shapes["prioritizer"], shapes["scanner"]) == ("turret", "prioritizer", "scanner")
    assert {n for n in MODULE_NAMES if MODULES[n].needs_spare} == {"turbo", "crab_legs"}
    assert all(MODULES[n].__doc__ is None or True for n in MODULE_NAMES)
    assert set(BASE_PRICES) == set(MODULE_NAMES)


# --- economy -----------------------------------------------------------------------------------------


def test_economy_example_of_003():
    cost, prices = charge_cost(TSR, "turbo", 2)
    assert cost == 250 + 254 == 504
    assert prices == {"turbo": 258, "shield": 196, "repair": 146}


def test_one_charge_moves_every_price():
    assert after_purchase(TSR, "repair") == {"turbo": 248, "shield": 198, "repair": 154}


def test_prices_stop_at_the_floor():
    prices = {"turbo": 300, "shield": PRICE_FLOOR + 1, "repair": PRICE_FLOOR}
    after = after_purchase(prices, "turbo")
    assert after == {"turbo": 304, "shield": PRICE_FLOOR, "repair": PRICE_FLOOR}
    _, many = charge_cost(prices, "turbo", 5)
    assert min(many.values()) == PRICE_FLOOR


def test_several_charges_are_priced_one_after_another():
    prices = {"turbo": 100, "shield": 100, "repair": 100, "scanner": 100}
    cost, after = charge_cost(prices, "scanner", 5)
    assert cost == 100 + 106 + 112 + 118 + 124
    assert after == {"turbo": 90, "shield": 90, "repair": 90, "scanner": 130}


def test_a_single_module_game_keeps_its_price():
    assert charge_cost({"shield": 200}, "shield", 3) == (600, {"shield": 200})


def test_initial_prices_are_only_for_available_modules():
    assert initial_prices(["shield", "turbo"]) == {"shield": BASE_PRICES["shield"], "turbo": BASE_PRICES["turbo"]}
    assert initial_prices(["turbo"], {"turbo": 99}) == {"turbo": 99}
    with pytest.raises(engine.InputError, match="not an available module"):
        initial_prices(["turbo"], {"shield": 100})
    with pytest.raises(engine.InputError, match="unknown module 'laser'"):
        initial_prices(["laser"])
    with pytest.raises(engine.InputError, match="from 10"):
        initial_prices(["turbo"], {"turbo": 5})


def test_economy_example_through_resolve_turn():
    state = _game(modules=("turbo", "shield", "repair"), prices=TSR, battery=600, module="turbo")
    new, events = engine.resolve_turn(state, {"a": PROGRAM, "b": PROGRAM}, 1, actions={"a": {"charge": 2}})
    charged = [e for e in events if e["type"] == "module_charged"]
    assert charged == [{"phase": 1, "step": "actions", "type": "module_charged", "bot": "a", "module": "turbo",
                        "charges": 2, "price_paid": 504, "prices": {"turbo": 258, "shield": 196, "repair": 146}}]
    assert new.prices == {"turbo": 258, "shield": 196, "repair": 146}
    assert new.bot("a").battery == 600 - 504 + 50 and new.bot("a").charges == 2
    assert state.prices == TSR and state.bot("a").battery == 600  # the input is untouched


def test_purchases_in_priority_order_pay_the_moved_price():
    state = _game(modules=("turbo", "shield"), prices={"turbo": 250, "shield": 200}, module="turbo", battery=250)
    b = state.bot("b")
    state = state.with_bots([state.bot("a"), Bot(**{**b.__dict__, "module": "turbo"})])
    state = engine.state_from_dict({**engine.state_to_dict(state), "priority": ["b", "a"]}, state.course)
    new, events = engine.resolve_turn(
        state, {"a": PROGRAM, "b": PROGRAM}, 1, actions={"a": {"charge": 1}, "b": {"charge": 1}}
    )
    # b (first in priority) pays 250 and the price rises to 252: a's 250 no longer covers it
    assert [e["type"] for e in events if e["bot"] in ("a", "b") and e["step"] == "actions"] == [
        "module_charged", "module_charge_refused",
    ]
    assert new.bot("a").charges == 0 and new.bot("a").battery == 250 + 50
    assert new.prices == {"turbo": 252, "shield": 198}


# --- refusals (check_program with an action) ---------------------------------------------------------

HAND = ["L", "R", "L", "R", "U", "2", "1"]


@pytest.mark.parametrize(
    ("fields", "action", "program", "hand", "message"),
    [
        ({"module": "turbo", "battery": 400}, {"charge": 2}, PROGRAM, HAND, "not enough battery: 2 charge(s) of turbo cost 514"),
        ({"module": "shield", "charges": 0}, {"activate": {}}, PROGRAM, HAND, "the shield has no charge left"),
        ({"module": "scanner", "charges": 1, "scan_due": True}, {"activate": {}}, PROGRAM, HAND, "no charge left"),
        ({}, {"install": "drone"}, PROGRAM, HAND, "module 'drone' is not available in this game"),
        ({"module": "drone", "charges": 2}, {"activate": {}}, PROGRAM, HAND, "installed module 'drone' is not available"),
        ({}, {"activate": {}}, PROGRAM, HAND, "no module is installed"),
        ({}, {"charge": 1}, PROGRAM, HAND, "no module is installed"),
        ({"module": "turbo", "charges": 1}, {"activate": {"phases": [1]}}, PROGRAM, HAND[:5] + ["L", "R"], "needs a spare move chip"),
        ({"module": "turbo", "charges": 1}, {"activate": {"phases": [1]}}, ["2", "R", "L", "R", "U"], HAND[:6], "needs a spare move chip"),
        ({"module": "turbo", "charges": 1}, {"activate": {"phases": [6]}}, PROGRAM, HAND, "a phase is a whole number from 1 to 5"),
        ({"module": "turbo", "charges": 1}, {"activate": {}}, PROGRAM, HAND, "missing ['phases']"),
        ({"module": "repeller", "charges": 1}, {"activate": {"phases": [5, 6]}}, PROGRAM, HAND, "a phase is a whole"),
        ({"module": "repeller", "charges": 1}, {"activate": {"phases": [3, 2]}}, PROGRAM, HAND, "two consecutive phases"),
        ({"module": "turret", "charges": 1}, {"activate": {"aim": "L"}}, PROGRAM, HAND, "missing ['front']"),
        ({"module": "turret", "charges": 1}, {"activate": {"aim": "L", "front": "yes"}}, PROGRAM, HAND, "'front' must be true or false"),
        ({"module": "prioritizer", "charges": 1}, {"activate": {"order": 1}}, PROGRAM, HAND, "'order' must be 'first' or 'last'"),
        ({"module": "shield", "charges": 1}, {"activate": {"aim": "L"}}, PROGRAM, HAND, "unknown key(s) ['aim']"),
        ({"module": "shield", "charges": 1}, {"fire": True}, PROGRAM, HAND, "an action is exactly one of"),
        ({"module": "shield", "charges": 1}, {}, PROGRAM, HAND, "an action is exactly one of"),
        ({"module": "shield", "charges": 1}, {"charge": 0}, PROGRAM, HAND, "from 1 to 5"),
        ({"module": "shield", "charges": 1}, {"charge": True}, PROGRAM, HAND, "from 1 to 5"),
        ({"module": "shield", "charges": 97, "battery": 5000}, {"charge": 3}, PROGRAM, HAND, "at most 99 charges"),
        ({"module": "storage", "charges": 1}, {"activate": {}}, PROGRAM, PROGRAM, "no unused chip to store"),
        ({"at": None, "lives": 0, "out": (1, 2)}, {"install": "shield"}, PROGRAM, HAND, "a destroyed bot takes no actions"),
    ],
)
def test_each_refusal_names_its_problem(fields, action, program, hand, message):
    state = _game(**fields)
    bot = state.bot("a")
    error = engine.check_program(bot, hand, program, action, state=state)
    assert error is not None and message in error.message, error
    with pytest.raises(engine.InputError, match="actions.a: "):
        engine.resolve_turn(state, {"a": program, "b": PROGRAM}, 1, actions={"a": action}, hands={"a": hand})


def test_no_modules_in_the_game_refuses_every_action():
    state = _game(modules=())
    error = engine.check_program(state.bot("a"), HAND, PROGRAM, {"install": "turbo"}, state=state)
    assert error.message == "no modules are available in this game"


def test_a_rebooting_bot_and_a_drone_take_no_actions():
    state = _game(rebooting=True)
    error = engine.check_program(state.bot("a"), [], ["0"] * 5, {"install": "turbo"}, state=state)
    assert error.message == "a rebooting bot takes no actions this turn"
    drone = Bot(**{**state.bot("b").__dict__, "drone_of": "a", "id": "c"})
    assert "drone" in engine.check_program(drone, HAND, PROGRAM).message


def test_an_action_needs_the_state():
    state = _game(module="shield", charges=1)
    assert "needs the game state" in engine.check_program(state.bot("a"), HAND, PROGRAM, {"activate": {}}).message


def test_legal_actions_pass():
    state = _game(module="turbo", charges=1)
    bot = state.bot("a")
    assert engine.check_program(bot, HAND, PROGRAM, {"activate": {"phases": [2]}}, state=state) is None
    assert engine.check_program(bot, HAND, PROGRAM, {"charge": 1}, state=state) is None
    assert engine.check_program(bot, HAND, PROGRAM, {"install": "turret"}, state=state) is None


def test_turbo_without_a_hand_is_refused_by_resolve_turn():
    state = _game(module="turbo", charges=1)
    with pytest.raises(engine.InputError, match="needs the bot's hand"):
        engine.resolve_turn(state, {"a": PROGRAM, "b": PROGRAM}, 1, actions={"a": {"activate": {"phases": [1]}}})


def test_spare_chips_count_multiplicity():
    bot = _game().bot("a")
    assert unused_chips(bot, ["1", "1", "L"], ["1", "L", "R", "U", "B"]) == ["1"]
    assert unused_chips(bot, ["1", "L"], ["1", "L", "R", "U", "B"]) == []


# --- the stored chip ---------------------------------------------------------------------------------


def test_three_argument_check_program_is_unchanged_without_stored_chips():
    bot = _game().bot("a")
    assert engine.check_program(bot, HAND, PROGRAM) is None
    assert engine.check_program(bot, HAND, ["L", "L", "L", "R", "U"]).message == (
        "the hand holds 2 'L' chip(s), the program uses 3"
    )
    assert "has none stored" in engine.check_program(bot, HAND, ["S", "R", "L", "R", "U"]).message


def test_stored_chip_plays_in_place_of_a_hand_chip():
    state = _game(stored_chip="3")
    bot = state.bot("a")
    assert engine.check_program(bot, ["L", "R", "L", "R"], ["L", "R", "S", "L", "R"]) is None
    assert "at most once" in engine.check_program(bot, HAND, ["S", "S", "L", "R", "U"]).message
    frozen = _game(stored_chip="3", damage=5, last_program=("1", "1", "1", "1", "2")).bot("a")
    assert "frozen" in engine.check_program(frozen, HAND, ["L", "R", "L", "R", "S"]).message
    new, events = engine.resolve_turn(state, {"a": ["L", "R", "S", "L", "R"], "b": PROGRAM}, 1)
    assert new.bot("a").stored_chip is None
    assert new.bot("a").last_program == ("L", "R", "3", "L", "R")
    assert {"type": "chip", "bot": "a", "phase": 3, "chip": "3"}.items() <= next(
        e for e in events if e["type"] == "chip" and e["bot"] == "a" and e["phase"] == 3
    ).items()


def test_chip_stored_event_does_not_reveal_the_chip():
    state = _game(module="storage", charges=2)
    hand = ["L", "R", "L", "R", "U", "B", "3"]
    new, events = engine.resolve_turn(
        state, {"a": PROGRAM, "b": PROGRAM}, 1, actions={"a": {"activate": {}}}, hands={"a": hand}
    )
    assert new.bot("a").stored_chip == "B" and new.bot("a").charges == 1
    stored = [e for e in events if e["type"] == "chip_stored"]
    assert stored == [{"phase": 1, "step": "actions", "type": "chip_stored", "bot": "a", "replaced": False}]
    assert "\"B\"" not in json.dumps([e for e in events if e["step"] == "actions"])


# --- state round trip and formats -------------------------------------------------------------------


def test_state_round_trips_with_module_fields():
    state = _game(module="turret", charges=4, battery=1234, stored_chip="B", scan_due=True)
    b = state.bot("b")
    drone = Bot(**{**b.__dict__, "id": "a.drone", "drone_of": "a", "battery": 0, "lives": 1})
    state = replace(state, bots=(state.bot("a"), drone), priority=("a", "a.drone"))
    data = engine.state_to_dict(state)
    assert data["bots"][0]["module"] == {"type": "turret", "charges": 4}
    assert data["bots"][0]["battery"] == 1234 and data["bots"][0]["stored_chip"] == "B"
    assert data["bots"][0]["scan_due"] is True and "drone_of" not in data["bots"][0]
    assert data["bots"][1]["drone_of"] == "a"
    assert list(data["prices"]) == sorted(data["prices"])
    again = engine.state_from_dict(json.loads(json.dumps(data)), state.course)
    assert again == state


def test_state_without_modules_has_no_prices_and_old_states_load():
    state = engine.new_game(engine.bundled_course("tiny-yard"), ["a", "b"])
    data = engine.state_to_dict(state)
    assert "prices" not in data and data["bots"][0]["battery"] == 500
    old = {**data, "bots": [{k: v for k, v in b.items() if k not in ("battery", "module", "stored_chip", "scan_due")}
                            for b in data["bots"]]}
    assert engine.state_from_dict(old, state.course) == state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"battery": -1}, "'battery' must be a whole number from 0 to 1000000"),
        ({"battery": 1_000_001}, "'battery'"),
        ({"module": {"type": "laser", "charges": 1}}, "'module.type' must be one of"),
        ({"module": {"type": "turbo", "charges": 100}}, "'module.charges' must be a whole number from 0 to 99"),
        ({"module": {"type": "turbo", "charges": -1}}, "'module.charges'"),
        ({"module": "turbo"}, "'module' must be null or"),
        ({"stored_chip": "0"}, "'stored_chip' must be null or one of"),
        ({"stored_chip": "S"}, "'stored_chip'"),
        ({"scan_due": 1}, "'scan_due' must be true or false"),
        ({"drone_of": "a"}, "'drone_of' must be the id of another bot"),
        ({"drone_of": "zz", "battery": 0}, "'drone_of' 'zz' is not a bot of this game"),
        ({"drone_of": "b", "battery": 0}, "a drone's id is its owner's id + '.drone' ('b.drone')"),
        ({"drone_of": "b"}, "a drone has no battery, module, stored chip or scan"),
        ({"drone_of": "b", "battery": 0, "module": {"type": "turbo", "charges": 1}}, "a drone has no battery, module"),
    ],
)
def test_bad_module_fields_are_clear_input_errors(change, message):
    state = _game()
    data = engine.state_to_dict(state)
    data["bots"][0].update(change)
    with pytest.raises(engine.InputError) as raised:
        engine.state_from_dict(data, state.course)
    assert message in str(raised.value)


def test_bad_prices_in_a_state_are_refused():
    state = _game()
    for prices, message in (({"laser": 100}, "unknown module"), ({"turbo": 0}, "from 10")):
        with pytest.raises(engine.InputError, match=message):
            engine.state_from_dict({**engine.state_to_dict(state), "prices": prices}, state.course)


# --- scan --------------------------------------------------------------------------------------------


def test_scan_shows_the_others_chips_sorted():
    state = _game(module="scanner", charges=1)
    b = state.bot("b")
    state = state.with_bots([state.bot("a"), Bot(**{**b.__dict__, "stored_chip": "2"})])
    shown = engine.scan(state, {"a": PROGRAM, "b": ["U", "S", "R", "1", "L"]}, "a")
    assert shown == {"b": ["1", "2", "L", "R", "U"]}
    assert engine.scan(state, {"a": PROGRAM}, "a") == {}


def test_scan_needs_a_charged_scanner():
    with pytest.raises(engine.InputError, match="no Scanner installed with a charge"):
        engine.scan(_game(module="scanner", charges=0), {"b": PROGRAM}, "a")
    with pytest.raises(engine.InputError, match="no Scanner installed with a charge"):
        engine.scan(_game(module="shield", charges=3), {"b": PROGRAM}, "a")
    with pytest.raises(engine.InputError, match="no Scanner installed with a charge"):
        engine.scan(_game(module="scanner", charges=1, scan_due=True), {"b": PROGRAM}, "a")
    with pytest.raises(engine.InputError, match="not a bot of this game"):
        engine.scan(_game(module="scanner", charges=1), {"b": PROGRAM}, "x")


def test_scanner_charge_is_taken_at_the_start_of_the_next_turn():
    state = _game(module="scanner", charges=1)
    after, events = engine.resolve_turn(state, {"a": PROGRAM, "b": PROGRAM}, 1, actions={"a": {"activate": {}}})
    assert after.bot("a").charges == 1 and after.bot("a").scan_due
    assert not [e for e in events if e["type"] == "module_charge_used"]
    later, events = engine.resolve_turn(after, {"a": PROGRAM, "b": PROGRAM}, 2)
    assert later.bot("a").charges == 0 and not later.bot("a").scan_due
    assert [e for e in events if e["type"] == "module_charge_used"] == [
        {"phase": 1, "step": "actions", "type": "module_charge_used", "bot": "a", "module": "scanner",
         "charges": 0, "reason": "scanner"}
    ]


# --- battery and course modes ------------------------------------------------------------------------


def _course(mode, checkpoint=True):
    data = engine.bundled_course_data("tiny-yard")
    data = {**data, "mode": mode}
    if not checkpoint:
        data["elements"] = [e for e in data["elements"] if e["type"] != "checkpoint"]
    return parse_course(data)


def test_course_modes():
    assert _course("arena", checkpoint=False).mode == "arena"
    assert _course("puzzle").mode == "puzzle"
    with pytest.raises(engine.CourseError, match="an arena has no check points"):
        _course("arena")
    with pytest.raises(engine.CourseError, match="a race course needs at least one check point"):
        _course("race", checkpoint=False)
    with pytest.raises(engine.CourseError, match="'mode' must be 'race', 'arena' or 'puzzle'"):
        _course("team")


@pytest.mark.parametrize(("mode", "start", "gain"), [("race", 500, 50), ("arena", 500, 10), ("puzzle", 5000, 0)])
def test_battery_starts_and_recharges_by_mode(mode, start, gain):
    course = _course(mode, checkpoint=mode != "arena")
    state = engine.new_game(course, ["a", "b"])
    assert [bot.battery for bot in state.bots] == [start, start]
    after, _ = engine.resolve_turn(state, {"a": PROGRAM, "b": PROGRAM}, 1)
    assert [bot.battery for bot in after.bots] == [start + gain, start + gain]


def test_bots_out_of_the_game_gain_nothing():
    state = _game(at=None, lives=0, out=(1, 1))
    after, _ = engine.resolve_turn(state, {"b": PROGRAM}, 1)
    assert after.bot("a").battery == 500 and after.bot("b").battery == 550


def test_a_drone_needs_no_program_and_plays_its_owners_chips():
    state = _game(stored_chip="3")
    b = state.bot("b")
    drone = Bot(**{**b.__dict__, "drone_of": "a", "virtual": True})
    state = state.with_bots([state.bot("a"), drone])
    program = ["S", "R", "L", "R", "U"]
    new, events = engine.resolve_turn(state, {"a": program}, 1)
    played = [e["chip"] for e in events if e["type"] == "chip" and e["bot"] == "b"]
    assert played == ["3", "R", "L", "R", "U"]
    assert new.bot("b").drone_of == "a" and new.bot("b").battery == 500  # drones have no battery of their own
    with pytest.raises(engine.InputError, match="drone of 'a': it plays its owner's chips"):
        engine.resolve_turn(state, {"a": program, "b": PROGRAM}, 1)


# --- Scanner, Prioritizer (issue 14, part 2) ------------------------------------------------------------


def test_scan_hides_the_play_order_and_leaves_out_bots_that_did_not_submit():
    course = engine.bundled_course("tiny-yard")
    state = engine.new_game(course, ["a", "b", "c"], modules=("scanner",))
    state = state.with_bots([Bot(**{**state.bot("a").__dict__, "module": "scanner", "charges": 1}),
                             state.bot("b"), state.bot("c")])
    first = engine.scan(state, {"a": PROGRAM, "b": ["U", "3", "L", "B", "1"]}, "a")
    reordered = engine.scan(state, {"a": PROGRAM, "b": ["L", "1", "B", "U", "3"]}, "a")
    # The same chips in another order show the same: the order is hidden; c has not submitted: absent.
    assert first == reordered == {"b": ["1", "3", "B", "L", "U"]}
    assert "c" not in first and "a" not in first
    # Rescanning is free: scanning takes nothing from the state, so the owner can scan again.
    assert state.bot("a").charges == 1 and not state.bot("a").scan_due
    assert engine.scan(state, {"b": ["U", "3", "L", "B", "1"], "c": PROGRAM}, "a") == {
        "b": ["1", "3", "B", "L", "U"], "c": ["L", "L", "R", "R", "U"]}


def test_prioritized_order_holds_in_every_phase_and_the_next_priority_uses_the_original():
    state = _game(modules=("prioritizer",), module="prioritizer", charges=1)
    after, events = engine.resolve_turn(
        state, {"a": ["1"] * 5, "b": ["0"] * 5}, 1, actions={"a": {"activate": {"order": "last"}}}
    )
    for phase in range(1, 6):
        chips = [e["bot"] for e in events if e["type"] == "chip" and e["phase"] == phase]
        assert chips == ["b", "a"], (phase, chips)
    # a moved, b did not: a first by distance whatever the order was.
    assert after.priority == ("a", "b")
    plain, _ = engine.resolve_turn(state, {"a": ["0"] * 5, "b": ["0"] * 5}, 1,
                                   actions={"a": {"activate": {"order": "last"}}})
    # A tie: the reverse of the ORIGINAL order (a, b), not of the prioritized one (b, a).
    assert plain.priority == ("b", "a")
