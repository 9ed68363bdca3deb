"""The leaderboard (server-rendered). The player page shows games' rows too: games.views.players."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from roboracer.ratings import selectors


@login_required
def leaderboard(request):
    """/players/: the top ratings."""
    return render(request, "ratings/leaderboard.html", {"rows": selectors.leaderboard(),
                                                         "size": selectors.LEADERBOARD_SIZE})
