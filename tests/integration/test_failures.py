"""Failures of the parts around the database: a Celery worker killed in the middle of a resolution, and Redis
restarted during a game. Each test runs its own Redis and processes, so it can break them."""

import asyncio
import json
import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.models import Game, GameEvent, Turn
from tests.conftest import launch
from tests.games.factories import legal_program
from tests.helpers import wait_until
from tests.integration.client import Player, receive_until
from tests.integration.conftest import needs_postgres

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    needs_postgres(),
]


def two_player_game(stack) -> tuple[int, list[Player], list[list[str]]]:
    alice, bob = Player(stack.base_url, "alice"), Player(stack.base_url, "bob")
    game_id = alice.post("/api/games/", {"course": "bolt-bay", "max_seats": 2}).json()["id"]
    assert bob.post(f"/api/games/{game_id}/join/").status_code == 200
    game = Game.objects.get(pk=game_id)
    chips = [legal_program(game, seat.user) for seat in game.seats.order_by("number")]
    return game_id, [alice, bob], chips


def waiting_turn_inserts() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE %s",
            ['INSERT INTO "games_turn"%'],
        )
        return cursor.fetchone()[0]


def test_a_worker_killed_during_a_resolution_leaves_the_turn_resolved_once(private_redis, courses):
    stack = launch("killed", private_redis["url"], beat=True)
    try:
        game_id, (alice, bob), chips = two_player_game(stack)
        # Hold an uncommitted row for turn 1 in another transaction: the worker's own insert of that turn
        # (after it has locked the game and run the engine) waits on it, so the kill lands mid-resolution.
        holding, release = threading.Event(), threading.Event()

        def hold() -> None:
            try:
                with transaction.atomic():
                    Turn.objects.create(game_id=game_id, number=1, seed=0, state_before={}, programs={}, events=[],
                                        state_after={})
                    holding.set()
                    release.wait(120)
                    raise RuntimeError("roll back")
            except RuntimeError:
                pass
            finally:
                connection.close()

        blocker = threading.Thread(target=hold)
        blocker.start()
        assert holding.wait(10)
        assert alice.post(f"/api/games/{game_id}/program/", {"turn": 1, "chips": chips[0]}).status_code == 200
        assert bob.post(f"/api/games/{game_id}/program/", {"turn": 1, "chips": chips[1]}).status_code == 200
        wait_until(lambda: waiting_turn_inserts() == 1, "the worker to block inside its resolution")
        stack.kill("worker")
        release.set()
        blocker.join(30)
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.RESOLVING and not Turn.objects.filter(game_id=game_id).exists()
        # A new worker (with the beat sweep) takes over; make the resolution look stuck at once.
        Game.objects.filter(pk=game_id).update(resolving_since=timezone.now() - timedelta(minutes=1))
        stack.restart_worker()
        wait_until(lambda: Game.objects.get(pk=game_id).turn == 2, "the new worker to resolve the turn")
        # A second resolution would come from a resolve task queued before this one ran (an earlier sweep's),
        # or from one more sweep: the worker runs every task queued so far, then one more sweep, then what
        # that sweep queued. Then a second resolution would show now.
        stack.send_task("games.tasks.sweep_games")
        stack.caught_up()  # every task queued so far has run, the sweep last...
        stack.caught_up()  # ... and so has any resolution the sweep queued
        assert Turn.objects.filter(game_id=game_id).count() == 1
        assert GameEvent.objects.filter(game_id=game_id, kind="turn_resolved").count() == 1
        assert Game.objects.get(pk=game_id).status == Game.Status.PROGRAMMING
    finally:
        stack.stop()


def test_redis_restarted_during_a_game_loses_nothing_and_clients_resync(private_redis, courses):
    stack = launch("redis-restart", private_redis["url"], beat=True)
    try:
        game_id, (alice, bob), chips = two_player_game(stack)

        async def play() -> dict:
            sockets = [await player.connect(game_id) for player in (alice, bob)]
            for ws in sockets:
                assert json.loads(await ws.recv())["type"] == "snapshot"
            answer = await asyncio.to_thread(alice.post, f"/api/games/{game_id}/program/", {"turn": 1, "chips": chips[0]})
            assert answer.status_code == 200
            for ws in sockets:
                await receive_until(ws, lambda m: m.get("kind") == "seat_ready", timeout=10)
            await asyncio.to_thread(private_redis["restart"])  # everything in Redis is gone
            for ws in sockets:
                await ws.close()
            # Clients reconnect and resync from a snapshot: the game is all there.
            sockets = [await player.connect(game_id) for player in (alice, bob)]
            snapshots = [json.loads(await ws.recv()) for ws in sockets]
            assert [s["type"] for s in snapshots] == ["snapshot", "snapshot"]
            assert snapshots[0]["game"]["me"]["program"] == chips[0]
            assert [seat["ready"] for seat in snapshots[1]["game"]["seats"]] == [True, False]
            answer = await asyncio.to_thread(bob.post, f"/api/games/{game_id}/program/", {"turn": 1, "chips": chips[1]})
            assert answer.status_code == 200, answer.text
            # The worker and beat reconnect to the new Redis; the turn resolves (from the task, or the sweep).
            streams = await asyncio.gather(
                *(receive_until(ws, lambda m: m.get("kind") == "turn_dealt", timeout=60) for ws in sockets)
            )
            for ws in sockets:
                await ws.close()
            return {"snapshots": snapshots, "streams": streams}

        seen = asyncio.run(play())
        for snapshot, stream in zip(seen["snapshots"], seen["streams"], strict=True):
            versions = [snapshot["version"]] + [m["version"] for m in stream]
            assert versions == list(range(versions[0], versions[0] + len(versions))), "a gap after the resync"
        assert Turn.objects.filter(game_id=game_id).count() == 1
        game = Game.objects.get(pk=game_id)
        assert game.turn == 2 and game.status == Game.Status.PROGRAMMING
    finally:
        stack.stop()
