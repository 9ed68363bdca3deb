"""Log-in throttling with django-axes: per account and address, and per client address, through the API and the form,
a 429 with Retry-After; a success forgets the failures; after the cool-off log-ins work again."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

PASSWORD = "correct horse battery"
LIMIT = settings.AXES_FAILURE_LIMIT


def api_login(username, password, address="10.0.0.1"):
    client = APIClient(enforce_csrf_checks=True, REMOTE_ADDR=address)
    client.get("/api/auth/csrf/")
    return client.post("/api/auth/login/", {"username": username, "password": password}, format="json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def form_login(username, password, address="10.0.0.1"):
    return Client(REMOTE_ADDR=address).post("/accounts/login/", {"username": username, "password": password})


def succeeded(response):
    return response.status_code == 200 if response.get("Content-Type") == "application/json" else (
        response.status_code == 302)


@pytest.fixture
def accounts(make_user):
    return make_user("carol"), make_user("dave")


# Per account from any address is no lock any more (issue 33, item 8): tests/accounts/test_login_lockout_scope.py.


@pytest.mark.parametrize("login", [api_login, form_login], ids=["api", "form"])
def test_failures_from_one_address_lock_it_for_any_account(accounts, login):
    for attempt in range(LIMIT - 1):
        assert login(f"nobody{attempt}", "wrong", address="10.0.3.1").status_code in (200, 400)
    locked = login("someone", "wrong", address="10.0.3.1")
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert login("dave", PASSWORD, address="10.0.3.1").status_code == 429
    assert succeeded(login("dave", PASSWORD, address="10.0.3.2"))


def test_the_api_answers_json_and_the_form_a_page(accounts):
    for _ in range(LIMIT):
        api = api_login("carol", "wrong")
    assert api.status_code == 429 and api["Content-Type"] == "application/json"
    assert "try again in 15 minutes" in api.json()["detail"]
    page = form_login("carol", "wrong")  # the same address: its failures lock the form too
    assert page.status_code == 429 and page["Content-Type"].startswith("text/html")
    assert 'id="locked-out"' in page.content.decode()


def test_a_success_forgets_the_failures(accounts):
    for _ in range(LIMIT - 1):
        api_login("carol", "wrong")
    assert api_login("carol", PASSWORD).status_code == 200
    for _ in range(LIMIT - 1):
        assert api_login("carol", "wrong").status_code == 400
    assert api_login("carol", PASSWORD).status_code == 200


def test_log_ins_work_again_after_the_cool_off(accounts):
    for _ in range(LIMIT):
        api_login("carol", "wrong")
    assert api_login("carol", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    assert api_login("carol", PASSWORD).status_code == 200


def test_the_limit_and_cool_off_come_from_the_environment(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "LOGIN_FAILURE_LIMIT": "3", "LOGIN_COOLOFF_MINUTES": "2.5",
           "DJANGO_SETTINGS_MODULE": "roboracer.settings"}
    code = "import django; django.setup(); from django.conf import settings as s; " \
           "print(s.AXES_FAILURE_LIMIT, s.AXES_COOLOFF_TIME.total_seconds())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["3", "150.0"]
