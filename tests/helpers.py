"""Helpers every test area shares (docs/testing.md): a logged-in API client, and waiting on a condition with a
deadline instead of sleeping. tests/conftest.py offers them as fixtures too."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
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
               output: Path | Mapping[str, Path] | None = None,
               pause: Callable[[float], object] = time.sleep) -> T:
    """Poll `predicate` every `interval` seconds until it returns something true, and return that; after
    `timeout` seconds fail with `what` (and the tail of `output`: a log file, or several by name).

    `pause` waits between polls. Playwright's sync API delivers a page's events (requests, socket frames seen
    by a route) only while one of its calls runs: a test polling what such events record passes
    `pause=lambda seconds: page.wait_for_timeout(seconds * 1000)`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s: {what}{_tails(output)}")
        pause(interval)


def _tails(output: Path | Mapping[str, Path] | None) -> str:
    if output is None:
        return ""
    if isinstance(output, Path):
        return f"\n--- output\n{output.read_text()[-4000:]}"
    return "".join(f"\n--- {name}\n{path.read_text()[-3000:]}" for name, path in output.items())


def many_players(make_user, count: int, prefix: str = "p") -> list:
    """`count` users named p000, p001, ... (another `prefix` for a second field) with the `make_user` fixture."""
    return [make_user(f"{prefix}{i:03d}") for i in range(count)]


PASSWORD = "correct horse battery"  # make_user's (tests/conftest.py)


def log_in(page, base: str, username: str) -> None:
    """Log a make_user player in through the site's own log-in page in a Playwright page; back at the lobby."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_url(f"{base}/")
