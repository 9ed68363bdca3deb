"""One REDIS_URL spelled for each client, and the database each pytest-xdist worker takes on it."""

from __future__ import annotations

import pytest

from roboracer.redis_url import kombu_url, socket_path
from tests.testenv import redis_url_for_worker


def test_kombu_spells_a_unix_socket_and_its_database():
    assert kombu_url("unix:///srv/var/redis.sock") == "redis+socket:///srv/var/redis.sock"
    assert kombu_url("unix:///srv/var/redis.sock?db=3") == "redis+socket:///srv/var/redis.sock?virtual_host=3"
    assert kombu_url("redis://127.0.0.1:6379/2") == "redis://127.0.0.1:6379/2"
    assert socket_path("unix:///srv/var/redis.sock?db=3") == "/srv/var/redis.sock"


def test_each_worker_takes_the_database_after_the_runs_own():
    assert redis_url_for_worker("redis://127.0.0.1:6379/0", 0) == "redis://127.0.0.1:6379/1"
    assert redis_url_for_worker("redis://127.0.0.1:6379/3", 1) == "redis://127.0.0.1:6379/5"
    assert redis_url_for_worker("redis://127.0.0.1:6379", 1) == "redis://127.0.0.1:6379/2"
    assert redis_url_for_worker("unix:///srv/var/test-redis.sock", 0) == "unix:///srv/var/test-redis.sock?db=1"
    assert redis_url_for_worker("unix:///srv/var/test-redis.sock?db=2", 1) == "unix:///srv/var/test-redis.sock?db=4"


def test_a_worker_beyond_the_sixteen_databases_is_refused():
    with pytest.raises(pytest.UsageError, match="no Redis database 16"):
        redis_url_for_worker("redis://127.0.0.1:6379/14", 1)
