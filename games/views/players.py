"""The player page /players/<username>/: a player's rating, its history and their finished games (server-rendered;
the chart is inline SVG). It lives in games because it shows games' rows (docs/architecture.md "Layers"); the
leaderboard, only ratings, stays in roboracer.ratings."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from games.selectors import history
from roboracer.ratings import selectors as ratings
from roboracer.ratings.chart import history_chart


@login_required
def player(request, username: str):
    """/players/<username>/: any signed-in user may see any active player's page; a missing name is the
    site's plain 404, the same for every name."""
    user = ratings.player(username=username)
    if user is None:
        raise Http404("no such player")
    data = history.player_page(user=user, viewer=request.user, page=request.GET.get("page"))
    # One card per game kind: its rating ("unrated" before its first rated game) and its own chart. RoboRacer's
    # card keeps the ids the page had before there was a rating per kind; the others' carry "-<kind>".
    default = ratings.DEFAULT_KIND
    kinds = [{**figures, "chart": history_chart(start=ratings.DEFAULT_SHOWN, history=figures["history"]),
              "sfx": "" if kind_of == default else f"-{kind_of}",
              "query": "" if kind_of == default else f"?kind={kind_of}"}
             for kind_of, figures in data["ratings"].items()]
    context = {
        "player": user,
        "data": data,
        "kinds": kinds,
        "page_obj": data["page_obj"],
        "is_me": user.pk == request.user.pk,
    }
    return render(request, "games/player.html", context)
