from django.urls import path

from roboracer.pyramid import api, views

urlpatterns = [
    path("pyramid/", views.pyramid_list, name="pyramids"),
    path("pyramid/<slug:slug>/", views.pyramid_page, name="pyramid"),
    path("pyramid/<slug:slug>/join/", views.join, name="pyramid-join"),
    path("pyramid/<slug:slug>/challenge/", views.challenge, name="pyramid-challenge"),
    path("pyramid/<slug:slug>/challenge/confirm/", views.confirm_challenge, name="pyramid-challenge-confirm"),
    path("pyramid/<slug:slug>/challenges/<int:challenge_id>/revoke/", views.revoke, name="pyramid-revoke"),
    path("api/pyramids/", api.PyramidListView.as_view(), name="api-pyramids"),
    path("api/pyramids/<slug:slug>/", api.PyramidDetailView.as_view(), name="api-pyramid"),
    path("api/pyramids/<slug:slug>/join/", api.JoinPyramidView.as_view(), name="api-pyramid-join"),
    path("api/pyramids/<slug:slug>/challenges/", api.ChallengeListView.as_view(), name="api-pyramid-challenges"),
    path("api/pyramids/<slug:slug>/challenges/<int:challenge_id>/revoke/", api.RevokeChallengeView.as_view(),
         name="api-pyramid-revoke"),
]
