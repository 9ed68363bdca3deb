from collections import Counter
from dataclasses import replace

import engine
from engine.chips import DECK_COUNTS, DECK_SIZE


def _state(n=4):
    return engine.new_game(engine.bundled_course("tiny-yard"), [str(i) for i in range(1, n + 1)])


def test_deck_is_the_84_chip_deck():
    assert DECK_SIZE == 84
    assert DECK_COUNTS == {"1": 18, "2": 12, "3": 6, "B": 6, "L": 18, "R": 18, "U": 6}


def test_hand_is_nine_minus_damage_and_dealt_from_one_deck():
    state = _state()
    bots = [replace(bot, damage=index * 2) for index, bot in enumerate(state.bots)]
    hands = engine.deal(state.with_bots(bots), seed=7)
    assert [len(hands[bot.id]) for bot in bots] == [9, 7, 5, 3]
    total = Counter(chip for hand in hands.values() for chip in hand)
    assert all(total[chip] <= count for chip, count in DECK_COUNTS.items())


def test_deal_reshuffles_a_fresh_deck_when_it_runs_out():
    course = engine.bundled_course("tiny-yard")
    bots = tuple(
        engine.Bot(id=str(i), at=(0, 0), dir="N", spawn_at=(0, 0), spawn_dir="N") for i in range(12)
    )
    state = engine.State(course=course, bots=bots, priority=tuple(b.id for b in bots))
    hands = engine.deal(state, seed=3)
    assert sum(len(h) for h in hands.values()) == 108  # more than one deck of 84
    total = Counter(chip for hand in hands.values() for chip in hand)
    assert total["U"] <= 12 and sum(total.values()) == 108


def test_deal_is_deterministic_per_seed():
    state = _state()
    assert engine.deal(state, 42) == engine.deal(state, 42)
    assert engine.deal(state, 42) != engine.deal(state, 43)


def test_check_program():
    bot = _state().bots[0]
    hand = ["1", "1", "L", "R", "U", "B", "2", "3", "L"]
    assert engine.check_program(bot, hand, ["1", "1", "L", "L", "3"]) is None
    assert "holds 2 '1' chip(s)" in str(engine.check_program(bot, hand, ["1", "1", "1", "L", "3"]))
    assert "exactly 5 chips" in str(engine.check_program(bot, hand, ["1", "1", "L", "L"]))
    assert "is not a chip" in str(engine.check_program(bot, hand, ["1", "1", "L", "L", "X"]))
    assert "is not a chip" in str(engine.check_program(bot, hand, ["1", "1", "L", "L", "0"]))


def test_damage_over_four_freezes_the_last_registers_with_last_turns_chips():
    bot = replace(_state().bots[0], damage=6, last_program=("1", "2", "3", "L", "R"))
    assert engine.frozen_registers(bot) == {3: "L", 4: "R"}
    hand = ["1", "2", "U"]
    assert engine.check_program(bot, hand, ["1", "2", "U", "L", "R"]) is None
    error = engine.check_program(bot, hand, ["1", "2", "L", "U", "R"])
    assert "register 4 is frozen with 'L'" in str(error)


def test_random_program_is_legal():
    bot = replace(_state().bots[0], damage=5, last_program=("1", "2", "3", "L", "R"))
    for seed in range(50):
        hand = engine.deal(_state(), seed)["1"][: engine.hand_size(bot)]
        program = engine.random_program(bot, hand, seed)
        assert engine.check_program(bot, hand, program) is None
        assert program[4] == "R"


def test_derive_seed_is_stable():
    assert engine.derive_seed(1, 1, "deal") == engine.derive_seed(1, 1, "deal")
    assert engine.derive_seed(1, 1, "deal") != engine.derive_seed(1, 2, "deal")
    assert 0 <= engine.derive_seed(2**62, 999, "resolve") < 2**63


def test_a_respawned_bot_is_dealt_a_safe_mix():
    """003 "Spawning": at least three turn chips with an L or R, at least three moves with a 2 or 3."""
    state = _state()
    spawned = [replace(bot, spawned=index % 2 == 0) for index, bot in enumerate(state.bots)]
    state = state.with_bots(spawned)
    unsafe_seen = 0
    for seed in range(300):
        hands = engine.deal(state, seed)
        for bot in spawned:
            hand = hands[bot.id]
            assert len(hand) == 9
            if bot.spawned:
                assert engine.is_safe_mix(hand), hand
            else:
                unsafe_seen += not engine.is_safe_mix(hand)
    assert unsafe_seen > 0  # the check can fail: ordinary hands are sometimes not safe


