"""The player page and the leaderboard (server-rendered; the chart is inline SVG)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from roboracer.ratings import selectors
from roboracer.ratings.chart import history_chart


@login_required
def player(request, username: str):
    """/players/<username>/: any signed-in user may see any active player's page; a missing name is the
    site's plain 404, the same for every name."""
    user = selectors.player(username=username)
    if user is None:
        raise Http404("no such player")
    data = selectors.player_page(user=user, viewer=request.user, page=request.GET.get("page"))
    context = {
        "player": user,
        "data": data,
        "page_obj": data["page_obj"],
        "chart": history_chart(start=selectors.DEFAULT_SHOWN, history=data["history"]),
        "is_me": user.pk == request.user.pk,
    }
    return render(request, "ratings/player.html", context)


@login_required
def leaderboard(request):
    """/players/: the top ratings."""
    return render(request, "ratings/leaderboard.html", {"rows": selectors.leaderboard(),
                                                         "size": selectors.LEADERBOARD_SIZE})
