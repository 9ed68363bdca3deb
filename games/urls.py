from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("how-to-play/", views.how_to_play, name="how-to-play"),
    path("puzzles/", views.puzzles, name="puzzles"),
    path("puzzles/<slug:slug>/play/", views.play_puzzle, name="puzzle-play"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/demo/", views.animation_demo, name="game-demo"),
    path("games/practice/", views.practice, name="game-practice"),
    path("games/new/rambots/", views.create_rambots, name="game-new-rambots"),
    path("games/<int:game_id>/join/", views.join, name="game-join"),
    path("games/<int:game_id>/start/", views.start, name="game-start"),
    path("games/<int:game_id>/leave/", views.leave, name="game-leave"),
    path("games/<int:game_id>/cancel/", views.cancel, name="game-cancel"),
    path("games/<int:game_id>/invite/<str:code>/", views.invite, name="game-invite"),
]
