"""An ASGI middleware that refuses a request body over settings.MAX_REQUEST_BODY_BYTES as it streams in.

Django's ASGI handler reads the whole body, spooling it to a temporary file, before any middleware or view
runs, and DATA_UPLOAD_MAX_MEMORY_SIZE is only checked when the view reads it: a client could make every
request write hundreds of megabytes to the disk. Here a Content-Length over the limit is answered 413 before
a byte of the body is read, and a body without one (chunked) is counted as its chunks arrive: past the limit
Django is told that the client went away (it stops reading and answers nothing) and the client gets the 413.
WebSocket frames have their own limit (uvicorn's --ws-max-size; docs/site.md "Request size").
"""

from __future__ import annotations

import json

from django.conf import settings


def _content_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send, limit: int) -> None:
    body = json.dumps({"detail": f"request body too large: at most {limit} bytes"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimitMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = settings.MAX_REQUEST_BODY_BYTES
        length = _content_length(scope)
        if length is not None and length > limit:
            return await _refuse(send, limit)
        received = 0
        too_large = False
        started = False

        async def limited_receive():
            nonlocal received, too_large
            if too_large:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    too_large = True
                    return {"type": "http.disconnect"}  # Django stops reading and answers nothing
            return message

        async def watched_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, limited_receive, watched_send)
        if too_large and not started:
            await _refuse(send, limit)
