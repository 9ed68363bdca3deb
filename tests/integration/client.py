"""A player of the live site, over plain HTTP (requests) and a real WebSocket (websockets)."""

from __future__ import annotations

import asyncio
import json

import requests
import websockets

from games.models import Game, Program
from tests.helpers import wait_until


class Player:
    def __init__(self, base_url: str, username: str, password: str = "a long passphrase"):
        self.base_url = base_url
        self.username = username
        self.http = requests.Session()
        self.http.get(f"{base_url}/api/auth/csrf/", timeout=10).raise_for_status()
        response = self.post("/api/auth/signup/", {"username": username, "password": password})
        assert response.status_code == 201, response.text

    def post(self, path: str, body: dict | None = None) -> requests.Response:
        token = self.http.cookies.get("csrftoken")
        return self.http.post(f"{self.base_url}{path}", json=body or {}, headers={"X-CSRFToken": token}, timeout=10)

    def get(self, path: str) -> dict:
        response = self.http.get(f"{self.base_url}{path}", timeout=10)
        response.raise_for_status()
        return response.json()

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())

    async def connect(self, game_id: int):
        ws_url = self.base_url.replace("http://", "ws://")
        return await websockets.connect(
            f"{ws_url}/ws/games/{game_id}/",
            additional_headers={"Cookie": self.cookie_header()},
            origin=self.base_url,
        )


async def receive_until(ws, predicate, timeout: float = 30.0) -> list[dict]:
    """Messages in order until one satisfies predicate (included)."""
    messages = []

    async def read():
        while True:
            message = json.loads(await ws.recv())
            messages.append(message)
            if predicate(message):
                return

    await asyncio.wait_for(read(), timeout)
    return messages


def wait_for_computers(stack, game_id: int, count: int, *, strength: str = "", timeout: float = 60) -> None:
    """Wait until the game is over or `count` computer seats (of `strength`, or any) have played its current turn,
    then until the stack's workers have finished every task they had (the computers' moves, then what those
    queued): the test database is flushed after a test, and a worker still writing would deadlock with the
    flush."""
    seats = {"seat__computer": strength} if strength else {"seat__computer__gt": ""}

    def played() -> bool:
        game = Game.objects.get(pk=game_id)
        return game.status == Game.Status.FINISHED or Program.objects.filter(
            seat__game_id=game_id, turn=game.turn, **seats).count() == count

    wait_until(played, "the computers to play the next turn", timeout=timeout)
    stack.caught_up("computers")
    stack.caught_up("celery")
