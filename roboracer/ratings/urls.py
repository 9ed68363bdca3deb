from django.urls import path

from roboracer.ratings import views

# The player page and GET /api/players/<username>/ show games' rows: games/urls.py and games/api/urls.py.
urlpatterns = [
    path("players/", views.leaderboard, name="leaderboard"),
]
