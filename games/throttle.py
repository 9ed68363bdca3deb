"""A token bucket: how often one WebSocket may ask for something costly (a snapshot)."""

import time
from collections.abc import Callable


class TokenBucket:
    """`burst` tokens to start with, refilled at `rate` a second up to `burst`; one per request."""

    def __init__(self, *, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()

    def take(self) -> float:
        """0.0 if a token was taken; else the seconds until one will be there (nothing is taken)."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate
