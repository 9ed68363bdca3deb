"""The cluster workload's client puts events that came out of order back in order (no resync), and resyncs from a
snapshot when the missing version does not come (tests/cluster/workload.py; no cluster needed)."""

import random

from tests.cluster.workload import Client, Run


def event(version: int) -> dict:
    return {"type": "event", "version": version, "kind": "seat_ready", "data": {}}


async def test_events_out_of_order_are_put_back_in_order_and_a_real_gap_resyncs():
    client = Client(Run(state={"url": "http://cluster/"}, games=1, turns=1, think=0), "u", "key", random.Random(1))
    client.game_id = 1
    synced = []
    client.sync = lambda: synced.append(client.version)
    client.version = 6

    # 9 and 10 overtake 8 (published by two web hosts): held, then applied in order once 8 comes; no resync.
    for version in (7, 9, 10):
        client.receive(event(version))
    assert client.version == 7 and sorted(client.held) == [9, 10] and client.gap_timer is not None
    client.receive(event(8))
    assert client.version == 10 and not client.held and client.gap_timer is None
    assert (client.reordered, client.resyncs, synced) == (1, 0, [])
    assert [entry[2] for entry in client.history if entry[1] == "event"] == [7, 8, 9, 10]

    # 11 never comes: when the wait is over (the timer's callback), a gap and one sync from a snapshot.
    client.receive(event(12))
    assert client.gap_timer is not None and not client.resyncing
    client.gap_timer.cancel()
    client.gap_expired()
    assert (client.resyncs, client.resyncing, synced) == (1, True, [10])
    client.receive({"type": "snapshot", "version": 11, "game": {"turn": 1, "status": "programming"}})
    assert client.version == 12 and not client.resyncing and not client.held
    assert [entry[2] for entry in client.history if entry[1] == "event"] == [7, 8, 9, 10, 12]
