from django.urls import path

from roboracer.economy import api

api_urlpatterns = [
    path("courses/<slug:slug>/prices/", api.CoursePricesView.as_view(), name="api-course-prices"),
]
