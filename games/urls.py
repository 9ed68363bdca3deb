from django.urls import path

from games.views import bots, challenges, game, lobby, notices, pages, players

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("games/live/", lobby.live_games, name="live-games"),  # the lobby's featured game and watch list
    path("how-to-play/", pages.how_to_play, name="how-to-play"),
    path("puzzles/", pages.puzzles, name="puzzles"),
    path("notices/", notices.notices, name="notices"),
    path("puzzles/<slug:slug>/play/", pages.play_puzzle, name="puzzle-play"),
    path("puzzles/<slug:slug>/solution/", pages.puzzle_solution, name="puzzle-solution"),
    path("games/<int:game_id>/", game.game_page, name="game"),
    path("games/demo/", pages.animation_demo, name="game-demo"),
    path("games/demo/embed/", pages.demo_embed, name="demo-embed"),  # the landing page's replayed board
    path("games/practice/", lobby.practice, name="game-practice"),
    path("games/new/<slug:kind>/", lobby.create_of_kind, name="game-new-kind"),  # a kind's own create form
    path("games/<int:game_id>/join/", game.join, name="game-join"),
    path("games/<int:game_id>/start/", game.start, name="game-start"),
    path("games/<int:game_id>/leave/", game.leave, name="game-leave"),
    path("games/<int:game_id>/cancel/", game.cancel, name="game-cancel"),
    path("games/<int:game_id>/invite/<str:code>/", game.invite, name="game-invite"),
    path("players/<str:username>/", players.player, name="player"),
    path("profile/bot/", bots.become_bot, name="become-bot"),
    path("challenges/new/", challenges.send, name="challenge-send"),
    path("challenges/<int:challenge_id>/accept/", challenges.accept, name="challenge-accept"),
    path("challenges/<int:challenge_id>/decline/", challenges.decline, name="challenge-decline"),
    path("challenges/<int:challenge_id>/cancel/", challenges.cancel, name="challenge-cancel"),
]
