from django.urls import path

from roboracer.tournaments import api, views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/new/", views.new, name="tournament-new"),
    path("tournaments/mine/", views.mine, name="tournaments-mine"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/register/", views.register, name="tournament-register"),
    path("tournaments/<int:tournament_id>/withdraw/", views.withdraw, name="tournament-withdraw"),
    path("tournaments/<int:tournament_id>/organise/", views.organise, name="tournament-organise"),
    path("api/tournaments/", api.TournamentListView.as_view(), name="api-tournaments"),
    path("api/tournaments/<int:tournament_id>/", api.TournamentDetailView.as_view(), name="api-tournament"),
    path("api/tournaments/<int:tournament_id>/standings/", api.StandingsView.as_view(), name="api-tournament-standings"),
    path("api/tournaments/<int:tournament_id>/register/", api.RegisterView.as_view(), name="api-tournament-register"),
    path("api/tournaments/<int:tournament_id>/withdraw/", api.WithdrawView.as_view(), name="api-tournament-withdraw"),
    path("api/tournaments/<int:tournament_id>/start/", api.StartView.as_view(), name="api-tournament-start"),
    path("api/tournaments/<int:tournament_id>/pause/", api.PauseView.as_view(), name="api-tournament-pause"),
    path("api/tournaments/<int:tournament_id>/resume/", api.ResumeView.as_view(), name="api-tournament-resume"),
    path("api/tournaments/<int:tournament_id>/end/", api.EndView.as_view(), name="api-tournament-end"),
    path("api/tournaments/<int:tournament_id>/extend/", api.ExtendView.as_view(), name="api-tournament-extend"),
    path("api/tournaments/<int:tournament_id>/entries/<int:entry_id>/disqualify/", api.DisqualifyView.as_view(),
         name="api-tournament-disqualify"),
    path("api/tournaments/<int:tournament_id>/entries/<int:entry_id>/replace/", api.ReplaceView.as_view(),
         name="api-tournament-replace"),
]
