"""The bell's page: a player's newest notices. Opening it marks them read (as a bell's list does); the ones
that were unread keep their mark on this showing."""

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from games.selectors import notices as selectors
from games.services import notices as services


@login_required
def notices(request):
    shown = selectors.recent(user=request.user)
    services.mark_read(user=request.user, ids=[notice["id"] for notice in shown if not notice["read"]])
    rows = [{**notice, "at": datetime.fromisoformat(notice["created"])} for notice in shown]
    return render(request, "games/notices.html", {"notices": rows, "unread_notices": 0})
