"""There is one game loop (issue 35): the kinds' adapters answer rules' questions and do none of a game's life
themselves, and every kind's turns pass through the shared services of games.services.turns and moves."""

import ast
import functools
from pathlib import Path

import pytest

from games import kinds
from games.models import Game
from games.services import lobby, moves, turns
from tests.games.factories import legal_program, started_game
from tests.helpers import client_for

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = {"roboracer": ROOT / "games/kinds/roboracer/__init__.py", "rambots": ROOT / "games/kinds/rambots/__init__.py"}
# The steps of a game's life the shared services own: an adapter that defined one would be a second loop.
LIFECYCLE = {"create_game", "start", "start_game", "record", "submit", "submit_move", "submit_program",
             "execute_when_all_ready", "resolve_turn", "finish", "eject", "play_random", "play_computer_turn",
             "computer_move", "recreate", "_deal", "_record", "_finish", "_execute_when_ready", "_start"}
# What doing a game's life looks like in code: writing rows, numbering events, locking, clocks, signals, tasks.
WORK_NAMES = {"append_event", "clocks", "transaction", "select_for_update", "locked_game", "game_finished",
              "send_task", "apply_async", "delay", "publish", "timezone"}
WRITES = {"save", "create", "bulk_create", "bulk_update", "update", "delete", "update_or_create", "get_or_create"}


def _defined_and_used(path: Path) -> tuple[set[str], set[str], set[str]]:
    tree = ast.parse(path.read_text())
    defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
              for alias in node.names}
    called = {node.func.attr for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)}
    return defined, names, called


@pytest.mark.parametrize("kind", sorted(ADAPTERS))
def test_an_adapter_defines_no_step_of_a_games_life_and_does_none_of_its_work(kind):
    defined, names, called = _defined_and_used(ADAPTERS[kind])
    assert not defined & LIFECYCLE, f"{kind} defines {sorted(defined & LIFECYCLE)}: the shared loop owns them"
    assert not names & WORK_NAMES, f"{kind} uses {sorted(names & WORK_NAMES)}: the shared loop does that"
    assert not called & WRITES, f"{kind} writes rows ({sorted(called & WRITES)}): the shared loop does that"


def test_the_check_sees_a_second_loop():
    """The check above can fail: it finds the steps and the work in the adapter RAMbots had before issue 35."""
    before = ROOT / "tests/games/third_kind/old_rambots_adapter.txt"
    defined, names, called = _defined_and_used(before)
    assert {"start", "submit_move", "resolve", "eject", "play_random", "computer_move"} <= defined
    assert {"transaction", "clocks"} <= names
    assert {"save", "create", "bulk_update"} <= called


@pytest.fixture
def seen(monkeypatch):
    """Every call of the shared loop's steps, as (step, the game's kind)."""
    calls: list[tuple[str, str]] = []

    def wrap(module, name, kind_of):
        original = getattr(module, name)

        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            calls.append((name, kind_of(*args, **kwargs)))
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    by_game = lambda game, *a, **k: game.kind  # noqa: E731
    by_id = lambda *a, game_id, **k: Game.objects.get(pk=game_id).kind  # noqa: E731
    for name in ("start", "deal", "execute_when_all_ready", "finish"):
        wrap(turns, name, by_game)
    wrap(turns, "resolve_turn", by_id)
    wrap(moves, "record", by_game)
    return calls


@pytest.mark.django_db
def test_both_kinds_turns_pass_through_the_shared_turn_service(seen, courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    race = started_game(users=[alice, bob], course=courses["tiny-yard"])
    for user in (alice, bob):
        moves.submit_program(user=user, game_id=race.pk, turn=1, chips=legal_program(race, user))
    assert turns.resolve_turn(game_id=race.pk, turn=1) is not None

    rambots = lobby.create_game(user=alice, kind="rambots", max_seats=2)
    assert client_for(bob).post(f"/api/games/{rambots.pk}/join/", {}, format="json").status_code == 200
    rambots.refresh_from_db()
    for user in (alice, bob):
        seat = rambots.seats.get(user=user)
        pool = next(p for p in rambots.state["players"] if p["id"] == seat.bot_id)["pool"]
        stack = [next(piece for piece in pool if piece.endswith(c)) for c in ("blue", "green", "red", "yellow")]
        answer = client_for(user).post(f"/api/games/{rambots.pk}/move/", {"turn": 0, "goals": stack}, format="json")
        assert answer.status_code == 200, answer.content
    assert turns.resolve_turn(game_id=rambots.pk, turn=0) is not None

    for kind in ("roboracer", "rambots"):
        steps = {step for step, of in seen if of == kind}
        assert {"start", "deal", "record", "execute_when_all_ready", "resolve_turn"} <= steps, (kind, steps)
    # The second deal of each game came from its resolution, inside the shared service.
    assert [of for step, of in seen if step == "deal"] == ["roboracer", "roboracer", "rambots", "rambots"]
    assert set(kinds.names()) >= {"roboracer", "rambots"}
