"""WebSocket clients for tests, in process, through the site's whole ASGI application (origin check, session
auth, routing, consumers) on the real channel layer: what a browser's handshake carries, nothing mocked."""

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

SITE_HOST = "127.0.0.1:8000"
SITE_ORIGIN = f"http://{SITE_HOST}"


@database_sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def site_socket(path: str, *, cookie: str | None = None, origin: str | None = SITE_ORIGIN, host: str = SITE_HOST,
                scheme: str = "ws", token: str | None = None) -> WebsocketCommunicator:
    from roboracer.asgi import application

    headers = [(b"host", host.encode("latin1"))]
    if origin is not None:
        headers.append((b"origin", origin.encode("latin1")))
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    if token is not None:  # a personal API token (docs/bot-api.md)
        headers.append((b"authorization", f"Bearer {token}".encode("utf-8", "surrogateescape")))
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["scheme"] = scheme
    name, _, port = host.rpartition(":") if ":" in host else (host, "", "80")
    comm.scope["server"] = (name, int(port))
    return comm


async def send_raw(comm: WebsocketCommunicator, *, text: str | None = None, binary: bytes | None = None) -> None:
    """Any frame, the empty text frame included (send_to refuses that one)."""
    message = {"type": "websocket.receive"}
    if text is not None:
        message["text"] = text
    else:
        message["bytes"] = binary
    await comm.send_input(message)
