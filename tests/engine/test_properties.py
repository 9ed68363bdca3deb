"""Invariants over random programs on every bundled course (hypothesis).

After every step of every phase: no two real bots share a square, and every bot is on the course (not in
a pit) or destroyed; damage stays in 0..10. The events alone, applied to the state before, give the state
after. The same input gives byte-identical output, and the input is never mutated.
"""

import copy
import json

from hypothesis import assume, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

import engine
from tests.engine.strategies import course_and_bots
from tests.profiles import examples

CHIP = st.sampled_from(["1", "2", "3", "B", "L", "R", "U"])
PROGRAM = st.lists(CHIP, min_size=5, max_size=5)


@st.composite
def games(draw):
    course, ids = draw(course_and_bots())
    state = engine.new_game(course, ids, lives=draw(st.integers(min_value=1, max_value=3)))
    turns = [
        ({bot_id: draw(PROGRAM) for bot_id in ids}, draw(st.sets(st.sampled_from(ids), max_size=2)))
        for _ in range(draw(st.integers(1, 5)))
    ]
    return state, turns


def _run(state, turns):
    outputs = []
    for programs, reboots in turns:
        if state.finished:
            break
        live = {}
        for bot in state.bots:
            if bot.at is not None:
                live[bot.id] = engine.required_program(bot) or programs[bot.id]
        asked = [bot_id for bot_id in sorted(reboots) if not state.bot(bot_id).rebooting]
        if state.mode == "arena":
            asked = []  # no reboot in an arena (003 "Rebooting"; tests/engine/test_remains.py)
        before = state
        state, events = engine.resolve_turn(state, live, seed=state.turn, reboots=asked)
        outputs.append((before, state, events))
    return outputs


def _check_step(course, bots, where):
    real = [bot["at"] for bot in bots.values() if bot["at"] is not None and not bot["virtual"]]
    assert len(real) == len(set(real)), f"{where}: two real bots share a square: {bots}"
    for bot in bots.values():
        if bot["at"] is not None:
            assert course.on_course(bot["at"]) and bot["at"] not in course.pits, f"{where}: {bot}"
        assert 0 <= bot["damage"] <= 10


def _board(board):
    """What the course elements remember, less the teleporter loop (drawn, not an event)."""
    return {
        "broken": set(board.broken), "filled": set(board.filled), "field_hits": dict(board.field_hits),
        "fields_down": set(board.fields_down), "mirrors_broken": set(board.mirrors_broken),
        "series_shown": set(board.series_shown), "dest_shown": set(board.dest_shown),
    }  # fmt: skip


def _replay(before, events, board=None):
    """Apply the events to the state before; check the invariants at every step boundary. `board`, when
    given, is filled with the course elements' memory the events rebuild."""
    bots = {
        bot.id: {"at": bot.at, "dir": bot.dir, "virtual": bot.virtual, "damage": bot.damage, "lives": bot.lives,
                 "bad_luck": False}
        for bot in before.bots
    }  # fmt: skip
    if board is None:
        board = {}
    board.update(_board(before.board))
    step = None
    for event in events:
        if (event["phase"], event["step"]) != step:
            _check_step(before.course, bots, step)
            step = (event["phase"], event["step"])
        bot = bots.get(event["bot"])
        kind = event["type"]
        if kind == "drone_deployed":  # a bot module (003 "Drone"): a new drone, or the old one placed anew
            bots[event["bot"]] = {"at": tuple(event["at"]), "dir": event["dir"], "virtual": True, "damage": 0,
                                  "lives": 1, "bad_luck": False}  # fmt: skip
            continue
        if bot is None and event["bot"] is not None:
            continue  # a bomb (not a bot); what it does to the board is left to the bomb's own tests
        if kind in ("moved", "pushed", "carried", "slid", "teleported"):
            assert bot["at"] == tuple(event["from"])
            bot["at"] = tuple(event["to"])
            if kind == "teleported":
                board["dest_shown"].add(tuple(event["from"]))
                board["series_shown"].add(tuple(event["to"]))
        elif kind == "virtual":
            bot["virtual"] = True
        elif kind == "tile_broken":
            board["broken"].add(tuple(event["at"]))
        elif kind == "receptacle_filled":
            board["filled"].add(tuple(event["at"]))
        elif kind == "field_damaged":
            board["field_hits"][tuple(event["at"])] = event["hits"]
        elif kind == "field_down":
            board["fields_down"].add(tuple(event["at"]))
        elif kind == "field_up":
            board["fields_down"].discard(tuple(event["at"]))
        elif kind == "mirror_broken":
            board["mirrors_broken"].add(tuple(event["at"]))
            if bot is not None:  # a bomb's blast breaks mirrors with no bot to blame ("bot": null, 003 "Bomb")
                bot["bad_luck"] = True
        elif kind == "rotated":
            assert bot["dir"] == event["from"]
            bot["dir"] = event["to"]
        elif kind == "destroyed":
            bot.update(at=None, damage=0, lives=bot["lives"] - 1)
        elif kind == "respawned":
            bot.update(at=tuple(event["at"]), dir=event["dir"], virtual=True, damage=0)
        elif kind == "real":
            bot["virtual"] = False
        elif kind in ("damaged", "repaired", "remains_collected"):
            bot["damage"] = event["damage"]
    _check_step(before.course, bots, step)
    return bots


