"""The leaderboard (server-rendered). The player page shows games' rows too: games.views.players."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from roboracer.ratings import selectors


@login_required
def leaderboard(request):
    """/players/?kind=rambots: the top ratings of one game kind (RoboRacer without `kind`); a kind that is not
    one is the site's plain 404."""
    kind = selectors.kind_or_none(request.GET.get("kind", selectors.DEFAULT_KIND))
    if kind is None:
        raise Http404("no such game kind")
    kinds = selectors.kinds()
    return render(request, "ratings/leaderboard.html", {
        "rows": selectors.leaderboard(kind=kind), "size": selectors.LEADERBOARD_SIZE, "kind": kind,
        "title": next(k["title"] for k in kinds if k["kind"] == kind), "kinds": kinds,
        "default_kind": selectors.DEFAULT_KIND})
