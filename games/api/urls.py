from django.urls import path

from games.api import bot, notices, players, prices, test_drive, views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="api-games"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="api-game"),
    path("games/<int:game_id>/join/", views.JoinGameView.as_view(), name="api-game-join"),
    path("games/<int:game_id>/start/", views.StartGameView.as_view(), name="api-game-start"),
    path("puzzles/", views.PuzzleListView.as_view(), name="api-puzzles"),
    path("games/practice/", views.PracticeView.as_view(), name="api-game-practice"),
    path("games/<int:game_id>/computers/", views.ComputersView.as_view(), name="api-game-computers"),
    path("games/<int:game_id>/take-back/", views.TakeBackView.as_view(), name="api-game-take-back"),
    path("games/<int:game_id>/computers/<int:number>/remove/", views.RemoveComputerView.as_view(),
         name="api-game-computer-remove"),
    path("games/<int:game_id>/team/", views.TeamView.as_view(), name="api-game-team"),
    path("games/<int:game_id>/teams/balance/", views.BalanceTeamsView.as_view(), name="api-game-teams-balance"),
    path("games/<int:game_id>/leave/", views.LeaveGameView.as_view(), name="api-game-leave"),
    path("games/<int:game_id>/cancel/", views.CancelGameView.as_view(), name="api-game-cancel"),
    path("games/<int:game_id>/play-again/", views.PlayAgainView.as_view(), name="api-game-play-again"),
    path("games/<int:game_id>/chat/", views.ChatView.as_view(), name="api-game-chat"),
    path("games/<int:game_id>/seats/<int:number>/eject/", views.EjectSeatView.as_view(), name="api-seat-eject"),
    path("games/<int:game_id>/program/", views.ProgramView.as_view(), name="api-game-program"),
    path("games/<int:game_id>/move/", views.MoveView.as_view(), name="api-game-move"),
    path("games/<int:game_id>/scan/", views.ScanView.as_view(), name="api-game-scan"),
    path("games/<int:game_id>/recompile/", views.RecompileView.as_view(), name="api-game-recompile"),
    path("games/<int:game_id>/turns/<int:number>/", views.TurnView.as_view(), name="api-game-turn"),
    path("bot/account/upgrade/", bot.BotUpgradeView.as_view(), name="api-bot-upgrade"),
    path("notices/", notices.NoticesView.as_view(), name="api-notices"),
    path("notices/read/", notices.ReadNoticesView.as_view(), name="api-notices-read"),
    path("players/<str:username>/", players.PlayerView.as_view(), name="api-player"),
    path("courses/<slug:slug>/prices/", prices.CoursePricesView.as_view(), name="api-course-prices"),
    path("courses/<slug:slug>/test-drive/", test_drive.CourseTestDriveView.as_view(), name="api-course-test-drive"),
]