@settings(max_examples=examples(150), deadline=None)
@given(games())
def test_invariants_after_every_step_and_events_explain_the_new_state(case):
    state, turns = case
    for before, after, events in _run(state, turns):
        assert all(1 <= event["phase"] <= 5 for event in events)
        board = {}
        replayed = _replay(before, events, board)
        for bot in after.bots:
            assert replayed[bot.id] == {
                "at": bot.at, "dir": bot.dir, "virtual": bot.virtual, "damage": bot.damage, "lives": bot.lives,
                "bad_luck": bot.bad_luck,
            }, f"bot {bot.id}: the events don't add up to the new state"
        assert board == _board(after.board), "the events don't add up to the course elements' new state"
        assert [e for e in events if e["type"] == "priority"][-1]["order"] == list(after.priority)
        assert sorted(after.priority) == sorted(b.id for b in after.bots)


@settings(max_examples=examples(60), deadline=None)
@given(games())
def test_same_input_gives_byte_identical_output_and_input_is_not_mutated(case):
    state, turns = case
    before = json.dumps(engine.state_to_dict(state), sort_keys=True)
    turns_before = copy.deepcopy(turns)
    first = _run(state, turns)
    second = _run(state, turns)
    dump = lambda runs: json.dumps([(engine.state_to_dict(s), e) for _, s, e in runs], sort_keys=True)  # noqa: E731
    assert dump(first) == dump(second)
    assert json.dumps(engine.state_to_dict(state), sort_keys=True) == before
    assert turns == turns_before


@settings(max_examples=examples(60), deadline=None)
@given(games())
def test_state_round_trips_through_plain_data(case):
    state, turns = case
    for _, new_state, _ in _run(state, turns):
        assert engine.state_from_dict(engine.state_to_dict(new_state), new_state.course) == new_state