def test_is_safe_mix():
    assert engine.is_safe_mix(["L", "U", "U", "1", "B", "2"])
    assert not engine.is_safe_mix(["U", "U", "U", "1", "B", "2"])  # no L or R
    assert not engine.is_safe_mix(["L", "U", "U", "1", "B", "1"])  # no 2 or 3
    assert not engine.is_safe_mix(["L", "R", "1", "B", "2", "3"])  # two turns only


def test_a_rebooting_bot_gets_no_hand_and_must_play_five_idle_chips():
    state = _state()
    rebooting = replace(state.bots[0], rebooting=True)
    state = state.with_bots([rebooting, *state.bots[1:]])
    hands = engine.deal(state, 5)
    assert hands["1"] == () and len(hands["2"]) == 9
    assert engine.required_program(rebooting) == ("0",) * 5
    assert engine.required_program(state.bots[1]) is None
    assert engine.check_program(rebooting, (), ["0"] * 5) is None
    assert "rebooting bot plays five '0'" in str(engine.check_program(rebooting, (), ["1", "0", "0", "0", "0"]))
    assert engine.random_program(rebooting, (), 3) == ("0",) * 5


def test_a_frozen_idle_chip_stays_after_a_reboot_turn():
    """A bot shot while it sat a reboot out has "0" chips in last turn's program; frozen, they stay."""
    bot = replace(_state().bots[0], damage=6, last_program=("0",) * 5)
    assert engine.check_program(bot, ["1", "2", "L"], ["1", "2", "L", "0", "0"]) is None
    assert "is not a chip" in str(engine.check_program(bot, ["1", "2", "L"], ["0", "2", "L", "0", "0"]))


def test_first_hands_of_a_new_game_are_safe_mixes():
    state = _state(4)
    assert all(bot.spawned and not bot.virtual for bot in state.bots)
    for seed in range(100):
        assert all(engine.is_safe_mix(hand) for hand in engine.deal(state, seed).values())


def test_bad_luck_keeps_the_lower_of_two_draws():
    """003 "Mirror": Bad Luck draws two chips per chip and keeps the lower movement, so over many deals a
    bot with Bad Luck holds far fewer move-3s and more turns than the same bot without it."""
    course = engine.bundled_course("tiny-yard")
    plain = engine.new_game(course, ["a", "b"])
    plain = plain.with_bots(replace(bot, spawned=False) for bot in plain.bots)
    unlucky = plain.with_bots(replace(bot, bad_luck=bot.id == "a") for bot in plain.bots)
    counts = {"plain": Counter(), "unlucky": Counter()}
    for seed in range(300):
        counts["plain"].update(engine.deal(plain, seed)["a"])
        hand = engine.deal(unlucky, seed)["a"]
        assert len(hand) == 9
        counts["unlucky"].update(hand)
    turns = lambda c: c["L"] + c["R"] + c["U"]  # noqa: E731
    assert counts["unlucky"]["3"] < counts["plain"]["3"] / 2
    assert turns(counts["unlucky"]) > turns(counts["plain"])


def test_bad_luck_lasts_one_turn_and_survives_storage():
    course = engine.parse_course({
        "format": "roboracer-course/1", "name": "Mirror", "width": 4, "height": 4, "players": [1, 1],
        "elements": [{"type": "start", "at": [0, 3], "number": 1, "dir": "N"},
                     {"type": "checkpoint", "at": [3, 0], "number": 1},
                     {"type": "mirror", "at": [0, 2], "shape": "/"}],
    })  # fmt: skip
    state = engine.new_game(course, ["a"])
    state, events = engine.resolve_turn(state, {"a": ["1", "L", "L", "L", "L"]}, seed=1)
    assert state.bot("a").bad_luck and any(e["type"] == "mirror_broken" for e in events)
    assert engine.state_from_dict(engine.state_to_dict(state), course) == state
    state, _ = engine.resolve_turn(state, {"a": ["L", "L", "L", "L", "L"]}, seed=2)
    assert not state.bot("a").bad_luck
