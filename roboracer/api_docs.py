"""The API docs page (/api/docs/): Redoc from drf-spectacular-sidecar's static files, with nothing fetched
from outside the site.

Redoc's bundle shows Redocly's logo in the sidebar from https://cdn.redoc.ly, with no option to turn it off:
offline it is a failed request, and under our Content-Security-Policy (img-src 'self') a violation. The page
loads the sidecar's bundle through this view instead, with that address replaced by our own icon.
"""

import functools
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from drf_spectacular.views import SpectacularRedocView

BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
REDOCLY_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@functools.cache
def _bundle() -> bytes:
    return Path(finders.find(BUNDLE)).read_text(encoding="utf-8").replace(REDOCLY_LOGO, static("favicon.svg")).encode()


def redoc_bundle(request):
    response = HttpResponse(_bundle(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=3600"
    return response


class RedocView(SpectacularRedocView):
    template_name = "api/redoc.html"

    @staticmethod
    def _redoc_standalone():
        return reverse("api-docs-redoc")
