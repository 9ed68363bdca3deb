"""Bot accounts and their tokens for the Bot API's tests, through the real services."""

import itertools

from rest_framework.test import APIClient

from games.services import bots
from roboracer.accounts import services as account_services

TOKEN_NUMBERS = itertools.count(1)


def token_for(user, scopes=("play", "read")) -> str:
    """A new token of the account's (each with a name of its own: an account's live tokens' names differ)."""
    _, text = account_services.create_token(user=user, name=f"test {next(TOKEN_NUMBERS)}", scopes=list(scopes),
                                            expiry_days=0)
    return text


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def make_bot(make_user, name: str):
    """A fresh account made a bot account, with a token of both scopes: (user, token)."""
    user = make_user(name)
    bots.become_bot(user=user)
    return user, token_for(user)


class StreamReader:
    """An NDJSON stream read line by line through Django's AsyncClient (the site's ASGI handler in process):
    `await next()` is the next object, or "" for a keep-alive blank line; `ended` once the server closed it."""

    def __init__(self, response):
        assert response.status_code == 200, response.content if not response.streaming else response.status_code
        assert response["Content-Type"] == "application/x-ndjson"
        self.response = response
        self.chunks = response.streaming_content.__aiter__()
        self.ended = False

    async def next(self, timeout: float = 10):
        import asyncio
        import json

        try:
            chunk = await asyncio.wait_for(self.chunks.__anext__(), timeout)
        except StopAsyncIteration:
            self.ended = True
            return None
        text = chunk.decode()
        assert text.endswith("\n") and text.count("\n") == 1, text
        return json.loads(text) if text.strip() else ""

    async def until(self, predicate, timeout: float = 10, limit: int = 200) -> tuple[dict, list]:
        """Read until a line satisfies `predicate`: (that line, every line read on the way, it included)."""
        seen = []
        for _ in range(limit):
            line = await self.next(timeout)
            assert line is not None, f"the stream ended before: {seen[-5:]}"
            seen.append(line)
            if line and predicate(line):
                return line, seen
        raise AssertionError(f"not within {limit} lines: {seen[-5:]}")

    async def close(self) -> None:
        await self.chunks.aclose()


async def open_stream(path: str, token: str) -> StreamReader:
    from django.test import AsyncClient

    return StreamReader(await AsyncClient().get(path, headers={"Authorization": f"Bearer {token}"}))
