"""The HTTP side of a bot: JSON calls with the token, and the two NDJSON streams (docs/bot-api.md).

A stream yields each object as it comes (keep-alive blank lines are read and skipped). When its connection
breaks (the server restarted, the network dropped it), the client connects again with `since` set to the last
id or version it yielded, so nothing is missed and nothing is seen twice. A stream the server ends (the game
is over) stops the iteration."""

from __future__ import annotations

import http.client
import json
import logging
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

log = logging.getLogger("roboracer_bot")

ENDED = ("finished", "cancelled")
BROKEN = (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError, OSError)


class ApiError(Exception):
    """The server refused a request: its status and its `detail`."""

    def __init__(self, status: int, detail: str):
        super().__init__(f"{status}: {detail}")
        self.status, self.detail = status, detail


class Client:
    def __init__(self, base_url: str, token: str, *, timeout: float = 60.0, retry_for: float = 120.0):
        """`timeout`: seconds without a byte before a stream counts as broken (the server sends a blank line every
        few seconds); `retry_for`: how long to keep reconnecting a broken stream before giving up."""
        self.base_url, self.token, self.timeout, self.retry_for = base_url.rstrip("/"), token, timeout, retry_for

    # -- plain calls ---------------------------------------------------------------------------------------
    def _open(self, method: str, path: str, body: dict | None = None, *, timeout: float | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Accept": "application/json, application/x-ndjson",
            **({"Content-Type": "application/json"} if data is not None else {})})
        try:
            return urllib.request.urlopen(request, timeout=timeout or self.timeout)  # noqa: S310 - the site's URL
        except urllib.error.HTTPError as error:
            try:
                detail = json.loads(error.read() or b"{}").get("detail", "")
            except ValueError:
                detail = ""
            raise ApiError(error.code, detail or error.reason) from None

    def call(self, method: str, path: str, body: dict | None = None):
        with self._open(method, path, body) as response:
            text = response.read()
        return json.loads(text) if text else None

    def me(self) -> str:
        """This token's username."""
        return self.call("GET", "/api/profile/")["username"]

    def game_state(self, game_id: int) -> dict:
        return self.call("GET", f"/api/games/{game_id}/")

    def send_program(self, game: dict, chips, reboot: bool = False) -> dict:
        """The program for the snapshot's turn (POST /api/games/<id>/program/)."""
        return self.call("POST", f"/api/games/{game['id']}/program/",
                         {"turn": game["turn"], "chips": list(chips), "reboot": reboot})

    def resign(self, game_id: int) -> dict:
        return self.call("POST", f"/api/games/{game_id}/leave/")

    def accept(self, challenge_id: int) -> dict:
        return self.call("POST", f"/api/challenges/{challenge_id}/accept/")

    def decline(self, challenge_id: int, reason: str = "") -> dict:
        return self.call("POST", f"/api/challenges/{challenge_id}/decline/", {"reason": reason})

    def challenge(self, player: str, **settings) -> dict:
        """Challenge `player` to a game with POST /api/games/'s settings (course=..., lives=..., ...)."""
        return self.call("POST", "/api/challenges/", {"player": player, **settings})

    @staticmethod
    def my_move(game: dict | None) -> bool:
        """The snapshot asks me for a program: a turn being programmed, my robot in, nothing sent yet."""
        me = (game or {}).get("me")
        return bool(game and game.get("status") == "programming" and me and not me.get("ejected")
                    and me.get("program") is None and me.get("hand"))

    # -- streams -------------------------------------------------------------------------------------------
    def _lines(self, path: str, since: int | None) -> Iterator[dict]:
        query = "" if since is None else "?" + urllib.parse.urlencode({"since": since})
        with self._open("GET", path + query) as response:
            for raw in response:
                line = raw.strip()
                if line:
                    yield json.loads(line)

    def _follow(self, path: str, position, since: int | None, final=lambda message: False) -> Iterator[dict]:
        """The stream at `path`, connected again from the last position after a break. It stops when the
        server ends it after a `final` message (the game's end, an error line); a stream that stops before
        (a server going away may close it cleanly) is a break like any other."""
        broken_since, done = None, False
        while not done:
            try:
                for message in self._lines(path, since):
                    broken_since = None
                    since = position(message, since)
                    done = done or final(message)
                    yield message
                if not done:
                    raise ConnectionError("the stream ended early")
            except ApiError:
                raise
            except BROKEN as error:
                now = time.monotonic()
                broken_since = broken_since or now
                if now - broken_since > self.retry_for:
                    raise
                log.info("stream %s broke (%s); connecting again from %s", path, error, since)
                time.sleep(min(2.0, 0.2 + (now - broken_since) / 5))

    def events(self, since: int = 0) -> Iterator[dict]:
        """My account's events (challenges, invitations, game starts and ends), each with its `id`."""
        return self._follow("/api/bot/events/", lambda message, last: message.get("id", last), since,
                            lambda message: message.get("type") == "error")

    def game(self, game_id: int, since: int | None = None) -> Iterator[dict]:
        """A game as I see it: snapshots and events (the game socket's frames), until it ends."""

        def position(message: dict, last):
            return message.get("version", last) if message.get("type") in ("snapshot", "event") else last

        def final(message: dict) -> bool:
            return (message.get("type") == "error" or message.get("kind") in ("game_finished", "game_cancelled")
                    or (message.get("type") == "snapshot" and message["game"].get("status") in ENDED))

        return self._follow(f"/api/bot/games/{game_id}/stream/", position, since, final)
