"""The channel layer: channels_redis's Redis pub/sub layer, with a quieter receive loop.

The stock loop asks its subscribed connection for a message with a 0.1 s timeout, so every web process
wakes ten times a second while nothing happens. A message still arrives the moment Redis pushes it (the
read returns as soon as there is data); the timeout only decides how often an idle process wakes up to ask
again. One second keeps that under Redis's socket timeout (30 s, settings.CHANNEL_LAYERS), so an idle read
never ends in a timeout error, and cuts the idle wake-ups of the loop tenfold (`make bench-site` with
`--idle`; docs/performance.md).

A publish on a connection Redis dropped (Redis restarted, the connection was killed) is sent once more on a new
connection: the pool's connections carry no retry of their own, so the stock layer lost the first publish of
every process after a Redis restart (issue 39, docs/cluster.md). Only a connection error is retried, once: a
timeout may have been published already, and a second failure is raised (the caller logs it; clients resync).
(A connection that broke after Redis took the PUBLISH but before its reply would send it twice: every message of
ours is safe to receive twice, clients drop an event version they have and a snapshot that is not newer.)
"""

from __future__ import annotations

import asyncio
import logging

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close
from redis.exceptions import ConnectionError as RedisConnectionError

logger = logging.getLogger(__name__)

RECEIVE_TIMEOUT = 1.0


class QuietShardConnection(RedisSingleShardConnection):
    async def publish(self, channel, message):
        async with self._lock:
            self._ensure_redis()
            try:
                await self._redis.publish(channel, message)
            except RedisConnectionError as error:
                # redis-py closed the broken connection; the pool connects it again for the second try.
                logger.warning("publish on a dropped Redis connection (%s): sending it again on a new one", error)
                await self._redis.connection_pool.disconnect(inuse_connections=False)
                await self._redis.publish(channel, message)

    async def _do_receiving(self):
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True,
                                                             timeout=RECEIVE_TIMEOUT)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)  # not subscribed yet: the first group_add is under way
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except BaseException:
                logger.exception("Unexpected exception in receive task")
                await asyncio.sleep(1)


class QuietLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [QuietShardConnection(shard.host, self) for shard in self._shards]


class ChannelLayer(RedisPubSubChannelLayer):
    """settings.CHANNEL_LAYERS's backend: RedisPubSubChannelLayer, whose per-event-loop layers use
    QuietShardConnection."""

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = QuietLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