@st.composite
def random_courses(draw, mode="race"):
    """Small courses with every core element scattered at random (always a valid placement); an arena
    (`mode="arena"`) has no check point."""
    width, height = draw(st.integers(4, 8)), draw(st.integers(4, 8))
    squares = [(x, y) for y in range(height) for x in range(width)]
    sides = st.sampled_from("NESW")
    phases = st.lists(st.integers(1, 5), min_size=1, max_size=5, unique=True)
    elements, floor, teleporters = [], [], []
    for x, y in squares:
        kind = draw(st.sampled_from(["floor"] * 6 + ["pit", "repair", "belt", "belt", "belt", "turntable"] + NEW_TILES))
        at = [x, y]
        if kind == "pit":
            elements.append({"type": "pit", "at": at})
            continue
        if kind in NEW_TILES:
            elements.append(_new_tile(draw, kind, at, sides, phases))
        if kind == "repair":
            elements.append({"type": "repair", "at": at, "amount": draw(st.integers(1, 2))})
        elif kind == "belt":
            heading = draw(sides)
            across = [s for s in "NESW" if s not in (heading, engine_opposite(heading))]
            elements.append({
                "type": "belt", "at": at, "dir": heading, "speed": draw(st.sampled_from([1, 2, 3, 5])),
                "curves_from": draw(st.lists(st.sampled_from(across), max_size=2, unique=True)),
            })  # fmt: skip
        elif kind == "turntable":
            elements.append({"type": "turntable", "at": at, "rotation": draw(st.sampled_from("LR"))})
        if kind in ("floor", "repair"):
            floor.append((x, y))
        if draw(st.integers(0, 9)) == 0:
            elements.append({"type": "crusher", "at": at, "phases": draw(phases)})
        mounted = draw(st.lists(sides, max_size=2, unique=True))
        for index, side in enumerate(mounted):
            if index == 0 and draw(st.booleans()):
                elements.append({"type": "pusher", "at": at, "side": side, "phases": draw(phases)})
            elif draw(st.integers(0, 3)) == 0:
                weapon = draw(st.sampled_from(["laser", "blaster", "repeller", "portal"]))
                element = {"type": weapon, "at": at, "side": side}
                if weapon in ("laser", "blaster"):
                    element["beams"] = draw(st.integers(1, 3))
                elif weapon == "portal":
                    element["colour"] = draw(st.sampled_from(["red", "blue"]))
                elements.append(element)
        if draw(st.integers(0, 4)) == 0:
            elements.append(_edge(draw, at, phases))
        if kind not in ("belt",) and draw(st.integers(0, 7)) == 0:
            elements.append({"type": draw(st.sampled_from(["water", "oil"])), "at": at})
        if draw(st.integers(0, 9)) == 0:
            elements.append(draw(st.sampled_from([
                {"type": "mirror", "at": at, "shape": draw(st.sampled_from(["/", "\\", "-", "|"]))},
                {"type": "force_field", "at": at, "strength": draw(st.integers(1, 2))},
                {"type": "force_field", "at": at, "recharging": True},
            ])))  # fmt: skip
        elif draw(st.integers(0, 9)) == 0:
            teleporters.append(at)
    if len(teleporters) >= 2:
        elements += [{"type": "teleporter", "at": at, "colour": "red"} for at in teleporters if not
                     any(e["type"] == "crusher" and e["at"] == at for e in elements)]  # fmt: skip
        if sum(e["type"] == "teleporter" for e in elements) < 2:
            elements = [e for e in elements if e["type"] != "teleporter"]
    covered = {tuple(e["at"]) for e in elements if e["type"] in ("mirror", "force_field")}
    floor = [sq for sq in floor if sq not in covered]
    if len(floor) < 3:
        return None
    marked = draw(st.lists(st.sampled_from(floor), min_size=3, max_size=min(len(floor), 6), unique=True))
    players = len(marked) - 1
    for number, at in enumerate(marked[:-1], start=1):
        elements.append({"type": "start", "at": list(at), "number": number, "dir": draw(sides)})
    if mode != "arena":
        elements.append({"type": "checkpoint", "at": list(marked[-1]), "number": 1})
    data = {"format": "roboracer-course/1", "name": "Random", "width": width, "height": height, "mode": mode,
            "players": [1, players], "elements": elements}  # fmt: skip
    return engine.parse_course(data)


NEW_TILES = ["screen", "damaged_tile", "receptacle", "rail", "trapdoor", "inverter", "doubler", "vent", "magnet",
             "virtualizer"]  # fmt: skip


def _new_tile(draw, kind, at, sides, phases):
    element = {"type": kind, "at": at}
    if kind == "receptacle":
        element["covered"] = draw(st.booleans())
    elif kind == "rail":
        element["sides"] = draw(st.sampled_from([["N", "S"], ["E", "W"], ["N", "E"], ["S", "W"], ["N", "E", "S", "W"]]))
        element["over_pit"] = draw(st.booleans())
    elif kind == "trapdoor":
        element["phases"] = draw(phases)
    elif kind == "magnet":
        element["dir"] = draw(sides)
    return element


def _edge(draw, at, phases):
    side = draw(st.sampled_from("ES"))
    kind = draw(st.sampled_from(["wall", "wall", "one_way_wall", "sliding_wall", "curtain", "window", "shocker"]))
    element = {"type": kind, "at": at, "side": side}
    if kind == "one_way_wall":
        element["dir"] = draw(st.sampled_from([side, engine_opposite(side)]))
    elif kind == "sliding_wall":
        element["open"] = draw(phases)
    return element


def engine_opposite(side):
    return "NESW"[("NESW".index(side) + 2) % 4]


