from django.urls import path

from games.consumers import GameConsumer, NotificationConsumer
from games.lobby_consumer import LobbyConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
