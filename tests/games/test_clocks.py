"""The clock arithmetic of 003 "Time Limits", on plain objects (no database)."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from games import clocks

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def seat(move=120.0, game=600.0):
    return SimpleNamespace(number=1, move_left=move, game_left=game, clock_started_at=None, deadline=None,
                           expired=False)


def test_move_time_runs_down_before_game_time():
    s = seat()
    clocks.start(s, T0)
    assert s.deadline == T0 + timedelta(seconds=720)
    assert clocks.left_at(s, T0 + timedelta(seconds=100)) == clocks.Left(20, 600)
    assert clocks.left_at(s, T0 + timedelta(seconds=150)) == clocks.Left(0, 570)
    assert clocks.left_at(s, T0 + timedelta(seconds=9999)) == clocks.Left(0, 0)
    assert not clocks.expired_at(s, T0 + timedelta(seconds=719))
    assert clocks.expired_at(s, T0 + timedelta(seconds=720))


def test_stopped_clock_keeps_its_values():
    s = seat()
    clocks.start(s, T0)
    clocks.stop(s, T0 + timedelta(seconds=150))
    assert (s.move_left, s.game_left, s.clock_started_at, s.deadline) == (0, 570, None, None)
    assert clocks.left_at(s, T0 + timedelta(days=3)) == clocks.Left(0, 570)
    assert not clocks.expired_at(s, T0 + timedelta(days=3))


def test_reload_to_maximum_while_an_opponent_thinks():
    s = seat(move=10, game=500)
    clocks.reload(s, maximum=120, opponents_thinking=True)
    assert s.move_left == 120


def test_reload_by_half_up_to_maximum_when_all_are_ready():
    s = seat(move=10, game=500)
    clocks.reload(s, maximum=120, opponents_thinking=False)
    assert s.move_left == 70
    clocks.reload(s, maximum=120, opponents_thinking=False)
    assert s.move_left == 120  # capped at the maximum, not 130


def test_public_view_rounds_and_flags():
    s = seat(move=0, game=0)
    clocks.start(s, T0)
    view = clocks.public(s, T0)
    assert view == {"number": 1, "move_left": 0, "game_left": 0, "clock_running": True, "expired": True}
