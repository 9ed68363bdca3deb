"""Issue 6 elements beyond single-turn scenarios: the teleporter loop drawn per race, kept in the state and
revealed only as it is used; and a few interactions across turns."""

from dataclasses import replace

import engine
from engine.elements.teleporters import draw_loop

GREEN = [[1, 1], [5, 1], [3, 4], [6, 6]]


def _course(*extra):
    return engine.parse_course({
        "format": "roboracer-course/1", "name": "Loop", "width": 8, "height": 8, "players": [1, 2],
        "elements": [{"type": "start", "at": [0, 7], "number": 1, "dir": "N"},
                     {"type": "start", "at": [7, 7], "number": 2, "dir": "N"},
                     {"type": "checkpoint", "at": [7, 0], "number": 1},
                     *({"type": "teleporter", "at": at, "colour": "green"} for at in GREEN),
                     {"type": "teleporter", "at": [0, 2], "colour": "red"},
                     {"type": "teleporter", "at": [7, 2], "colour": "red"}, *extra],
    })  # fmt: skip


def test_each_colour_is_one_loop_drawn_from_the_seed():
    course = _course()
    loops = set()
    for seed in range(40):
        loop = draw_loop(course, seed)
        assert loop == draw_loop(course, seed)  # the same seed, the same loop
        green = [tuple(at) for at in GREEN]
        at, visited = green[0], []
        for _ in green:
            visited.append(at)
            at = loop[at]
        assert at == green[0] and sorted(visited) == sorted(green), "one cycle through every green teleporter"
        assert loop[(0, 2)] == (7, 2) and loop[(7, 2)] == (0, 2), "a pair swaps"
        loops.add(tuple(sorted(loop.items())))
    assert len(loops) > 1, "the loop changes with the race's seed"


def test_loop_is_drawn_once_per_race_and_numbers_show_as_used():
    course = _course()
    state = engine.new_game(course, ["a", "b"])
    assert engine.state_to_dict(state).get("board") is None
    state, _ = engine.resolve_turn(state, {"a": ["L"] * 5, "b": ["L"] * 5}, seed=11)
    loop = dict(state.board.loop)
    assert set(loop) == {(1, 1), (5, 1), (3, 4), (6, 6), (0, 2), (7, 2)}
    assert not state.board.series_shown and not state.board.dest_shown, "nothing shows before use"
    state = engine.state_from_dict(engine.state_to_dict(state), course)
    # Put bot a one square south of green [3, 4], facing it, and play a move-1 with a different seed.
    state = state.with_bots(replace(b, at=(3, 5), dir="N") if b.id == "a" else b for b in state.bots)
    state, events = engine.resolve_turn(state, {"a": ["1", "L", "L", "L", "L"], "b": ["L"] * 5}, seed=99)
    assert dict(state.board.loop) == loop, "the loop is kept for the whole race"
    teleported = [e for e in events if e["type"] == "teleported"]
    assert [tuple(e["to"]) for e in teleported] == [loop[(3, 4)]]
    assert state.bot("a").at == loop[(3, 4)]
    assert state.board.dest_shown == {(3, 4)} and state.board.series_shown == {loop[(3, 4)]}
    public = engine.public_board(state.board)
    assert public["loop"] == [[[3, 4], list(loop[(3, 4)])]], "only the used teleporter's destination is public"
    assert "loop" in engine.state_to_dict(state)["board"] and len(engine.state_to_dict(state)["board"]["loop"]) == 6
    # Series numbers run in reading order, which GREEN lists.
    assert (
        teleported[0]["series"] == 3 and teleported[0]["destination"] == GREEN.index(list(loop[(3, 4)])) + 1
    )


def test_broken_mirror_and_filled_receptacle_stay_between_turns():
    course = _course({"type": "mirror", "at": [0, 5], "shape": "/"}, {"type": "receptacle", "at": [7, 5]})
    state = engine.new_game(course, ["a", "b"], lives=3)
    state, _ = engine.resolve_turn(
        state, {"a": ["2", "L", "L", "L", "L"], "b": ["2", "L", "L", "L", "L"]}, seed=1
    )
    assert (0, 5) in state.board.mirrors_broken and (7, 5) in state.board.filled
    assert state.bot("a").bad_luck and state.bot("b").lives == 2
    restored = engine.state_from_dict(engine.state_to_dict(state), course)
    assert restored == state


def test_every_issue_6_step_has_its_runner_in_phase_order():
    from engine.steps import PHASE_STEPS, RUNNERS

    order = ["teleporters_before", "virtualizers", "bot_lasers", "wall_lasers", "wall_repellers",
             "teleporters_after", "bombs", "vents", "crushers", "screens", "force_fields", "checkpoints"]  # fmt: skip
    assert [step for step in PHASE_STEPS if step in order] == order
    for step in set(order) - {"bombs"}:  # bombs come with the bot modules
        assert RUNNERS.get(step), step


def test_the_browser_draws_every_element_type():
    """frontend/src/elements.ts registers a drawer per element type (the registry the board draws from), and
    each has its legend line in the engine's catalog (the element's `short`, which the browser reads); a type
    missing there would show as the unknown-element marker."""
    import re
    from pathlib import Path

    from engine.elements import ELEMENT_TYPES

    source = (Path(__file__).parents[2] / "frontend" / "src" / "elements.ts").read_text()
    registry = source[source.index("export const ELEMENTS"):]
    registry = registry[: registry.index("};")]
    drawn = set(re.findall(r"\b([a-z_]+)(?=[:,\s])", registry))
    from engine.catalog import browser_catalog

    legend = set(browser_catalog()["legend"])  # the legend lines the browser reads (frontend/src/catalog.ts)
    for kind in ELEMENT_TYPES:
        assert kind in drawn, f"no drawer for {kind}"
        assert kind == "floor" or kind in legend, f"no legend line for {kind}"
