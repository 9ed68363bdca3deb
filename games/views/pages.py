"""The pages around the games: how to play, the animation demo, the puzzles."""

from csp.decorators import csp_replace
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_POST

from games import kinds
from games.kinds.roboracer import solution
from games.selectors import puzzles as puzzle_selectors
from games.services import lobby
from roboracer.common import how_to_play as how_to_play_content
from roboracer.common.errors import GameError, NotAllowed, NotFound
from roboracer.courses import selectors as course_selectors


def how_to_play(request):
    """The rules in a player's words, with example boards drawn by the game's board renderer (howto.js)."""
    context = {"elements": how_to_play_content.element_entries(), "examples": how_to_play_content.examples(),
               "modules": how_to_play_content.module_entries(), "economy": how_to_play_content.economy_example()}
    return render(request, "games/how_to_play.html", context)


DEMOS = {
    "all-events": "demo/all-events.json",
    "eight-bots": "demo/eight-bots.json",
    "programming": "demo/programming.json",
    "modules": "demo/modules.json",
}


def animation_demo(request):
    """The game screen offline on stored turns (static/demo/): no server state involved."""
    name = request.GET.get("demo", "all-events")
    if name not in DEMOS:
        raise Http404("no such demo")
    return render(request, "games/demo.html", {"demo_file": DEMOS[name], "demo_name": name, "demos": DEMOS,
                                               "animation_timing": kinds.get(kinds.DEFAULT).animation_timing})


@xframe_options_sameorigin
@csp_replace({"frame-ancestors": ["'self'"]})
def demo_embed(request):
    """The landing page's replayed board (issue 37, item 17): a stored turn of eight robots, replayed at once at
    normal speed, the board alone; framed only by this site's own pages."""
    return render(request, "games/demo_embed.html", {"demo_file": DEMOS["eight-bots"],
                                                     "animation_timing": kinds.get(kinds.DEFAULT).animation_timing})


def puzzle_solution(request, slug: str):
    """The solver's solution of a puzzle, replayed on the game screen offline (issue 40): once the player solved
    the puzzle or gave up; 404 for what is no puzzle, 403 before."""
    try:
        found = solution.solution_for(user=request.user, slug=slug)
    except NotFound as error:
        raise Http404(error.message) from error
    except NotAllowed as error:
        raise PermissionDenied(error.message) from error
    return render(request, "games/puzzle_solution.html", {
        "about": found["about"], "name": found["game"]["course"].get("name", slug),
        "source": reverse("api-puzzle-solution", args=[slug]),
        "animation_timing": kinds.get(kinds.DEFAULT).animation_timing})


def puzzles(request):
    """The puzzle list (docs/modes.md "Puzzle pages"): a preview of each board, tried, solved, best turns, your
    own solutions."""
    return render(request, "games/puzzles.html", _puzzles_context(request.user))


def _puzzles_context(user) -> dict:
    rows = puzzle_selectors.puzzle_list(user=user)
    courses = course_selectors.playable_courses().filter(pk__in=[row["course_id"] for row in rows])
    return {"puzzles": rows, "course_scripts": course_selectors.preview_scripts(courses=courses)}


@require_POST
def play_puzzle(request, slug: str):
    """Start a puzzle: a solo one at once, a cooperative one as a lobby for its players."""
    if not request.user.is_authenticated:
        return redirect("login")
    course = course_selectors.playable_courses().filter(slug=slug).first()
    if course is None or (course.data or {}).get("mode") != "puzzle":
        raise Http404("no such puzzle")
    try:
        game = lobby.create_game(user=request.user, course=course, rated=False)
    except GameError as error:
        return render(request, "games/puzzles.html", {**_puzzles_context(request.user), "error": error.message},
                      status=400)
    return redirect("game", game_id=game.pk)
