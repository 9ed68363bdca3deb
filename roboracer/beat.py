"""The beat scheduler: Celery's own (PersistentScheduler, the schedule kept in a file), but only one at a time
per Redis. Two schedulers would send `enforce-deadlines` twice a second and every other periodic task twice;
a scheduler left over from a crash, or a second `celery beat` started by mistake, must stand by instead.

The one that schedules holds a Redis lock (redis-py's `Lock`: SET NX with an expiry, renewed by a token-checked
script) that it renews at every tick. The others tick too, but only try to take the lock, once a second. A
scheduler that stops (SIGTERM, Ctrl-C) releases the lock on the way out, so its successor starts at once; one
that is SIGKILLed or loses Redis keeps it at most LOCK_TIMEOUT seconds. While Redis does not answer, nobody
schedules (the broker is in the same Redis, so nothing could be sent anyway)."""

from __future__ import annotations

import logging
import os
import socket
import uuid

import redis
from celery.beat import PersistentScheduler
from django.conf import settings  # lazy: read at first use, after DJANGO_SETTINGS_MODULE is set
from redis.exceptions import LockNotOwnedError

LOCK_KEY = "roboracer:beat-lock"
# Seconds a silent holder keeps the lock; ROBORACER_BEAT_LOCK_SECONDS shortens it for the process tests.
LOCK_TIMEOUT = float(os.environ.get("ROBORACER_BEAT_LOCK_SECONDS") or 10.0)
STANDBY_POLL = 1.0  # seconds between a standing-by scheduler's attempts

logger = logging.getLogger(__name__)


class SingleScheduler(PersistentScheduler):
    def __init__(self, *args, **kwargs):
        self.lock_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5)
        self.lock = self.lock_client.lock(LOCK_KEY, timeout=LOCK_TIMEOUT, thread_local=False)
        self.lock_token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.holding = False
        self._reported = None  # the last state logged, so standing by is said once, not every second
        super().__init__(*args, **kwargs)

    def tick(self, *args, **kwargs) -> float:
        if not self.hold_lock():
            return STANDBY_POLL
        return min(super().tick(*args, **kwargs), LOCK_TIMEOUT / 3)

    def hold_lock(self) -> bool:
        """Renew the lock if this scheduler holds it, else try to take it; True if this one may schedule."""
        try:
            if self.holding:
                try:
                    self.lock.reacquire()
                    return True
                except LockNotOwnedError:
                    self.holding = False
                    self._report("lost", "beat: lost the scheduler lock %s (it expired); standing by", LOCK_KEY)
            if self.lock.acquire(blocking=False, token=self.lock_token):
                self.holding = True
                self._report("holding", "beat: took the scheduler lock %s as %s: this scheduler sends the tasks",
                             LOCK_KEY, self.lock_token)
                return True
            holder = self.lock_client.get(LOCK_KEY)
            self._report("standby", "beat: another scheduler (%s) holds %s; standing by, sending nothing",
                         holder.decode() if holder else "?", LOCK_KEY)
        except redis.RedisError as error:
            self._report("unreachable", "beat: Redis does not answer (%s); sending nothing until it does", error)
        return False

    def _report(self, state: str, message: str, *args) -> None:
        if state != self._reported:
            self._reported = state
            (logger.info if state == "holding" else logger.warning)(message, *args)

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self.holding:
                self.holding = False
                try:
                    self.lock.release()
                except redis.RedisError:  # expired or Redis gone: nothing to hand over
                    pass
