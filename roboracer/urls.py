from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from roboracer.accounts.urls import api_urlpatterns as accounts_api
from roboracer.courses.urls import api_urlpatterns as courses_api

handler404 = "roboracer.pages.page_not_found"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Redoc from our own static files and no web fonts: the docs page works offline.
    path("api/docs/", SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html"), name="api-docs"),
    path("api/", include(accounts_api)),
    path("api/", include(courses_api)),
    path("api/", include("games.api.urls")),
    path("", include("roboracer.accounts.urls")),
    path("", include("roboracer.courses.urls")),
    path("", include("games.urls")),
]
