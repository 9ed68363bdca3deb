"""Speedbots against computers (issue 37, item 3): a computer compiles only after a think time drawn from 25% to
60% of the move clock, so a person gets to move; outside Speedbots it moves at once. The delay is on the task
the loop sends to the `computers` queue (a real Celery publish: its ETA)."""

import ast
from datetime import datetime

import pytest
from celery.signals import before_task_publish
from django.utils import timezone

from games import kinds
from games.kinds.rambots import SPEEDBOTS_THINK
from games.services import computer_seats, lobby, moves, turns
from games.services.publish import COMPUTER_MOVE
from tests.games.test_rambots import _move, _stack_for


@pytest.fixture
def published():
    """The `computers` tasks the loop publishes to the broker: (args, eta or None)."""
    found = []

    def note(sender=None, headers=None, **_):
        if sender == COMPUTER_MOVE:
            found.append((tuple(ast.literal_eval(headers["argsrepr"])), headers.get("eta")))

    before_task_publish.connect(note, weak=False)
    yield found
    before_task_publish.disconnect(note)


def _game(players, *, speedbots: bool, computers: int = 1):
    ada = players[0]
    game = lobby.create_game(user=ada, kind="rambots", max_seats=2, options={"speedbots": speedbots})
    for _ in range(computers):
        computer_seats.add_computer(user=ada, game_id=game.pk, strength="easy")
    return game


def test_a_speedbots_computer_waits_a_human_think_time(players, django_capture_on_commit_callbacks, published):
    game = _game(players, speedbots=True)
    game.refresh_from_db()
    kind = kinds.of(game)
    seat = game.seats.get(computer="easy")
    # The goal-stack step is no race: at once.
    assert game.turn == 0 and kind.computer_think_seconds(game, seat) == 0
    game.turn = 1
    waits = set()
    for seed in range(20):
        game.seed = seed
        wait = kind.computer_think_seconds(game, seat)
        assert SPEEDBOTS_THINK[0] * game.move_time <= wait <= SPEEDBOTS_THINK[1] * game.move_time
        assert wait == kind.computer_think_seconds(game, seat)  # the same game, round and seat: the same wait
        waits.add(wait)
    assert len(waits) > 10  # drawn, not one fixed figure


def test_the_loop_sends_the_computers_move_with_its_think_time(players, django_capture_on_commit_callbacks, published):
    """ada against one computer in Speedbots: both set their goal stacks, the goal step resolves, and the deal of
    round 1 sends the computer's task to the broker with the think time as its countdown."""
    ada = players[0]
    game = _game(players, speedbots=True)
    seat = game.seats.get(computer="easy")
    moves.play_computer_turn(game_id=game.pk, turn=0, seat_number=seat.number)
    game.refresh_from_db()
    _move(ada, game, {"turn": 0, "goals": _stack_for(game, ada)})
    published.clear()
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        turns.resolve_turn(game_id=game.pk, turn=0)
    game.refresh_from_db()
    assert game.turn == 1
    expected = kinds.of(game).computer_think_seconds(game, seat)
    assert expected >= SPEEDBOTS_THINK[0] * game.move_time
    (args, eta), = [(args, eta) for args, eta in published if args[1] == 1]
    assert args == (game.pk, 1, seat.number) and eta is not None
    delay = (datetime.fromisoformat(eta) - before).total_seconds()
    assert expected - 1 <= delay <= expected + 5


def test_outside_speedbots_computers_move_at_once(players):
    game = _game(players, speedbots=False)
    game.refresh_from_db()
    game.turn = 1
    assert kinds.of(game).computer_think_seconds(game, game.seats.get(computer="easy")) == 0
    assert kinds.get("roboracer").computer_think_seconds(game, game.seats.get(computer="easy")) == 0


def test_a_person_who_compiles_first_does_not_leave_the_computer_without_a_move(players):
    """The new-user trial: compiling within seconds ended every Speedbots round before the computer's think time,
    and its arrangement as it lies was empty, so it never moved in 63 rounds. A computer lays its pieces out at
    once and holds back only Compile: the round ends with the program it would have compiled."""
    from games.models import Game, Program
    from games.services import moves

    ada = players[0]
    game = _game(players, speedbots=True)
    seat = game.seats.get(computer="easy")
    moves.play_computer_turn(game_id=game.pk, turn=0, seat_number=seat.number)
    game.refresh_from_db()
    _move(ada, game, {"turn": 0, "goals": _stack_for(game, ada)})
    turns.resolve_turn(game_id=game.pk, turn=0)
    game.refresh_from_db()
    assert game.turn == 1 and not Program.objects.filter(seat=seat, turn=1).exists()  # still "thinking"
    kind = kinds.of(game)
    expected = kind.think(game, kind.load(game), seat, None, strength="easy").chips
    assert expected, "the computer has something to play this round"
    assert _move(ada, game, {"turn": 1, "program": [], "compiled": True}).status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.RESOLVING
    assert Program.objects.get(seat=seat, turn=1).chips == list(expected)  # its arrangement, not nothing
