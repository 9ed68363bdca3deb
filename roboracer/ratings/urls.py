from django.urls import path

from roboracer.ratings import api, views

urlpatterns = [
    path("players/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.player, name="player"),
]

api_urlpatterns = [
    path("players/<str:username>/", api.PlayerView.as_view(), name="api-player"),
]
