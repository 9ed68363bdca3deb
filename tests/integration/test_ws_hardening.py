"""The WebSocket hardening against the real server (uvicorn, as the site runs it) and a real client: bad frames
get error frames on an open socket, foreign origins and unknown paths get HTTP 403 at the handshake, and the
server logs no error and no traceback for any of it."""

import asyncio
import json

import pytest
import websockets

from tests.integration.client import Player

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_bad_frames_foreign_origins_and_unknown_paths_against_the_live_server(live_stack, courses):
    alice = Player(live_stack.base_url, "alice")
    created = alice.post("/api/games/", {"course": "tiny-yard", "max_seats": 2})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    web_log = live_stack.logs["web"]
    log_start = web_log.stat().st_size
    url = f"{live_stack.ws_url}/ws/games/{game_id}/"
    cookie = {"Cookie": alice.cookie_header()}

    async def scenario():
        async with await alice.connect(game_id) as ws:  # Origin: the site
            assert json.loads(await ws.recv())["type"] == "snapshot"
            for frame, code in [(b"\x00\xffbinary", "bad_frame"), ("[" * 100_000, "too_large"),
                                ("[" * 4000, "bad_frame"), ("x" * 1_000_000, "too_large"), ("", "bad_frame"),
                                ("not json", "bad_frame"), ('{"type": 5}', "bad_frame"),
                                # a program frame the socket refuses like the POST (docs/api.md)
                                ('{"type": "program", "turn": "\u00b2"}', "invalid")]:
                await ws.send(frame)
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert (reply["type"], reply["code"]) == ("error", code)
            await ws.send(json.dumps({"type": "sync"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "snapshot"

        refused = [(url, f"{live_stack.base_url.rsplit(':', 1)[0]}:1"), (url, "https://evil.example"),
                   (url, live_stack.base_url.replace("http://", "https://")), (url, None),
                   (f"{live_stack.ws_url}/ws/games/%C2%B2/", live_stack.base_url),
                   (f"{live_stack.ws_url}/ws/nowhere/", live_stack.base_url)]
        for target, origin in refused:
            with pytest.raises(websockets.exceptions.InvalidStatus) as refusal:
                await websockets.connect(target, origin=origin, additional_headers=cookie)
            assert refusal.value.response.status_code == 403, (target, origin)

    asyncio.run(scenario())
    with web_log.open() as log:
        log.seek(log_start)
        written = log.read()
    assert "Traceback" not in written and "ERROR" not in written, written[-3000:]
