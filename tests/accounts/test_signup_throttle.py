"""Issue 33, item 9: sign-up is throttled per client address (docs/site.md "Sign-up throttling").

The counting runs on a fresh in-process cache per test, so each test starts from zero whatever earlier runs
left in Redis; the last test checks that the site itself counts in the shared Redis."""

import uuid

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client, override_settings
from rest_framework.test import APIClient

RATE = 3
PASSWORD = "correct horse battery"


@pytest.fixture
def fresh_counts(request):
    cache = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": request.node.name}
    with override_settings(SIGNUP_RATE=f"{RATE}/h", CACHES={"default": cache, "throttle": cache}):
        caches["throttle"].clear()
        yield


def api_signup(username, address):
    client = APIClient(enforce_csrf_checks=True, REMOTE_ADDR=address)
    client.get("/api/auth/csrf/")
    return client.post("/api/auth/signup/", {"username": username, "password": PASSWORD}, format="json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def form_signup(username, address):
    return Client(REMOTE_ADDR=address).post(
        "/accounts/signup/", {"username": username, "password1": PASSWORD, "password2": PASSWORD})


def accounts():
    return set(get_user_model().objects.values_list("username", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("signup", [api_signup, form_signup], ids=["api", "form"])
def test_past_the_rate_an_address_gets_a_429_and_no_account(signup, fresh_counts):
    created = {201, 302}
    for number in range(RATE):
        assert signup(f"player{number}", "203.0.113.7").status_code in created
    before = accounts()
    refused = signup("one-too-many", "203.0.113.7")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert "Too many sign-ups from this address" in refused.content.decode()
    assert accounts() == before  # nothing was created
    # Another address is not held back by this one.
    assert signup("from-elsewhere", "198.51.100.20").status_code in created


@pytest.mark.django_db
def test_refused_attempts_count_too(fresh_counts):
    """A taken name or a weak password is an attempt as well: probing for names is throttled alike."""
    for _ in range(RATE):
        assert api_signup("", "203.0.113.9").status_code == 400
    assert api_signup("fresh-name", "203.0.113.9").status_code == 429
    assert "fresh-name" not in accounts()


def test_the_count_is_kept_in_the_shared_redis():
    """Every web process must see one count: the throttle's cache is the site's Redis, not a process's memory."""
    throttle = settings.CACHES["throttle"]
    assert throttle["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert throttle["LOCATION"] == settings.REDIS_URL
    assert settings.RATELIMIT_USE_CACHE == "throttle"
    key = f"probe-{uuid.uuid4()}"  # a round trip through the configured cache, on this run's Redis
    caches["throttle"].set(key, 1, 30)
    assert caches["throttle"].incr(key) == 2
    caches["throttle"].delete(key)
