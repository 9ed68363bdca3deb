"""The token bucket behind the per-socket sync limit, on a clock the test moves."""

import pytest

from games.throttle import TokenBucket


def test_a_burst_then_the_rate_and_never_more_than_the_burst_saved_up():
    now = [100.0]
    bucket = TokenBucket(rate=2.0, burst=4, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [0.0] * 4
    assert bucket.take() == pytest.approx(0.5)  # one token comes in half a second
    now[0] += 0.25
    assert bucket.take() == pytest.approx(0.25)  # a refused request takes nothing
    now[0] += 0.25
    assert bucket.take() == 0.0
    assert bucket.take() == pytest.approx(0.5)
    now[0] += 3600  # an idle hour saves up the burst, no more
    assert [bucket.take() for _ in range(5)][-2:] == [0.0, pytest.approx(0.5)]
