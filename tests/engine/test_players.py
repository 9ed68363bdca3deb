"""Computer players (engine.players, issue 20): legal in every ruleset and with every module, deterministic,
blind to what a player can't see, within their budget, and plausible."""

import dataclasses

import pytest

import engine
from engine import players
from engine.players import distance
from engine.players.programs import cards_for, kind_programs

ONE_COURSE_PER_RULESET = {
    "roboracer": "maglev-freightyard",
    "classic": "classic-conveyor-court",
    "fused": "fused-foundry",
    "roborace": "roborace-factory-hall",
}


def _ids(course, count):
    return [str(n) for n in range(1, min(count, course.players[1]) + 1)]


def _play(state, turns, seed, strengths, *, check):
    """Play `turns` turns with computer players of `strengths` (cycled over the bots), calling `check` on each
    decision with the bot and its hand; returns the final state."""
    for turn in range(1, turns + 1):
        if state.finished:
            break
        hands = engine.deal(state, engine.derive_seed(seed, turn, "deal"))
        programs, reboots, actions = {}, [], {}
        for index, (bot_id, hand) in enumerate(sorted(hands.items())):
            strength = strengths[index % len(strengths)]
            decision = players.choose(state, bot_id, hand, strength=strength,
                                      seed=engine.derive_seed(seed, turn, bot_id))
            check(state, bot_id, hand, decision, strength)
            programs[bot_id] = decision.program
            if decision.reboot:
                reboots.append(bot_id)
            if decision.action:
                actions[bot_id] = decision.action
        state, _ = engine.resolve_turn(state, programs, engine.derive_seed(seed, turn, "resolve"),
                                       reboots=reboots, actions=actions, hands=hands)
    return state


def _legal(state, bot_id, hand, decision, strength):
    bot = state.bot(bot_id)
    problem = engine.check_program(bot, hand, list(decision.program), decision.action, state=state)
    assert problem is None, f"{strength} sent an illegal program {decision.program} {decision.action}: {problem}"
    if decision.reboot:
        assert engine.rulesets.get(state.ruleset).reboots and state.mode != "arena"
    assert decision.engine_calls <= players.BUDGETS[strength]


def legal_in_ruleset(ruleset, turns):
    """Every decision of Easy, Normal and Hard over `turns` turns of a 4-bot game in `ruleset` is legal."""
    course = engine.bundled_course(ONE_COURSE_PER_RULESET[ruleset])
    state = engine.new_game(course, _ids(course, 4), lives=3, ruleset=ruleset)
    decisions = []

    def check(*args):
        _legal(*args)
        decisions.append(args[3])

    _play(state, turns, 7, ("easy", "normal", "hard"), check=check)
    assert len(decisions) >= 12
    # They do use the search: Normal and Hard spent engine calls.
    assert any(d.engine_calls > 50 for d in decisions)


def legal_with_every_module_and_heavy_damage(turns):
    """All modules on offer, bots damaged enough that registers are frozen and hands short: Hard installs,
    charges and fires modules, reboots, and never sends anything the site would refuse."""
    course = engine.bundled_course("element-expo")
    ids = _ids(course, 4)
    state = engine.new_game(course, ids, lives=5, modules=engine.MODULE_NAMES)
    modules = sorted(engine.MODULE_NAMES)
    bots = [
        dataclasses.replace(bot, damage=3 + i, battery=5000, last_program=("1", "R", "2", "L", "U"), module=modules[i % len(modules)] if i % 2 else None,
                            charges=3 if i % 2 else 0)
        for i, bot in enumerate(state.bots)
    ]
    state = state.with_bots(bots)
    seen = {"action": 0, "reboot": 0}

    def check(state, bot_id, hand, decision, strength):
        _legal(state, bot_id, hand, decision, strength)
        seen["action"] += decision.action is not None
        seen["reboot"] += decision.reboot

    _play(state, turns, 11, ("hard",), check=check)
    assert seen["action"] > 0 and seen["reboot"] > 0


# The full runs (12 and 10 turns) are a benchmark now: `make bench-players` (tests/bench/players.py). The suite
# keeps the property over a sample of the same seeded games: their first turns.
@pytest.mark.parametrize("ruleset", sorted(ONE_COURSE_PER_RULESET))
def test_every_decision_is_legal_in_every_ruleset(ruleset):
    legal_in_ruleset(ruleset, turns=5)


def test_every_decision_is_legal_with_every_module_and_heavy_damage():
    legal_with_every_module_and_heavy_damage(turns=2)


@pytest.mark.parametrize("strength", players.STRENGTHS)
def test_same_position_same_program(strength):
    course = engine.bundled_course("maglev-freightyard")
    state = engine.new_game(course, _ids(course, 4))
    hand = engine.deal(state, 5)["2"]
    first = players.choose(state, "2", hand, strength=strength, seed=99)
    again = players.choose(state, "2", hand, strength=strength, seed=99)
    assert first == again


