"""The answer to a log-in refused by django-axes (too many failures for the account or the address):
429 with Retry-After, as JSON for the API and as a page for the form (settings.AXES_LOCKOUT_CALLABLE)."""

import math

from axes.helpers import get_cool_off
from django.http import JsonResponse
from django.shortcuts import render


def username_key(request, credentials) -> str | None:
    """The account failures count against: usernames are unique ignoring case, so "Bob" and "bob" are one."""
    username = (credentials or {}).get("username")
    return username.strip().lower() if isinstance(username, str) else None


def lockout_response(request, original_response=None, credentials=None):
    cool_off = get_cool_off(request)
    seconds = max(1, math.ceil(cool_off.total_seconds())) if cool_off else 3600
    minutes = math.ceil(seconds / 60)
    message = (f"Too many failed log-ins for this account or from this address: try again in {minutes} "
               f"minute{'s' if minutes != 1 else ''}.")
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"message": message, "minutes": minutes},
                          status=429)
    response["Retry-After"] = str(seconds)
    return response
