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