@pytest.mark.parametrize("strength", players.STRENGTHS)
def test_blind_to_the_other_bots_private_fields(strength):
    """Only the public state and its own hand go in; scrambling what only other players know (a stored chip,
    classic's saved instruction) changes nothing."""
    course = engine.bundled_course("maglev-freightyard")
    state = engine.new_game(course, _ids(course, 4), modules=["storage"])
    hand = engine.deal(state, 3)["1"]
    plain = players.choose(state, "1", hand, strength=strength, seed=5)
    scrambled = state.with_bots(
        bot if bot.id == "1" else dataclasses.replace(bot, stored_chip="3", saved_chip="U") for bot in state.bots
    )
    assert players.choose(scrambled, "1", hand, strength=strength, seed=5) == plain
    view = players.public_view(scrambled, "1")
    assert all(bot.stored_chip is None for bot in view.bots if bot.id != "1")


def test_the_budget_is_counted_in_engine_calls():
    course = engine.bundled_course("maglev-freightyard")
    state = engine.new_game(course, _ids(course, 2))
    hand = engine.deal(state, 1)["1"]
    small = players.choose(state, "1", hand, strength="normal", seed=1, budget=10)
    assert small.engine_calls == 10
    assert players.choose(state, "1", hand, strength="normal", seed=1).engine_calls <= players.BUDGETS["normal"]
    assert small.candidates > 10


def test_an_unknown_strength_is_refused():
    course = engine.bundled_course("tiny-yard")
    state = engine.new_game(course, ["1", "2"])
    with pytest.raises(engine.InputError):
        players.choose(state, "1", engine.deal(state, 1)["1"], strength="godlike", seed=1)


def test_kind_programs_are_every_distinct_program_once():
    hand = ("1", "1", "R", "L", "2")
    programs = list(kind_programs(hand, {}))
    assert len(programs) == len(set(programs)) == 60  # 5! / 2!
    frozen = {3: "U", 4: "B"}
    short = list(kind_programs(("1", "R", "R"), frozen))
    assert all(p[3:] == ("U", "B") for p in short) and len(short) == 3
    # numbered cards: the highest number of a kind goes first
    assert cards_for(("R", "R", "1", "0", "0"), ("R@9", "R@30", "1@70"), {}) == ("R@30", "R@9", "1@70", "0", "0")


def test_distance_maps_respect_walls_and_holes():
    course = engine.bundled_course("maglev-freightyard")
    target = course.checkpoints[0].at
    steps = distance.squares(course, target)
    holes = distance.holes(course)
    assert steps[target] == 0 and not holes & set(steps)
    registers = distance.registers(course, target)
    # Facing matters: from a square next to the target, facing it costs one register, facing away more.
    x, y = target
    for heading, (dx, dy) in (("N", (0, 1)), ("S", (0, -1)), ("E", (-1, 0)), ("W", (1, 0))):
        near = (x + dx, y + dy)
        if near in steps and steps[near] == 1 and not course.wall_between(near, heading):
            side = {"N": "E", "S": "W", "E": "S", "W": "N"}[heading]
            assert registers[(near, heading)] == 1 < registers[(near, side)] == 2
            break
    else:
        pytest.skip("no open square beside the check point")


def test_easy_is_plausible_it_heads_for_its_check_point():
    """Over many hands from the start, Easy's program mostly ends nearer its check point and seldom loses its
    robot; a random program does neither as well."""
    course = engine.bundled_course("maglev-freightyard")
    state = engine.new_game(course, ["1", "2"])
    start = state.bot("1").at
    steps = distance.squares(course, course.checkpoints[0].at)

    def outcome(program, hands, seed):
        after, events = engine.resolve_turn(state, {"1": program, "2": ("L", "R", "L", "R", "L")}, seed,
                                            hands=hands)
        lost = any(e["type"] == "destroyed" and e["bot"] == "1" for e in events)
        return (not lost and steps.get(after.bot("1").at, 999) < steps[start]), lost

    easy = {"closer": 0, "lost": 0}
    randomly = {"closer": 0, "lost": 0}
    for seed in range(30):
        hands = engine.deal(state, seed)
        hands["2"] = ("L", "R", "L", "R", "L")
        decision = players.choose(state, "1", hands["1"], strength="easy", seed=seed)
        for tally, program in ((easy, decision.program),
                               (randomly, engine.random_program(state.bot("1"), hands["1"], seed))):
            closer, lost = outcome(program, hands, seed)
            tally["closer"] += closer
            tally["lost"] += lost
    assert easy["closer"] >= 24 and easy["lost"] <= 2
    assert easy["closer"] > randomly["closer"]


def normal_wins(games):
    """How many of the seeded 2-player races `games` (on a 16x24 course, 40 turns at most) Normal wins against
    Easy; Normal sits in seat 1 in the even-numbered games, in seat 2 in the odd ones."""
    course = engine.bundled_course("maglev-freightyard")
    wins = 0
    for game in games:
        strengths = ("normal", "easy") if game % 2 == 0 else ("easy", "normal")
        state = engine.new_game(course, ["1", "2"], lives=3)
        state = _play(state, 40, 300 + game, strengths, check=lambda *args: None)
        if state.winner is not None and strengths[int(state.winner) - 1] == "normal":
            wins += 1
    return wins


def test_the_strengths_are_ordered_in_a_few_seeded_games():
    """Normal beats Easy from either seat: two of the seeded races of `make bench-players` (which plays four and
    wants three; `make bench-bots` measures the rates over hundreds)."""
    assert normal_wins([1, 2]) == 2
