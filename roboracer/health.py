"""GET /api/health/: 200 once this web host can reach its database (a `select 1`), for the load balancer's health
check (docs/cluster.md). A host cut off from PostgreSQL hangs here, HAProxy's check times out, and the host is
taken out of rotation (its sockets shut, their clients reconnect to another host) instead of holding its players'
programs until the network heals."""

from __future__ import annotations

from django.db import connection
from django.http import JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def health(request):
    with connection.cursor() as cursor:
        cursor.execute("select 1")
    return JsonResponse({"ok": True})
