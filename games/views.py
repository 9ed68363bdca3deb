"""Server-rendered pages: the lobby and the shell of the game screen (the TypeScript module does the rest)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games import selectors, services
from games.errors import GameError
from roboracer.courses import selectors as course_selectors
from roboracer.courses.models import Course


class CreateGameForm(forms.Form):
    course = forms.ModelChoiceField(queryset=Course.objects.all(), empty_label=None)
    max_seats = forms.IntegerField(min_value=1, max_value=8, initial=2, label="Seats")
    lives = forms.IntegerField(min_value=1, max_value=9, initial=3)


def lobby(request):
    initial = {"course": request.GET["course"]} if request.GET.get("course", "").isdigit() else None
    form = CreateGameForm(request.POST or None, initial=initial) if request.user.is_authenticated else None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        if form.is_valid():
            try:
                game = services.create_game(user=request.user, **form.cleaned_data)
            except GameError as error:
                form.add_error(None, error.message)
            else:
                return redirect("game", game_id=game.pk)
    mine = list(selectors.games_of(user=request.user)) if request.user.is_authenticated else []
    context = {
        "form": form,
        "open_games": selectors.open_games(),
        "my_games": mine,
        "my_move": selectors.awaiting_my_move(user=request.user, games=mine) if mine else set(),
        # Every course's data once, for the thumbnails and the create-form preview (drawn by game.js).
        "course_scripts": course_selectors.preview_scripts(courses=course_selectors.all_courses()),
    }
    return render(request, "games/lobby.html", context)


@login_required
def game_page(request, game_id: int):
    game = selectors.get_game(game_id=game_id)
    if game is None or not selectors.can_view(user=request.user, game=game):
        raise Http404("no such game")
    snapshot = selectors.game_snapshot(game=game, user=request.user)
    return render(request, "games/game.html", {"game": game, "snapshot": snapshot})


def _act(request, game_id: int, action) -> None:
    try:
        action(user=request.user, game_id=game_id)
    except GameError as error:
        messages.error(request, error.message)


@login_required
@require_POST
def join(request, game_id: int):
    _act(request, game_id, services.join_game)
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def start(request, game_id: int):
    _act(request, game_id, services.start_game)
    return redirect("game", game_id=game_id)


DEMOS = {
    "all-events": "demo/all-events.json",
    "eight-bots": "demo/eight-bots.json",
    "programming": "demo/programming.json",
}


def animation_demo(request):
    """The game screen offline on stored turns (static/demo/): no server state involved."""
    name = request.GET.get("demo", "all-events")
    if name not in DEMOS:
        raise Http404("no such demo")
    return render(request, "games/demo.html", {"demo_file": DEMOS[name], "demo_name": name, "demos": DEMOS})
