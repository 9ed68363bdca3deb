"""A user-space TCP relay with a settable delay, the cluster's stand-in for netem (this kernel has none): each web
host of `make cluster` reaches PostgreSQL and Redis through one, in its own namespace (docs/cluster.md).

    python -m roboracer.cluster_relay --control FILE LISTEN=TARGET [LISTEN=TARGET ...] -- COMMAND ...

Listens on each LISTEN (host:port), relays every connection to its TARGET, and runs COMMAND (the web host's
server) as its child: it exits with the child, and passes SIGTERM and SIGINT on, so the host is still one
supervised process. Every chunk from the web host towards its target is held for the delay in milliseconds
that FILE holds (0 when it is missing; read every 0.2 s), like netem on the host's way out: each round trip
gains the delay, and order is kept. The way back is not delayed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import time
from pathlib import Path

CHUNK = 65536


class Delay:
    def __init__(self, control: Path):
        self.control = control
        self.seconds = 0.0
        self.read_at = 0.0

    def now(self) -> float:
        moment = time.monotonic()
        if moment - self.read_at > 0.2:
            self.read_at = moment
            try:
                self.seconds = max(float(self.control.read_text().strip() or 0), 0.0) / 1000
            except (OSError, ValueError):
                self.seconds = 0.0
        return self.seconds


async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: Delay | None) -> None:
    """Copy until EOF; with `delay`, each chunk is written once its delay has passed (a queue keeps the order)."""
    queue: asyncio.Queue = asyncio.Queue()

    async def send() -> None:
        while True:
            due, chunk = await queue.get()
            if chunk is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(chunk)
            await writer.drain()
        with contextlib.suppress(OSError):
            writer.write_eof()

    sender = asyncio.create_task(send())
    try:
        while True:
            chunk = await reader.read(CHUNK)
            if not chunk:
                break
            queue.put_nowait((time.monotonic() + (delay.now() if delay else 0.0), chunk))
    except OSError:
        pass
    finally:
        queue.put_nowait((0.0, None))
        with contextlib.suppress(OSError, ConnectionError):
            await sender


async def relay(listen: str, target: str, delay: Delay) -> asyncio.AbstractServer:
    target_host, target_port = target.rsplit(":", 1)

    async def handle(client_reader, client_writer) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(target_host, int(target_port))
        except OSError:
            client_writer.close()
            return
        try:
            await asyncio.gather(pump(client_reader, server_writer, delay), pump(server_reader, client_writer, None),
                                 return_exceptions=True)
        finally:
            for writer in (client_writer, server_writer):
                writer.close()

    host, port = listen.rsplit(":", 1)
    return await asyncio.start_server(handle, host, int(port), reuse_address=True)


async def main_async(args) -> int:
    delay = Delay(Path(args.control))
    servers = [await relay(*pair.split("=", 1), delay) for pair in args.pairs]
    child = await asyncio.create_subprocess_exec(*args.command)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, child.send_signal, signum)
    code = await child.wait()
    for server in servers:
        server.close()
    return code if code >= 0 else 128 - code


def main() -> int:
    argv = sys.argv[1:]
    split = argv.index("--")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--control", required=True)
    parser.add_argument("pairs", nargs="+")
    args = parser.parse_args(argv[:split])
    args.command = argv[split + 1:]
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
