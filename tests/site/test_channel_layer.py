"""The channel layer of settings.CHANNEL_LAYERS (roboracer/channel_layer.py) on the real Redis: the Redis pub/sub
layer with a receive loop that waits a second, not a tenth, between polls of an idle connection."""

import asyncio

from channels.layers import get_channel_layer

from roboracer import channel_layer as quiet


async def test_the_site_layer_polls_quietly_and_still_delivers_after_idle_waits():
    layer = get_channel_layer()
    assert isinstance(layer, quiet.ChannelLayer)
    channel = await layer.new_channel()
    other = await layer.new_channel()
    try:
        await layer.group_add("quiet-test", channel)
        await layer.group_add("quiet-test-other", other)
        shards = layer._get_layer()._shards
        assert shards and all(isinstance(shard, quiet.QuietShardConnection) for shard in shards)

        # Two full receive timeouts with nothing published: the loop keeps running, and what is published
        # next reaches the group's member, and only it. The quiet while is what the test is about (a window it
        # sets, as short as two of the loop's waits allow), not a wait for something to happen.
        await asyncio.sleep(2 * quiet.RECEIVE_TIMEOUT + 0.2)
        assert all(shard._receive_task is not None and not shard._receive_task.done() for shard in shards)
        await layer.group_send("quiet-test", {"type": "game.event", "text": "after a quiet while"})
        message = await asyncio.wait_for(layer.receive(channel), timeout=10)
        assert message == {"type": "game.event", "text": "after a quiet while"}
        assert layer._get_layer().channels[other].empty()

        # A group joined while the loop waits gets its messages too.
        await layer.group_add("quiet-test-late", other)
        await layer.group_send("quiet-test-late", {"type": "game.event", "text": "late"})
        assert await asyncio.wait_for(layer.receive(other), timeout=10) == {"type": "game.event", "text": "late"}
    finally:
        await layer.flush()


async def test_a_publish_on_a_connection_redis_dropped_is_sent_again_on_a_new_one():
    """After Redis drops the publishing connection (a restart, CLIENT KILL), the next group_send still arrives:
    the layer publishes once more on a fresh connection instead of losing the message (issue 39: the first
    publish of every process after a Redis restart was lost)."""
    from django.conf import settings
    from redis import asyncio as aioredis

    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    receiver, sender = quiet.ChannelLayer(**config), quiet.ChannelLayer(**config)
    admin = aioredis.Redis.from_url(settings.REDIS_URL)
    channel = await receiver.new_channel()
    try:
        await receiver.group_add("redial-test", channel)
        await sender.group_send("redial-test", {"type": "game.event", "text": "before"})
        assert await asyncio.wait_for(receiver.receive(channel), timeout=10) == {"type": "game.event", "text": "before"}

        # Kill the sender's publishing connection, the one whose last command was a PUBLISH of ours.
        await admin.client_setname("redial-test-admin")
        publishers = [client for client in await admin.client_list()
                      if client["cmd"] == "publish" and client["name"] != "redial-test-admin"]
        mine = sender._get_layer()._shards[0]._redis.connection_pool._in_use_connections | set(
            sender._get_layer()._shards[0]._redis.connection_pool._available_connections)
        # Its connections' ids, asked on each (after `publishers` was read: this changes their last command). By
        # id, not by the client's port: the embedded Redis of `make test` without CI listens on a unix socket.
        ids = set()
        for connection in mine:
            if connection.is_connected:
                await connection.send_command("CLIENT", "ID")
                ids.add(int(await connection.read_response()))
        killed = [client for client in publishers if int(client["id"]) in ids]
        assert len(killed) == 1, (publishers, ids)
        assert await admin.client_kill_filter(_id=killed[0]["id"]) == 1

        await sender.group_send("redial-test", {"type": "game.event", "text": "after"})
        assert await asyncio.wait_for(receiver.receive(channel), timeout=10) == {"type": "game.event", "text": "after"}
    finally:
        await receiver.flush()
        await sender.flush()
        await admin.aclose()
