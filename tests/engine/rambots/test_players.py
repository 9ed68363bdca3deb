"""RAMbots computer players: legal, deterministic, blind to hidden information, and Normal beats Easy."""

import copy

import pytest

from engine.kinds import rambots as rb
from engine.kinds.rambots import players


def started(seed=2, ids=("1", "2")):
    state = rb.new_game(list(ids), seed=seed)
    stacks = {pid: players.choose_goal_stack(state, pid, strength="normal", seed=seed) for pid in ids}
    return rb.set_goal_stacks(state, stacks)[0]


@pytest.mark.parametrize("strength", ["easy", "normal", "hard"])
def test_choose_is_legal_and_deterministic(strength):
    state = started()
    for _ in range(3):
        programs = {}
        for pid in ("1", "2"):
            program = players.choose(state, pid, strength=strength, seed=9)
            assert rb.program_problem(state, pid, program) is None
            assert program == players.choose(copy.deepcopy(state), pid, strength=strength, seed=9)
            programs[pid] = program
        state, _ = rb.resolve_round(state, programs)
        if state["phase"] != "programming":
            break


def test_choose_goal_stack_is_legal():
    state = rb.new_game(["1", "2", "3"], seed=5)
    for strength in players.STRENGTHS:
        for pid in ("1", "2", "3"):
            stack = players.choose_goal_stack(state, pid, strength=strength, seed=1)
            assert rb.goal_stack_problem(state, pid, stack) is None


def test_unknown_strength():
    with pytest.raises(ValueError):
        players.choose(started(), "1", strength="expert", seed=1)


def test_choices_ignore_hidden_information():
    """Reordering a goal stack the player may not see (player 3's, built by 2) changes nothing it decides."""
    three = rb.new_game(["1", "2", "3"], seed=4)
    three = rb.set_goal_stacks(three, {p: rb.random_goal_stack(three, p, seed=1) for p in "123"})[0]
    changed = copy.deepcopy(three)
    hidden = changed["players"][2]["goals"]
    hidden[1:] = list(reversed(hidden[1:]))
    assert changed != three and rb.public_view(changed, "1") == rb.public_view(three, "1")
    for strength in players.STRENGTHS:
        assert players.choose(three, "1", strength=strength, seed=3) == \
            players.choose(changed, "1", strength=strength, seed=3)


def test_budget_is_respected():
    state = started()
    calls = []
    real = players.execute_instruction

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    players.execute_instruction = counting
    try:
        players.choose(state, "1", strength="normal", seed=1, budget=17)
    finally:
        players.execute_instruction = real
    assert 0 < len(calls) <= 17


def test_normal_beats_easy():
    """Ten seeded 2-player games (each side first in half), 30 rounds at most: a game is won by its winner,
    or else by more goals tagged."""
    normal_wins = easy_wins = 0
    for seed in range(10):
        seats = {"1": "normal", "2": "easy"} if seed % 2 == 0 else {"1": "easy", "2": "normal"}
        final = players.play(seats, seed=seed, max_rounds=30)
        tagged = {seats[p["id"]]: p["tagged"] for p in final["players"]}
        best = seats.get(final["winner"]) if final["winner"] else (
            max(tagged, key=tagged.get) if tagged["normal"] != tagged["easy"] else None)
        normal_wins += best == "normal"
        easy_wins += best == "easy"
    assert normal_wins >= 7, (normal_wins, easy_wins)
