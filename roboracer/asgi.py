"""ASGI entry point: Django for HTTP, Channels for the game WebSockets."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")

from roboracer import gc_tuning  # noqa: E402
from roboracer.http import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from roboracer.body_limit import BodyLimitMiddleware  # noqa: E402
from roboracer.tournaments.routing import websocket_urlpatterns as tournament_websockets  # noqa: E402
from roboracer.ws_origin import SameOriginValidator  # noqa: E402
from roboracer.ws_token import TokenAuthMiddleware  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Bodies over MAX_REQUEST_BODY_BYTES are refused as they stream in (roboracer/body_limit.py).
        "http": BodyLimitMiddleware(django_asgi_app),
        # The games' routes end with a catch-all that refuses any other path, so the tournaments' come first.
        # Origin checked like Django's CSRF check (scheme, host and port): roboracer/ws_origin.py. A personal API
        # token in the Authorization header stands for the session (roboracer/ws_token.py, docs/bot-api.md).
        "websocket": SameOriginValidator(AuthMiddlewareStack(
            TokenAuthMiddleware(URLRouter(tournament_websockets + websocket_urlpatterns)))),
    }
)

gc_tuning.settle()
