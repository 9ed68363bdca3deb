"""Personal API tokens on the API (issue 41, docs/bot-api.md): django-rest-knox checks a token (its SHA-512
digest, compared in constant time, its expiry); this adds what a token may do (its scopes), a rate per token,
and the rule that a bot account plays through a token, never through a browser's session.

`Authorization: Bearer <token>` works on the API (DRF) and on the game socket (roboracer/ws_token.py), never on
an HTML page: Django's own views read the session only."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django_ratelimit.core import get_usage
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication
from redis.exceptions import RedisError
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied, Throttled
from rest_framework.permissions import SAFE_METHODS, BasePermission

from roboracer.accounts import selectors
from roboracer.accounts.models import ApiToken

log = logging.getLogger(__name__)

# What a token may do: `read` the API's GET endpoints and the bot streams; `play` everything that changes a
# game (create, join, programs, challenges). A view names what it needs with `token_scope` (below).
SCOPES = {"read": "read games, notices and the bot streams", "play": "create and join games, send programs, "
          "send and answer challenges"}
# Knox's tokens are "rr_" and 64 hex digits; anything much longer is refused before it is hashed.
MAX_TOKEN_CHARS = 100
INVALID = "Invalid token."


class ApiTokenAuthentication(TokenAuthentication):
    """knox's TokenAuthentication for accounts.ApiToken. A header that is not ASCII, or far too long, is the
    same 403 "Invalid token." as a wrong token (knox decoded it as UTF-8 and raised on anything else)."""

    def authenticate(self, request):
        try:
            return super().authenticate(request)
        except (UnicodeError, ValueError):
            raise AuthenticationFailed(INVALID) from None

    def authenticate_credentials(self, token: bytes):
        if len(token) > MAX_TOKEN_CHARS or not token.isascii() or not token.decode().isprintable():
            raise AuthenticationFailed(INVALID)
        return super().authenticate_credentials(token)


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for it: `Authorization: Bearer <token>` (drf-spectacular's knox extension matches only
    knox's own class)."""

    target_class = ApiTokenAuthentication
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Bearer")


def token_user(raw: str) -> tuple | None:
    """(user, token) for a token's text, or None when it is no live token of an active account (the game
    socket's handshake: roboracer/ws_token.py)."""
    try:
        return ApiTokenAuthentication().authenticate_credentials(raw.encode("utf-8", "surrogatepass"))
    except (AuthenticationFailed, UnicodeError, ValueError):
        return None


def still_valid(*, digest: str) -> bool:
    """Whether the token is still there (not revoked), not expired, and its account active: an open stream
    or socket checks it again on every keep-alive tick, so that a revoked token stops at once."""
    now = timezone.now()
    return ApiToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=now), digest=digest,
                                   user__is_active=True).exists()


def has_scope(token, scope: str) -> bool:
    return scope in (getattr(token, "scopes", None) or ())


def _token_key(group, request) -> str:
    return request.auth.handle


def _limit(request, *, group: str, rate: str) -> None:
    """Counts the request against its token's `rate` (django-ratelimit in the shared Redis); past it, a 429
    with Retry-After. Without the cache (Redis down) nothing is counted: nothing else of the site works then."""
    try:
        usage = get_usage(request._request, group=group, key=_token_key, rate=rate, increment=True)  # noqa: SLF001
    except (RedisError, OSError):
        log.warning("token rate limit: the cache is unreachable; this request is not counted")
        return
    if usage is not None and usage["should_limit"]:
        raise Throttled(wait=max(1, int(usage["time_left"])),
                        detail=f"too many requests with this token (at most {rate})")


class TokenScopes(BasePermission):
    """A request authenticated by a token: the view's `token_scope` must be among the token's scopes ("read" for
    GET, HEAD and OPTIONS, "play" otherwise, unless the view says; None: the view takes no token at all, as
    the token pages do), and the token's rates hold (BOT_REQUEST_RATE for every request, BOT_MOVE_RATE too for a
    view with `token_move = True`: programs and moves). A session's requests are not concerned."""

    def has_permission(self, request, view) -> bool:
        token = request.auth
        if not isinstance(token, ApiToken):
            return True
        default = "read" if request.method in SAFE_METHODS else "play"
        scope = getattr(view, "token_scope", default)
        if scope is None:
            raise PermissionDenied("this endpoint does not take API tokens: use the site, signed in")
        if not has_scope(token, scope):
            raise PermissionDenied(f"this token does not have the '{scope}' scope")
        _limit(request, group="accounts.token-requests", rate=settings.BOT_REQUEST_RATE)
        if getattr(view, "token_move", False):
            _limit(request, group="accounts.token-moves", rate=settings.BOT_MOVE_RATE)
        return True


class PeopleOnSessions(BasePermission):
    """A bot account plays through its tokens: with a browser's session it may only reach the views that say
    `bot_session = True` (its profile and its tokens). One read of the profile, for session requests only."""

    message = "a bot account plays through the Bot API with a token (docs/bot-api.md), not with a browser's session"

    def has_permission(self, request, view) -> bool:
        if isinstance(request.auth, ApiToken) or getattr(view, "bot_session", False):
            return True
        user = request.user
        return not (user and user.is_authenticated and selectors.is_bot(user=user))


# The rules above, for a view that names its own permission classes (a course's reads open to everyone).
TOKEN_RULES = (TokenScopes, PeopleOnSessions)
