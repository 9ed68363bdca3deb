"""A bot account plays through the Bot API with a token (docs/bot-api.md): signed in with a browser's session it
may read the site's pages, but change nothing there except its own session, profile and tokens. The trial of
issue 41 (docs/trials/issue-41) pressed the lobby's "Play against the computer" as a bot account: the game was
made, and then its page refused the bot. The API says the same with its own permission (tokens.PeopleOnSessions).

A middleware, so that every form of every app (lobby, challenges, games, tournaments, the Pyramid, courses) is
covered, including forms added later. Only unsafe requests outside the open paths read the account (the one
query); reads and the API pass untouched, without a thread hop under ASGI."""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.core.exceptions import PermissionDenied

from roboracer.accounts import selectors

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# Log-in, log-out and sign-up; the profile page, its token forms and its bot account form; the API (DRF refuses
# a bot's session there itself, except on the profile and tokens).
OPEN_PATHS = ("/accounts/", "/profile/", "/api/")
MESSAGE = "this is a bot account; it plays through the Bot API with a token, not with a browser's session"


def concerned(request) -> bool:
    return request.method not in SAFE_METHODS and not request.path.startswith(OPEN_PATHS)


def is_bot_session(request) -> bool:
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and selectors.is_bot(user=user))


class BotSessionMiddleware:
    """403 for a bot account's session changing anything on the site's pages (see the module's docstring)."""

    sync_capable = async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        if concerned(request) and is_bot_session(request):
            raise PermissionDenied(MESSAGE)
        return self.get_response(request)

    async def __acall__(self, request):
        if concerned(request) and await sync_to_async(is_bot_session)(request):
            raise PermissionDenied(MESSAGE)
        return await self.get_response(request)
