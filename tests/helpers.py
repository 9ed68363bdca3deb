"""Helpers every test area shares (docs/testing.md): a logged-in API client, and waiting on a condition with a
deadline instead of sleeping. tests/conftest.py offers them as fixtures too."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def client_for(user=None, csrf: bool = False):
    """A DRF test client as `user`: authenticated directly, or, with `csrf`, logged in through a session with
    Django's CSRF checks on (as a browser is). No user: anonymous."""
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=csrf)
    if user is not None:
        if csrf:
            client.force_login(user)
        else:
            client.force_authenticate(user)
    return client


def wait_until(predicate: Callable[[], T], what: str, timeout: float = 60.0, interval: float = 0.1,
               output: Path | None = None) -> T:
    """Poll `predicate` every `interval` seconds until it returns something true, and return that; after
    `timeout` seconds fail with `what` (and the tail of `output`, a log file, if given)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            tail = f"\n--- output\n{output.read_text()[-4000:]}" if output else ""
            raise AssertionError(f"timed out: {what}{tail}")
        time.sleep(interval)


def many_players(make_user, count: int, prefix: str = "p") -> list:
    """`count` users named p000, p001, ... (another `prefix` for a second field) with the `make_user` fixture."""
    return [make_user(f"{prefix}{i:03d}") for i in range(count)]
