"""Rulesets (issue 19): the registry, courses declaring the rulesets they suit, the state keeping its ruleset,
and properties that hold in every available ruleset, played with its own deal and random programs."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import rulesets
from engine.cards import ROBORACE_NUMBERS, roborace_deck, split
from tests.profiles import examples

AVAILABLE = rulesets.available()
BY_RULESET = {
    name: [slug for slug in engine.bundled_slugs() if name in (c := engine.bundled_course(slug)).rulesets
           and c.mode == "race"]
    for name in AVAILABLE
}  # fmt: skip


def test_registry_names_and_refusals():
    assert AVAILABLE[0] == "roboracer" and "roborace" in AVAILABLE
    assert set(AVAILABLE) <= set(rulesets.NAMES)
    with pytest.raises(engine.InputError, match="unknown ruleset 'chess'"):
        rulesets.get("chess")
    for name in set(rulesets.NAMES) - set(AVAILABLE):
        with pytest.raises(engine.InputError, match="not available yet"):
            rulesets.get(name)


def test_every_available_ruleset_has_two_bundled_races():
    for name in AVAILABLE:
        assert len(BY_RULESET[name]) >= 2, name


def test_course_rulesets_default_and_checked():
    tiny = engine.bundled_course_data("tiny-yard")
    assert engine.parse_course(tiny).rulesets == ("roboracer",)
    with pytest.raises(engine.CourseError, match="'rulesets' must be"):
        engine.parse_course({**tiny, "rulesets": ["roborace", "roborace"]})
    # tiny-yard has two check points: it does not suit 004
    with pytest.raises(engine.CourseError, match="a roborace course has one goal"):
        engine.parse_course({**tiny, "rulesets": ["roborace"]})


def test_roborace_deck_is_004s_table():
    deck = roborace_deck()
    assert len(deck) == len(set(deck)) == 84
    numbers = sorted(split(card)[1] for card in deck)
    assert numbers == list(range(1, 85))
    counts = {chip: len(r) for chip, r in ROBORACE_NUMBERS.items()}
    assert counts == {"R": 18, "L": 18, "U": 6, "B": 6, "1": 18, "2": 12, "3": 6}  # 003's deck (seeds README)


def test_new_game_refuses_a_course_that_does_not_suit_the_ruleset():
    hall = engine.bundled_course("roborace-factory-hall")
    with pytest.raises(engine.InputError, match="does not suit the roboracer ruleset"):
        engine.new_game(hall, ["a", "b"])
    with pytest.raises(engine.InputError, match="has no bot modules"):
        engine.new_game(hall, ["a", "b"], ruleset="roborace", modules=["shield"])
    state = engine.new_game(hall, ["a", "b"], ruleset="roborace")
    data = engine.state_to_dict(state)
    assert data["ruleset"] == "roborace"
    assert engine.state_from_dict(json.loads(json.dumps(data)), hall) == state
    assert "ruleset" not in engine.state_to_dict(engine.new_game(engine.bundled_course("tiny-yard"), ["a"]))


def test_roborace_deal_seven_distinct_cards_each():
    hall = engine.bundled_course("roborace-factory-hall")
    state = engine.new_game(hall, ["a", "b", "c", "d"], ruleset="roborace")
    hands = engine.deal(state, 7)
    assert sorted(hands) == ["a", "b", "c", "d"]
    cards = [card for hand in hands.values() for card in hand]
    assert all(len(hand) == 7 for hand in hands.values()) and len(set(cards)) == 28
    assert engine.deal(state, 7) == hands and engine.deal(state, 8) != hands
    bot = state.bot("a")
    program = engine.random_program(bot, hands["a"], 3, ruleset="roborace")
    assert engine.check_program(bot, hands["a"], list(program), state=state) is None
    assert "not in the hand" in str(engine.check_program(bot, hands["a"], [*program[:4], hands["b"][0]], state=state))
    assert engine.check_program(bot, hands["a"], list(program), {"activate": "shield"}, state=state) is not None


@st.composite
def games(draw):
    name = draw(st.sampled_from(AVAILABLE))
    course = engine.bundled_course(draw(st.sampled_from(BY_RULESET[name])))
    rules = rulesets.get(name)
    count = draw(st.integers(max(1, course.players[0]), min(course.players[1], rules.players[1])))
    state = engine.new_game(course, [str(n) for n in range(1, count + 1)], ruleset=name)
    return state, draw(st.integers(0, 2**32)), draw(st.integers(1, 6))


@settings(max_examples=examples(60), deadline=None)
@given(games())
def test_properties_in_every_ruleset(game):
    """Dealt hands fit the ruleset (unique cards where numbered); random programs from them are legal; a turn
    is deterministic, leaves its input alone, keeps every robot on the course off pits and apart, keeps
    damage in range, and survives the stored form."""
    state, seed, turns = game
    rules = rulesets.get(state.ruleset)
    for turn in range(turns):
        if state.finished:
            break
        hands = engine.deal(state, seed + turn)
        cards = [card for hand in hands.values() for card in hand]
        if rules.numbered:
            assert len(set(cards)) == len(cards)
        assert all(not rules.card_problem(card) for card in cards)
        programs = {}
        for bot in state.bots:
            if bot.at is None or bot.id not in hands:
                continue
            assert len(hands[bot.id]) == engine.hand_size(bot, state.ruleset)
            required = engine.required_program(bot)
            program = required or engine.random_program(bot, hands[bot.id], seed + turn, ruleset=state.ruleset)
            assert engine.check_program(bot, hands[bot.id], list(program), state=state) is None
            programs[bot.id] = list(program)
        frozen_input = copy.deepcopy(engine.state_to_dict(state))
        after, events = engine.resolve_turn(state, programs, seed + turn, hands=hands)
        again, events_again = engine.resolve_turn(state, programs, seed + turn, hands=hands)
        assert engine.state_to_dict(state) == frozen_input
        assert engine.state_to_dict(after) == engine.state_to_dict(again) and events == events_again
        squares = [bot.at for bot in after.bots if bot.at is not None and not bot.virtual]
        assert len(squares) == len(set(squares))
        for bot in after.bots:
            assert bot.at is None or (state.course.on_course(bot.at) and bot.at not in state.course.pits)
            assert 0 <= bot.damage < rules.max_damage
        stored = json.loads(json.dumps(engine.state_to_dict(after)))
        assert engine.state_from_dict(stored, state.course) == after
        assert after.ruleset == state.ruleset
        state = after


def test_fused_stage_table_reports_each_stage_as_001_does():
    """001 "How the board works": per stage the mode, card, moves, mechanisms, combat, HP and check points."""
    import subprocess
    import sys
    from pathlib import Path

    path = Path(__file__).parent / "scenarios" / "fused_pushed_into_fence.json"
    done = subprocess.run([sys.executable, "-m", "engine", "report", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)
    first = table["stages"][0]
    assert first["stage"] == 1
    assert first["robots"]["a"]["cards"] == "1@60" and first["robots"]["a"]["push"] == ["obstruction encountered"]
    assert "fence -2 HP" in first["robots"]["b"]["mechanisms"]
    assert first["robots"]["a"]["combat"] == ["r4c8: b"]  # column 8, row 4 (row 1 the southernmost)
    assert first["robots"]["b"]["hp"] == 10 - 2 - 1
    assert [stage["stage"] for stage in table["stages"]] == [1, 2, 3, 4, 5]
    assert table["end"]["b"]["hp"] == 3 and table["end"]["a"]["reinstate"] == "r1c1"


def test_fused_stage_table_tracks_destruction_and_reinstating():
    from engine.reports import stage_table
    from engine.scenario import parse_scenario

    path = __import__("pathlib").Path(__file__).parent / "scenarios" / "fused_reinstated_on_last_checkpoint.json"
    data = json.loads(path.read_text())
    state = parse_scenario(data)[0]
    table = stage_table(state, engine.simulate(data)["events"])
    assert table["stages"][0]["robots"]["a"]["mode"] == "destroyed"
    assert "destroyed (pit)" in table["stages"][0]["robots"]["a"]["mechanisms"]
    assert table["end"]["a"] == {"mode": "virtual", "reinstate": "r7c7", "flags": 1, "hp": 10, "reboot": False}


def test_classic_hands_follow_000s_table_and_probabilities():
    from collections import Counter

    from engine.rulesets import classic

    court = engine.bundled_course("classic-conveyor-court")
    state = engine.new_game(court, ["a", "b"], ruleset="classic")
    bot = state.bot("a")
    sizes = {damage: engine.hand_size(__import__("dataclasses").replace(bot, damage=damage), "classic")
             for damage in (0, 1, 2, 3, 4, 11, 12, 19, 20, 21)}  # fmt: skip
    assert sizes == {0: 10, 1: 10, 2: 9, 3: 9, 4: 8, 11: 5, 12: 4, 19: 1, 20: 0, 21: 0}  # 000 "Damage"
    memory = __import__("dataclasses").replace(bot, upgrades=("extra_memory",))
    assert engine.hand_size(memory, "classic") == 11
    drawn = Counter(chip for seed in range(400) for chip in engine.deal(state, seed)["a"])
    total = sum(drawn.values())
    for chip, percent in classic.WEIGHTS.items():  # 8000 draws: within 2 points of 000's probabilities
        assert abs(100 * drawn[chip] / total - percent) < 2, (chip, drawn)
    locked = __import__("dataclasses").replace(bot, damage=16, last_program=("1", "2", "3", "L", "R"))
    assert engine.frozen_registers(locked, "classic") == {2: "3", 3: "L", 4: "R"}


def test_classic_robots_returning_to_one_archive_take_it_in_order_of_destruction():
    """000 "Multiple archive markers": the first destroyed gets the archive, the next a random empty adjacent
    square, both facing as they died."""
    data = json.loads(
        (__import__("pathlib").Path(__file__).parent / "scenarios" / "classic_off_board_destroys.json").read_text()
    )
    data["bots"] = [
        {"id": "a", "at": [3, 0], "dir": "N", "spawn": {"at": [4, 4], "dir": "N"}},
        {"id": "b", "at": [5, 0], "dir": "E", "spawn": {"at": [4, 4], "dir": "N"}},
    ]
    data["programs"] = {"a": ["1", "R", "L", "R", "L"], "b": ["R", "L", "L", "1", "R"]}
    data["priority"] = ["a", "b"]
    for seed in range(6):
        data["seed"] = seed
        bots = {bot["id"]: bot for bot in engine.simulate(data)["bots"]}
        assert bots["a"]["at"] == [4, 4] and bots["a"]["dir"] == "N"  # destroyed first (phase 1)
        assert abs(bots["b"]["at"][0] - 4) + abs(bots["b"]["at"][1] - 4) == 1 and bots["b"]["dir"] == "N"


def test_classic_flywheel_chip_joins_the_next_hand_and_recompile_costs_two_damage():
    import dataclasses

    from engine.rulesets import classic

    court = engine.bundled_course("classic-conveyor-court")
    state = engine.new_game(court, ["a", "b"], ruleset="classic")
    saver = dataclasses.replace(state.bot("a"), upgrades=("flywheel", "recompile"), saved_chip="3", damage=3)
    state = state.with_bots([saver, state.bot("b")])
    hands = engine.deal(state, 11)
    assert len(hands["a"]) == 9 + 1 and hands["a"][-1] == "3" and len(hands["b"]) == 10
    after, hand = classic.recompile(state, "a", 12)
    assert after.bot("a").damage == 5 and len(hand) == 8 + 1 and hand[-1] == "3"
    assert after.bot("b") == state.bot("b")
    with pytest.raises(engine.InputError, match="no recompile upgrade"):
        classic.recompile(state, "b", 12)
    dying = state.with_bots([dataclasses.replace(saver, damage=20), state.bot("b")])
    with pytest.raises(engine.InputError, match="would destroy it"):
        classic.recompile(dying, "a", 12)


def test_classic_flywheel_choice_is_refused_when_sent_unless_the_program_leaves_it_unused():
    """000 "Flywheel": the saved instruction is one the program did not use. The round refuses anything else,
    so check_program refuses it when the program is sent (a program accepted then must not break the round)."""
    import dataclasses

    court = engine.bundled_course("classic-conveyor-court")
    state = engine.new_game(court, ["a", "b"], ruleset="classic")
    bot = dataclasses.replace(state.bot("a"), upgrades=("flywheel",))
    state = state.with_bots([bot, state.bot("b")])
    hand = ["1", "1", "2", "L", "R", "U", "B", "3", "L", "R"]
    program = ["1", "2", "L", "R", "U"]  # leaves 1 B 3 L R unused; no 2 and no U is left
    for choice, refused in (("1", False), ("3", False), ("L", False), ("2", True), ("U", True)):
        problem = engine.check_program(bot, hand, program, {"upgrade_use": {"flywheel": choice}}, state=state)
        assert (problem is not None) == refused, (choice, problem)
        if refused:
            assert f"no {choice!r} is left" in str(problem)
    without = dataclasses.replace(bot, upgrades=())
    problem = engine.check_program(without, hand, program, {"upgrade_use": {"flywheel": "1"}}, state=state)
    assert problem is not None and "does not have" in str(problem)


def _classic_path(name):
    return __import__("pathlib").Path(__file__).parent / "scenarios" / f"classic_{name}.json"


def test_classic_register_report_writes_pushes_as_compass_letters():
    """000's report: a's F goes first, then b's B pushes a west: a's move reads "1,W" with "Pushed by b" (as 000's
    example reports Dale "S,B", "Pushed by Ananta")."""
    from engine.reports import register_report
    from engine.scenario import parse_scenario

    data = json.loads(_classic_path("forward_before_back_up").read_text())
    state = parse_scenario(data)[0]
    first = register_report(state, engine.simulate(data)["events"])[0]
    assert first["register"] == 1
    rows = {row["name"]: row for row in first["rows"]}
    assert [row["name"] for row in first["rows"]] == ["a", "b"]  # the register's priority order
    assert rows["a"]["move"] == "1,W" and rows["a"]["notes"] == ["Pushed by b"]
    assert rows["b"]["move"] == "B" and rows["b"]["dmg"] == 1  # a's laser hit b after the moves


def test_classic_awards_count_damage_kills_falls_and_power_downs():
    from engine.reports import awards, race_figures

    turns = [[
        {"phase": 1, "type": "pushed", "bot": "b", "by": "a", "from": [1, 1], "to": [2, 1]},
        {"phase": 1, "type": "destroyed", "bot": "b", "cause": "pit"},
        {"phase": 2, "type": "damaged", "bot": "a", "amount": 2, "by": "c", "damage": 2, "cause": "bot laser"},
        {"phase": 3, "type": "pushed", "bot": "c", "by": "a", "from": [1, 1], "to": [2, 1]},
        {"phase": 4, "type": "destroyed", "bot": "c", "cause": "edge"},  # pushed a register earlier: no kill
    ], [{"phase": 0, "type": "powered_down", "bot": "c"}]]
    figures = race_figures(["a", "b", "c"], turns)
    assert figures["a"] == {"dealt": 3, "kills": 1, "taken": 2, "falls": 0, "power_downs": 0, "record": 1}
    assert figures["c"]["falls"] == 1 and figures["c"]["dealt"] == 2 and figures["c"]["power_downs"] == 1
    given = {entry["award"]: entry["bots"] for entry in awards(["a", "b", "c"], turns)}
    assert given["terminator"] == ["a"] and given["shover"] == ["a"] and given["pacifist"] == ["b"]
    assert given["clumsy"] == ["b", "c"] and given["hibernating"] == ["c"] and given["swiss_cheese"] == ["a"]
    assert "smart" not in given and "confused" not in given
