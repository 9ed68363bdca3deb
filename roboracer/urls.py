from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView

from roboracer import api_docs, health
from roboracer.accounts.urls import api_urlpatterns as accounts_api
from roboracer.courses.urls import api_urlpatterns as courses_api

handler404 = "roboracer.pages.page_not_found"
handler403 = "roboracer.pages.permission_denied"

urlpatterns = [
    path("admin/", admin.site.urls),
    # Browsers and crawlers ask for /favicon.ico whatever the page links: the SVG icon (any modern browser).
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Redoc from our own static files and no web fonts: the docs page works offline (roboracer/api_docs.py).
    path("api/docs/", api_docs.RedocView.as_view(url_name="schema"), name="api-docs"),
    path("api/docs/redoc.standalone.js", api_docs.redoc_bundle, name="api-docs-redoc"),
    path("api/health/", health.health, name="health"),  # the load balancer's health check (roboracer/health.py)
    path("api/", include(accounts_api)),
    path("api/", include(courses_api)),
    path("api/", include("games.api.urls")),
    path("", include("roboracer.accounts.urls")),
    path("", include("roboracer.courses.urls")),
    path("", include("roboracer.ratings.urls")),
    path("", include("games.urls")),
    path("", include("roboracer.tournaments.urls")),
    path("", include("roboracer.pyramid.urls")),
]
