"""Sign-up attempts counted per client address (django-ratelimit on the shared Redis cache, docs/site.md
"Sign-up throttling"): past SIGNUP_RATE, sign-ups from that address get a 429 with Retry-After."""

import logging

from django.conf import settings
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
GROUP = "accounts.signup"


def _address(group, request) -> str:
    """The client address (the ASGI peer); a request without one (a test client, a unix socket) is counted
    under one shared key rather than failing."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def wait_seconds(request) -> int | None:
    """Counts this sign-up attempt against its address; the seconds to wait when the address is past its
    rate, else None. Every attempt counts, a refused name or password too (it also stops probing for names).
    Without the cache (Redis down) sign-ups are not throttled: nothing else of the site works then either."""
    try:
        usage = get_usage(request, group=GROUP, key=_address, rate=settings.SIGNUP_RATE, method="POST", increment=True)
    except (RedisError, OSError):
        log.warning("sign-up throttle: the cache is unreachable; this sign-up is not counted")
        return None
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


def message(seconds: int) -> str:
    minutes = max(1, -(-seconds // 60))
    return (f"Too many sign-ups from this address: try again in {minutes} minute{'s' if minutes != 1 else ''}.")
