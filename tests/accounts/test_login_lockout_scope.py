"""Issue 33, item 8: wrong passwords from one address never keep the owner out from another address.
django-axes locks per account and address together, and per address (docs/site.md "Log-in throttling")."""

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

PASSWORD = "correct horse battery"
LIMIT = settings.AXES_FAILURE_LIMIT


def api_login(username, password, address):
    client = APIClient(enforce_csrf_checks=True, REMOTE_ADDR=address)
    client.get("/api/auth/csrf/")
    return client.post("/api/auth/login/", {"username": username, "password": password}, format="json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def form_login(username, password, address):
    return Client(REMOTE_ADDR=address).post("/accounts/login/", {"username": username, "password": password})


def succeeded(response):
    return response.status_code == 200 if response.get("Content-Type") == "application/json" else (
        response.status_code == 302)


@pytest.mark.parametrize("login", [api_login, form_login], ids=["api", "form"])
def test_an_attacker_locks_only_their_own_address_not_the_owner(make_user, login):
    make_user("carol")
    for _ in range(LIMIT):
        login("carol", "wrong", "203.0.113.7")
    assert login("carol", PASSWORD, "203.0.113.7").status_code == 429  # the attacker's address is locked
    assert succeeded(login("carol", PASSWORD, "198.51.100.20"))  # the owner, elsewhere, is not


@pytest.mark.parametrize("login", [api_login, form_login], ids=["api", "form"])
def test_failures_spread_over_addresses_never_lock_the_account(make_user, login):
    make_user("carol")
    for attempt in range(3 * LIMIT):  # fewer than LIMIT from each address
        response = login("carol", "wrong", f"203.0.113.{attempt // (LIMIT - 1)}")
        assert response.status_code != 429
    assert succeeded(login("carol", PASSWORD, "198.51.100.20"))


def test_one_address_is_locked_for_every_account(make_user):
    make_user("carol")
    for attempt in range(LIMIT):
        api_login(f"guess{attempt}", "wrong", "203.0.113.9")
    assert api_login("carol", PASSWORD, "203.0.113.9").status_code == 429
    assert api_login("carol", PASSWORD, "203.0.113.10").status_code == 200
