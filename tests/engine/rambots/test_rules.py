"""RAMbots set-up, goal stacks, programs, ejection and the public view (docs/rambots.md)."""

import copy
from collections import Counter

import pytest

from engine.kinds import rambots as rb


def started(ids=("1", "2", "3"), seed=7):
    state = rb.new_game(list(ids), seed=seed)
    stacks = {pid: rb.random_goal_stack(state, pid, seed=seed) for pid in ids}
    return rb.set_goal_stacks(state, stacks)[0], stacks


def test_constants():
    assert rb.KIND == "rambots" and rb.FORMAT == "rambots-scenario/1"
    assert rb.COLOURS == ("red", "yellow", "green", "blue") and rb.SIZES == ("S", "M", "L")
    assert (rb.MAX_PROGRAM, rb.MIN_PLAYERS, rb.MAX_PLAYERS) == (5, 2, 4)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_new_game_setup(count):
    ids = [str(n) for n in range(1, count + 1)]
    state = rb.new_game(ids, seed=3)
    assert state == rb.new_game(ids, seed=3)
    assert state["kind"] == "rambots" and state["phase"] == "goals" and state["round"] == 0
    assert state["winner"] is None and state["options"] == {"speedbots": False}
    assert [p["id"] for p in state["players"]] == ids
    corners = [[1, 1], [6, 1], [6, 6], [1, 6]]
    for player in state["players"]:
        assert player["bot"]["dir"] == "up" and player["bot"]["at"] in corners
        assert player["pool"] == rb.sort_pieces(rb.PIECES) and len(player["pool"]) == 12
        assert player["goals"] == [] and player["tagged"] == 0 and not player["out"] and not player["goals_built"]
    assert len({p["colour"] for p in state["players"]}) == count
    if count == 2:
        assert [p["bot"]["at"] for p in state["players"]] == [[1, 1], [6, 6]]
    assert sorted(b["at"] for b in state["beacons"]) == [[3, 3], [3, 4], [4, 3], [4, 4]]
    assert sorted(b["colour"] for b in state["beacons"]) == sorted(rb.COLOURS)
    assert all(b["dir"] in rb.DIRS for b in state["beacons"])
    assert sorted(state["precedence"]) == sorted(rb.COLOURS)
    # the stack follows the bots' colours clockwise from the corner the random start picked
    if count == 4:
        clockwise = [p["colour"] for p in state["players"]]
        first = clockwise.index(state["precedence"][0])
        assert state["precedence"] == clockwise[first:] + clockwise[:first]


def test_new_game_randomness_comes_from_the_seed():
    layouts = {str(rb.new_game(["1", "2"], seed=seed)["beacons"]) for seed in range(20)}
    assert len(layouts) > 5


@pytest.mark.parametrize("ids", [["1"], ["1", "2", "3", "4", "5"], ["1", "1"], ["1", ""], "12"])
def test_new_game_refuses_bad_players(ids):
    with pytest.raises(ValueError):
        rb.new_game(ids, seed=1)


def test_new_game_options():
    assert rb.new_game(["1", "2"], seed=1, options={"speedbots": True})["options"] == {"speedbots": True}
    with pytest.raises(ValueError):
        rb.new_game(["1", "2"], seed=1, options={"turbo": True})


def test_goal_recipient_is_the_left_neighbour():
    state = rb.new_game(["1", "2", "3"], seed=1)
    assert [rb.goal_recipient(state, pid) for pid in "123"] == ["2", "3", "1"]
    assert [rb.goal_maker(state, pid) for pid in "123"] == ["3", "1", "2"]


