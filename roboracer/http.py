"""Django's ASGI handler with its middleware chain run in sync mode, in one thread hop per request.

Every view of this site is sync, and so are WhiteNoise and Django's own middleware (MiddlewareMixin runs
each process_request/process_response in a thread of its own in async mode). The stock handler builds an
async chain, so a request went from the event loop to a thread and back for WhiteNoise, for each other
middleware, and again for the view: about ten hops, each waiting for the loop, which at 100 busy games is
also delivering WebSocket events (make bench-site). Here the whole chain, view included, runs in the
request's thread (`thread_sensitive`, within the handler's per-request ThreadSensitiveContext), and the
loop only reads the request and writes the response.
"""

import logging

import django
from asgiref.sync import sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_asgi_application() -> SyncChainASGIHandler:
    django.setup(set_prefix=False)
    return SyncChainASGIHandler()


class ClientErrorAsWarning(logging.Filter):
    """For Django's `django.security.<error>` loggers of request bodies it refuses (too large, too many
    fields or files, a broken multipart form) and of unknown Host headers, and for `django.request`: when the
    client sent something bad and got a 4xx, one WARNING line, not an ERROR or a traceback (docs/site.md,
    "Bad input"). Server errors (5xx) keep their level and traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is None or status >= 500:
            return True
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
