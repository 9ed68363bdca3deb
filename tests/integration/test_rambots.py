"""RAMbots on the real stack (issue 21): a person and two computer players through HTTP, the real Celery workers
(the default queue resolves, the `computers` queue thinks) and a real WebSocket; the goal step, then rounds,
each turn's events arriving on the socket; nothing of another player's goal order or program on the person's
socket before it runs."""

import asyncio
import json

import pytest

from tests.integration.client import Player, receive_until, wait_for_computers

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_rambots_game_with_computers_plays_on_the_real_stack(live_stack):
    ada = Player(live_stack.base_url, "ada")
    created = ada.post("/api/games/", {"kind": "rambots", "max_seats": 3, "options": {"speedbots": False}})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    for strength in ("easy", "normal"):
        answer = ada.post(f"/api/games/{game_id}/computers/", {"strength": strength})
        assert answer.status_code == 201, answer.text
    snapshot = ada.get(f"/api/games/{game_id}/")
    assert snapshot["kind"] == "rambots" and snapshot["status"] == "programming" and snapshot["turn"] == 0

    async def play(rounds: int) -> list[dict]:
        ws = await ada.connect(game_id)
        seen = []
        for _ in range(rounds + 1):
            snap = await asyncio.to_thread(ada.get, f"/api/games/{game_id}/")
            if snap["status"] != "programming":
                break
            me = next(p for p in snap["rambots"]["players"] if p["id"] == snap["me"]["bot"])
            if snap["turn"] == 0:
                stack = [next(piece for piece in me["pool"] if piece.endswith(colour))
                         for colour in ("red", "yellow", "green", "blue")]
                body = {"turn": 0, "goals": stack}
            else:
                body = {"turn": snap["turn"], "program": [{"piece": me["pool"][0], "dir": "S"}], "compiled": True}
            answer = await asyncio.to_thread(ada.post, f"/api/games/{game_id}/move/", body)
            assert answer.status_code == 200, answer.text
            seen += await receive_until(ws, lambda m: m.get("kind") in ("turn_dealt", "game_finished"), timeout=90)
            if seen[-1].get("kind") == "game_finished":
                break
        await ws.close()
        return seen

    messages = asyncio.run(play(2))
    resolved = [m for m in messages if m.get("kind") == "turn_resolved"]
    assert [m["data"]["turn"] for m in resolved][:1] == [0]
    assert resolved[0]["data"]["programs"] == {}
    assert any(e["type"] == "goal_stacks_revealed" for e in resolved[0]["data"]["events"])
    if len(resolved) > 1:
        assert set(resolved[1]["data"]["programs"]) == {"1", "2", "3"}  # the computers played the round
        assert any(e["type"] == "instruction" for e in resolved[1]["data"]["events"])
    # Before a turn resolved, nothing on ada's socket carried a computer's stack or program.
    for message in messages:
        if message.get("kind") in ("seat_ready", "turn_executing", "clocks"):
            assert "program" not in json.dumps(message.get("data", {}))
    assert "RAMbots normal computer decided" in live_stack.logs["computers"].read_text()
    # Let the computers finish the turn that waits for ada before the test database is flushed.
    wait_for_computers(live_stack, game_id, 2)
