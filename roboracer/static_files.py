"""WhiteNoise's middleware, answering under ASGI with an asynchronous file iterator.

WhiteNoise 6 answers with a FileResponse over a plain file. Django's ASGI handler can only stream a
synchronous iterator by consuming it in a thread per chunk, and warns in the server log
("StreamingHttpResponse must consume synchronous iterators in order to serve them asynchronously"). Here,
when the request came through ASGI, the same file is read in chunks in a worker thread by an async
iterator, which Django's ASGI handler streams as it is; WSGI (the test client) keeps WhiteNoise's response.
"""

import asyncio

from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse
from whitenoise.middleware import WhiteNoiseMiddleware

CHUNK = 64 * 1024


async def _chunks(file):
    try:
        while chunk := await asyncio.to_thread(file.read, CHUNK):
            yield chunk
    finally:
        file.close()


async def _nothing():  # HEAD and 304: no body, and no synchronous iterator either
    return
    yield


class AsyncFileWhiteNoiseMiddleware(WhiteNoiseMiddleware):
    @staticmethod
    def serve(static_file, request):
        if not isinstance(request, ASGIRequest):
            return WhiteNoiseMiddleware.serve(static_file, request)
        response = static_file.get_response(request.method, request.META)
        http_response = StreamingHttpResponse(_chunks(response.file) if response.file else _nothing(),
                                              status=int(response.status))
        del http_response["content-type"]
        for key, value in response.headers:
            http_response[key] = value
        return http_response
