"""Issue 33, item 11: a request body over MAX_REQUEST_BODY_BYTES is refused with a 413 as it streams in,
by the ASGI application itself (roboracer/body_limit.py), before Django reads or spools it."""

import asyncio
import json

import pytest
from django.conf import settings

from roboracer.asgi import application

CHUNK = 1024 * 1024
HUGE = 200  # chunks: 200 MB, far past any limit


def scope(headers=()):
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": "http", "path": "/api/auth/login/", "raw_path": b"/api/auth/login/", "query_string": b"",
            "root_path": "", "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                                         *headers],
            "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}


async def call(headers, chunks):
    """Run the site's ASGI application on a streamed body; (status, body, chunks it read)."""
    read = 0
    sent = []

    async def receive():
        nonlocal read
        if read < len(chunks):
            read += 1
            return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}
        await asyncio.Event().wait()  # the client stays connected (Django stops listening once it answered)

    async def send(message):
        sent.append(message)

    await application(scope(headers), receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], body, read


class Chunks:
    """`count` chunks of CHUNK bytes, made when asked for (200 MB are never held at once)."""

    def __init__(self, count):
        self.count = count

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        return b"x" * CHUNK


async def test_a_streamed_body_is_refused_as_soon_as_it_passes_the_limit():
    status, body, read = await call((), Chunks(HUGE))
    assert status == 413
    assert read <= settings.MAX_REQUEST_BODY_BYTES // CHUNK + 1 < HUGE
    assert "too large" in json.loads(body)["detail"]


async def test_a_content_length_over_the_limit_is_refused_before_any_body_is_read():
    length = str(HUGE * CHUNK).encode()
    status, _, read = await call([(b"content-length", length)], Chunks(HUGE))
    assert (status, read) == (413, 0)


@pytest.mark.django_db(transaction=True)
async def test_a_body_under_the_limit_reaches_django():
    data = json.dumps({"username": "x", "password": "y" * 1000}).encode()
    status, body, read = await call([(b"content-length", str(len(data)).encode())], [data])
    assert read == 1 and status == 403 and b"CSRF" in body  # Django's own answer, not ours


def test_the_limit_is_a_setting_below_what_django_would_spool():
    assert 0 < settings.MAX_REQUEST_BODY_BYTES <= 16 * 1024 * 1024
