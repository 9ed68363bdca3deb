from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from games.consumers import GameConsumer, NotificationConsumer
from games.lobby_consumer import LobbyConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    # Any other path (including /ws/games/²/: the int converter takes ASCII digits only) is refused at the
    # handshake (HTTP 403) instead of URLRouter raising "No route found", which the ASGI server logs as an
    # error with its traceback.
    re_path(r"", WebsocketDenier.as_asgi()),
]
