"""Computer players on the real stack: the moves go through Redis to the `computers` queue's own worker (a
separate process), are checked by the same service as a person's, and the turn resolves on the default
queue's worker; the person only ever sends their own program."""

import asyncio

import pytest

from games.models import Game, GameEvent, Program, Turn
from tests.integration.client import Player, receive_until, wait_for_computers

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_practice_game_plays_turns_with_computers_from_their_own_worker(live_stack, courses):
    alice = Player(live_stack.base_url, "alice")
    created = alice.post("/api/games/practice/", {"course": "bolt-bay", "opponents": 2, "strength": "normal"})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    snapshot = alice.get(f"/api/games/{game_id}/")
    assert [seat["computer"] for seat in snapshot["seats"]] == [None, "normal", "normal"]

    async def play(turns: int) -> list[dict]:
        ws = await alice.connect(game_id)
        seen = []
        for turn in range(1, turns + 1):
            snap = await asyncio.to_thread(alice.get, f"/api/games/{game_id}/")
            if snap["status"] != "programming":
                break
            me = snap["me"]
            hand = list(me["hand"])
            frozen = {f["register"]: f["chip"] for f in me["frozen"]}
            program = [frozen[register] if register in frozen else hand.pop(0) for register in range(5)]
            answer = await asyncio.to_thread(alice.post, f"/api/games/{game_id}/program/",
                                             {"turn": turn, "chips": program})
            assert answer.status_code == 200, answer.text
            seen += await receive_until(
                ws, lambda m: m.get("kind") in ("turn_dealt", "game_finished"), timeout=60
            )
            if seen[-1].get("kind") == "game_finished":
                break
        await ws.close()
        return seen

    events = asyncio.run(play(3))
    resolved = [m for m in events if m.get("kind") == "turn_resolved"]
    assert len(resolved) >= 1
    for message in resolved:
        assert set(message["data"]["programs"]) == {"1", "2", "3"}  # the computers' programs were played
    # The computers' programs were sent by the computers' worker (its log names each decision), never by the
    # person, and each went through the same checks: stored, then resolved.
    log = live_stack.logs["computers"].read_text()
    assert "computer decided with" in log
    assert Program.objects.filter(seat__game_id=game_id, seat__computer="normal").count() >= 2 * len(resolved)
    assert Turn.objects.filter(game_id=game_id).count() == len(resolved)
    assert not GameEvent.objects.filter(game_id=game_id, kind="timer_expired").exists()
    assert Game.objects.get(pk=game_id).rated is False
    # Let the computers finish the turn that waits for alice: the test database is flushed next, and a worker
    # still writing would deadlock with the flush.
    wait_for_computers(live_stack, game_id, 2, strength="normal")