def test_goal_stack_problems():
    state = rb.new_game(["1", "2"], seed=1)
    good = ["S-red", "M-yellow", "L-green", "S-blue"]
    assert rb.goal_stack_problem(state, "1", good) is None
    assert "not a player" in rb.goal_stack_problem(state, "9", good)
    assert "list" in rb.goal_stack_problem(state, "1", "S-red")
    assert "exactly 4" in rb.goal_stack_problem(state, "1", good[:3])
    assert "one piece of each colour" in rb.goal_stack_problem(state, "1", ["S-red", "M-red", "L-green", "S-blue"])
    assert "not a piece" in rb.goal_stack_problem(state, "1", ["S-red", "X", "L-green", "S-blue"])
    built, events = rb.set_goal_stacks(state, {"1": good})
    assert events == [] and built["phase"] == "goals"
    assert "already built" in rb.goal_stack_problem(built, "1", good)
    after, _ = rb.set_goal_stacks(built, {"2": good})
    assert "before the first round" in rb.goal_stack_problem(after, "1", good)
    with pytest.raises(ValueError):
        rb.set_goal_stacks(built, {"1": good})


def test_goal_stacks_leave_the_makers_pool_and_reveal():
    state = rb.new_game(["1", "2", "3"], seed=1)
    stacks = {"1": ["S-red", "M-yellow", "L-green", "S-blue"], "2": ["L-blue", "L-red", "L-yellow", "L-green"],
              "3": ["M-green", "M-red", "M-blue", "M-yellow"]}
    before = copy.deepcopy(state)
    after, events = rb.set_goal_stacks(state, stacks)
    assert state == before
    assert after["phase"] == "programming" and after["round"] == 1
    assert events == [{"type": "goal_stacks_revealed", "tops": {"2": "S-red", "3": "L-blue", "1": "M-green"}}]
    players = {p["id"]: p for p in after["players"]}
    assert players["2"]["goals"] == stacks["1"] and players["3"]["goals"] == stacks["2"]
    assert players["1"]["goals"] == stacks["3"]
    assert len(players["1"]["pool"]) == 8 and "S-red" not in players["1"]["pool"]
    assert all(p["goals_built"] for p in after["players"])


def test_random_goal_stack_is_legal_and_seeded():
    state = rb.new_game(["1", "2"], seed=1)
    stack = rb.random_goal_stack(state, "1", seed=5)
    assert rb.goal_stack_problem(state, "1", stack) is None
    assert stack == rb.random_goal_stack(state, "1", seed=5)
    assert len({str(rb.random_goal_stack(state, "1", seed=s)) for s in range(10)}) > 3


def test_program_problems():
    state, _ = started(("1", "2"))
    pool = state["players"][0]["pool"]
    piece = pool[0]
    assert rb.program_problem(state, "1", []) is None
    assert rb.program_problem(state, "1", [{"piece": piece, "dir": "up"}]) is None
    assert "not a player" in rb.program_problem(state, "x", [])
    assert "at most 5" in rb.program_problem(state, "1", [{"piece": p, "dir": "N"} for p in pool[:6]])
    assert "unknown field" in rb.program_problem(state, "1", [{"piece": piece, "dir": "N", "x": 1}])
    assert "not a piece" in rb.program_problem(state, "1", [{"piece": "Q", "dir": "N"}])
    assert "'dir'" in rb.program_problem(state, "1", [{"piece": piece, "dir": "NE"}])
    assert "list" in rb.program_problem(state, "1", {"piece": piece})
    missing = next(p for p in rb.PIECES if p not in pool)
    assert "not in player 1's code pool" in rb.program_problem(state, "1", [{"piece": missing, "dir": "N"}])
    assert "used 2 times" in rb.program_problem(state, "1", [{"piece": piece, "dir": "N"}] * 2)
    out, _ = rb.remove_players(rb.new_game(["1", "2", "3"], seed=1), ["2"])
    assert "only accepted" in rb.program_problem(out, "1", [])


def test_resolve_round_checks_programs_and_phase():
    state, _ = started(("1", "2"))
    with pytest.raises(ValueError):
        rb.resolve_round(state, {"1": [{"piece": "Q", "dir": "N"}]})
    with pytest.raises(ValueError):
        rb.resolve_round(state, {"9": []})
    with pytest.raises(ValueError):
        rb.resolve_round(rb.new_game(["1", "2"], seed=1), {})
    after, events = rb.resolve_round(state, {})
    assert after["round"] == 2 and events[-1]["type"] == "precedence_rotated"