@settings(max_examples=examples(100), deadline=None)
@given(random_courses(), st.lists(st.lists(PROGRAM, min_size=5, max_size=5), min_size=1, max_size=4), st.data())
def test_invariants_hold_on_random_courses(course, programs_by_turn, data):
    assume(course is not None)
    ids = [str(n) for n in range(1, min(5, course.players[1]) + 1)]
    state = engine.new_game(course, ids, lives=2)
    turns = [
        ({bot_id: programs[int(bot_id) - 1] for bot_id in ids}, data.draw(st.sets(st.sampled_from(ids), max_size=1)))
        for programs in programs_by_turn
    ]
    for before, after, events in _run(state, turns):
        board = {}
        replayed = _replay(before, events, board)
        for bot in after.bots:
            assert replayed[bot.id]["at"] == bot.at and replayed[bot.id]["damage"] == bot.damage
            assert replayed[bot.id]["virtual"] == bot.virtual and replayed[bot.id]["dir"] == bot.dir
        assert board == _board(after.board)


def _check_places(state):
    """Final places: none while racing; once over, a competition ranking (1, 2, 2, 4) of every bot, the
    winner alone 1st, and the order of docs/rules.md "Final places" between any two bots."""
    places = state.places
    stored = engine.state_to_dict(state)
    if not state.finished:
        assert places is None and "places" not in stored
        return
    assert stored["places"] == places
    assert list(places) == [bot.id for bot in state.bots]
    assert all(isinstance(place, int) for place in places.values())
    for place in places.values():
        assert sum(1 for other in places.values() if other < place) == place - 1, places
    assert min(places.values()) == 1
    if state.winner is not None:
        assert places[state.winner] == 1
        assert [bot_id for bot_id, place in places.items() if place == 1] == [state.winner]
    others = [bot for bot in state.bots if bot.id != state.winner]
    for bot in others:
        assert not bot.in_game or state.winner is not None, "a race over without a winner has nobody racing"
        assert (bot.out is None) == bot.in_game
        for other in others:
            if bot.ejected and not other.ejected:
                assert places[other.id] < places[bot.id], "an ejected bot ranks below every bot not ejected"
            if bot.ejected == other.ejected and bot.next_checkpoint > other.next_checkpoint:
                assert places[bot.id] < places[other.id], "more check points rank higher"
            if bot.ejected == other.ejected and bot.next_checkpoint == other.next_checkpoint:
                if bot.in_game and not other.in_game:
                    assert places[bot.id] < places[other.id], "still racing ranks above out of the race"
                if not bot.in_game and not other.in_game and bot.out > other.out:
                    assert places[bot.id] < places[other.id], "out later ranks above out earlier"
                if (bot.in_game, bot.out, bot.lives, bot.damage) == (other.in_game, other.out, other.lives, other.damage):
                    assert places[bot.id] == places[other.id], "equal bots share a place"


@settings(max_examples=examples(120), deadline=None)
@given(games(), st.data())
def test_final_places_rank_every_bot_once_the_race_is_over(case, data):
    """Games played to the end (one life each, up to 12 turns), with ejections between turns at random."""
    state, _ = case
    state = engine.new_game(state.course, [bot.id for bot in state.bots], lives=data.draw(st.integers(1, 2)))
    ids = [bot.id for bot in state.bots]
    for _ in range(12):
        _check_places(state)
        if state.finished:
            break
        racing = [bot.id for bot in state.bots if bot.in_game]
        if data.draw(st.integers(0, 5)) == 0:
            state, events = engine.eject(state, data.draw(st.sets(st.sampled_from(racing), min_size=1)))
            assert all(bot.ejected and bot.out == (state.turn, 0) for bot in state.bots if bot.id in
                       {e["bot"] for e in events if e["type"] == "ejected"})
            continue
        programs = {
            bot.id: engine.required_program(bot) or data.draw(PROGRAM) for bot in state.bots if bot.at is not None
        }
        before = state
        state, events = engine.resolve_turn(state, programs, seed=state.turn)
        for bot in state.bots:
            was = before.bot(bot.id)
            if was.in_game and not bot.in_game:
                last = [e for e in events if e["type"] == "destroyed" and e["bot"] == bot.id][-1]
                assert bot.out == (before.turn, last["phase"]) and not bot.ejected
            else:
                assert bot.out == was.out
        assert engine.state_from_dict(engine.state_to_dict(state), state.course) == state
    _check_places(state)
    tally("won" if state.winner else "no winner" if state.finished else "still racing")
    if state.finished:
        assert sorted(engine.state_to_dict(state)["places"]) == sorted(ids)
