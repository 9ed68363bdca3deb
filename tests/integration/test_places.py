"""The last turn of a game through every layer (HTTP, Celery worker, engine, database, channel layer,
WebSocket): the finishing events and every viewer's snapshot carry each bot's final place."""

import asyncio
import json

import pytest

from games.models import Hand
from tests.integration.client import Player, receive_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_the_finishing_turn_brings_the_final_places_to_every_socket_and_snapshot(live_stack, courses):
    alice, bob, carl = (Player(live_stack.base_url, name) for name in ("alice", "bob", "carl"))
    created = alice.post("/api/games/", {"course": "tiny-yard", "max_seats": 2, "lives": 1})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert bob.post(f"/api/games/{game_id}/join/").status_code == 200
    assert alice.get(f"/api/games/{game_id}/")["places"] is None
    # Tiny Yard's starts face north on the south edge: bob backs off the course with his only life.
    Hand.objects.filter(seat__game_id=game_id, turn=1).update(chips=["B", "L", "R", "L", "R", "U", "1", "2", "3"])
    places = {"1": 1, "2": 2}

    async def play():
        sockets = [await player.connect(game_id) for player in (alice, bob, carl)]
        for ws in sockets:
            assert json.loads(await ws.recv())["type"] == "snapshot"
        for player, chips in ((alice, ["L", "R", "L", "R", "U"]), (bob, ["B", "L", "R", "L", "R"])):
            response = await asyncio.to_thread(player.post, f"/api/games/{game_id}/program/", {"turn": 1, "chips": chips})
            assert response.status_code == 200, response.text
        finished = lambda m: m.get("kind") == "game_finished"  # noqa: E731
        streams = await asyncio.gather(*(receive_until(ws, finished) for ws in sockets))
        for ws in sockets:
            await ws.close()
        return streams

    for stream in asyncio.run(play()):
        events = {m["kind"]: m["data"] for m in stream if m.get("type") == "event"}
        assert events["turn_resolved"]["places"] == places
        assert events["game_finished"] == {"winner_seat": 1, "places": places}
    for player in (alice, bob, carl):
        snapshot = player.get(f"/api/games/{game_id}/")
        assert snapshot["status"] == "finished" and snapshot["winner"] == "1" and snapshot["places"] == places
    assert alice.get(f"/api/games/{game_id}/turns/1/")["after"]["places"] == places