def test_remove_players():
    state, _ = started(("1", "2", "3"))
    after, events = rb.remove_players(state, ["2"])
    assert events == [{"type": "removed", "player": "2"}]
    two = {p["id"]: p for p in after["players"]}["2"]
    assert two["out"] and two["bot"] == state["players"][1]["bot"] and two["pool"] == state["players"][1]["pool"]
    assert after["phase"] == "programming" and rb.winner(after) is None
    # an out player's program is ignored; their bot stays on the board
    resolved, _ = rb.resolve_round(after, {"2": [{"piece": two["pool"][0], "dir": "N"}]})
    assert {p["id"]: p for p in resolved["players"]}["2"]["bot"] == two["bot"]
    assert rb.remove_players(after, ["2"])[1] == []
    final, events = rb.remove_players(after, ["3"])
    assert final["phase"] == "over" and rb.winner(final) == "1"
    assert events == [{"type": "removed", "player": "3"}, {"type": "won", "player": "1"}]


def test_ejected_during_goals_gets_a_default_stack():
    state = rb.new_game(["1", "2", "3"], seed=1)
    state, _ = rb.set_goal_stacks(state, {"1": rb.random_goal_stack(state, "1", seed=1)})
    state, events = rb.remove_players(state, ["3"])
    assert state["phase"] == "goals" and [e["type"] for e in events] == ["removed"]
    state, events = rb.set_goal_stacks(state, {"2": rb.random_goal_stack(state, "2", seed=1)})
    assert state["phase"] == "programming" and events[0]["type"] == "goal_stacks_revealed"
    assert {p["id"]: p for p in state["players"]}["1"]["goals"] == ["S-red", "S-yellow", "S-green", "S-blue"]


def test_hidden_goal_order_in_public_view():
    state = rb.new_game(["1", "2", "3"], seed=4)
    stack = ["S-red", "M-yellow", "L-green", "S-blue"]
    half, _ = rb.set_goal_stacks(state, {"1": stack})
    # before every stack is built: only the maker sees it, the owner does not
    assert rb.public_view(half, "1")["players"][1]["goals"] == stack
    for viewer in ("2", "3", None):
        view = rb.public_view(half, viewer)
        assert view["players"][1]["goals"] is None and view["players"][1]["goal_top"] is None
    full, _ = rb.set_goal_stacks(half, {"2": rb.random_goal_stack(half, "2", seed=1),
                                        "3": rb.random_goal_stack(half, "3", seed=1)})
    for viewer in ("1", "2", "3", None):
        view = rb.public_view(full, viewer)
        for player in view["players"]:
            owner, maker = player["id"], rb.goal_maker(full, player["id"])
            assert player["goal_maker"] == maker
            assert player["goal_top"] == {p["id"]: p for p in full["players"]}[owner]["goals"][0]
            assert player["goals_left"] == 4
            if viewer in (owner, maker):
                assert player["goals"] == {p["id"]: p for p in full["players"]}[owner]["goals"]
            else:
                assert player["goals"] is None
    # the view holds no other copy of a hidden order
    view = rb.public_view(full, "3")
    assert view["players"][0]["goals"] is not None  # player 1's stack: built by 3, so 3 sees it
    assert view["players"][1]["goals"] is None  # player 2's stack, built by 1
    assert stack not in list(view["players"][1].values())
    assert str(stack)[1:-1] not in str(view)


def test_pieces_are_counted_per_player_set():
    state, _ = started(("1", "2", "3", "4"))
    total = Counter()
    for player in state["players"]:
        total.update(player["pool"])
        total.update(player["goals"])
    assert total == Counter({piece: 4 for piece in rb.PIECES})
