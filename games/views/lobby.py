"""The lobby page and its create forms' actions."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games import kinds
from games.kinds.roboracer import services as roboracer_services
from games.selectors import challenges as challenge_selectors
from games.selectors import lobby as lobby_selectors
from games.selectors import seats
from games.services import computer_seats
from games.services import lobby as lobby_services
from games.views.challenges import ChallengeForm
from games.views.forms import CreateGameForm, PracticeForm, create_errors
from roboracer.accounts import selectors as account_selectors
from roboracer.accounts.forms import sentence
from roboracer.common.errors import GameError
from roboracer.courses import selectors as course_selectors


def open_pages_text(*, page: int, size: int, shown: int, total: int) -> str:
    """The line under the open games: "Showing the newest 3 of 10 open games." on the first page (nothing when
    all of them are shown), "Showing open games 4–6 of 10 (page 2 of 4)." or "Showing open game 10 of 10 (page 4
    of 4)." on another. frontend/src/lobbystate.ts openPagesText says the same as the list changes live."""
    if page == 1:
        return f"Showing the newest {shown} of {total} open games." if total > shown else ""
    if not shown:
        return ""
    first, pages = (page - 1) * size + 1, max(1, -(-total // size))
    games = f"games {first}\u2013{first + shown - 1}" if shown > 1 else f"game {first}"
    return f"Showing open {games} of {total} (page {page} of {pages})."


def page_url(page: int) -> str:
    return "/" if page == 1 else f"?page={page}"


def lobby(request):
    # ?page=N: the page of open games (newest first, LOBBY_PAGE_SIZE a page), as GET /api/games/?page=N.
    page = lobby_selectors.lobby_page_number(request.GET.get("page"))
    if page is None:
        raise Http404("no such page of open games")
    course = request.GET.get("course", "")
    # isascii() too: str.isdigit() accepts "²" and "①", which are no course id.
    initial = {"course": course} if course.isascii() and course.isdigit() else None
    form = CreateGameForm(request.POST or None, initial=initial) if request.user.is_authenticated else None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        if form.is_valid():
            try:
                game = lobby_services.create_game(user=request.user, **form.game_options())
            except GameError as error:
                form.add_error(None, sentence(error.message))
            else:
                return redirect("game", game_id=game.pk)
    mine = (lobby_selectors.with_winner_names(lobby_selectors.games_of(user=request.user))
            if request.user.is_authenticated else [])
    open_games, open_total, more = lobby_selectors.open_games_page(page=page)
    size = settings.LOBBY_PAGE_SIZE
    last_page = max(1, -(-open_total // size))
    archived = (lobby_selectors.with_winner_names(lobby_selectors.games_of(user=request.user, archived=True))
                if request.user.is_authenticated else [])
    live = lobby_selectors.live_games(user=request.user)
    shown = {game.course_id for games in (open_games, mine, archived) for game in games}
    if live["featured"] is not None:
        shown.add(live["featured"]["game"].course_id)
    context = {
        "form": form,
        # A bot account's program plays it (docs/bot-api.md): its lobby has a note instead of a person's forms.
        "bot_account": request.user.is_authenticated and account_selectors.is_bot(user=request.user),
        # Direct challenges (docs/bot-api.md): to me and from me, with the form to send one.
        "challenges": challenge_selectors.challenges_of(user=request.user) if request.user.is_authenticated else None,
        "challenge_form": ChallengeForm() if request.user.is_authenticated else None,
        # A refused create is summed up at the top of the page, focused: the form is far below the lists.
        "create_errors": create_errors(form),
        "open_games": open_games,
        "open_total": open_total,
        "open_page": page,
        "page_size": size,
        "open_pages_text": open_pages_text(page=page, size=size, shown=len(open_games), total=open_total),
        # Newer: the page before (past the end: the last page); Older: the next page while there is one.
        "newer_url": page_url(min(page - 1, last_page)) if page > 1 else None,
        "older_url": page_url(page + 1) if more else None,
        "lobby_ws_path": "/ws/lobby/" if page == 1 else f"/ws/lobby/?page={page}",
        "my_games": mine,
        "my_move": seats.awaiting_my_move(user=request.user, games=mine) if mine else set(),
        "archived_games": archived,
        "live": live,
        "ruleset_fields": CreateGameForm.ruleset_fields(),
        "practice_form": PracticeForm(auto_id="practice_%s") if request.user.is_authenticated else None,
        "kind_forms": kind_forms(request.user),
        # The data of the form's courses and of the listed games' courses, once each, for the thumbnails and the
        # create-form preview (drawn by game.js); not a stranger's draft that no listed game is on.
        "course_scripts": course_selectors.preview_scripts(
            courses=course_selectors.lobby_courses(game_course_ids=shown)
        ),
    }
    return render(request, "games/lobby.html", context)


@login_required
@require_POST
def create_of_kind(request, kind: str):
    """The lobby's "Create a game" form of a kind with a form of its own (its adapter's `lobby_form`: RAMbots'):
    the game's page, or the lobby with the form's errors. Its computer players are seated in the same
    transaction (the game starts once they fill it)."""
    adapter = kinds.get(kind) if kind in kinds.names() else None
    if adapter is None or adapter.lobby_form is None:
        raise Http404("no such kind of game")
    form = adapter.lobby_form(request.POST, prefix=kind)
    if form.is_valid():
        try:
            with transaction.atomic():  # the game with its computer players, or nothing
                game = lobby_services.create_game(user=request.user, kind=kind, **form.game_options())
                for strength in form.computer_players():
                    computer_seats.add_computer(user=request.user, game_id=game.pk, strength=strength)
        except GameError as error:
            messages.error(request, sentence(error.message))
        else:
            return redirect("game", game_id=game.pk)
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        messages.error(request, f"{label}: {errors[0]}" if label else errors[0])
    return redirect("lobby")


def kind_forms(user) -> list[dict]:
    """The create forms of the kinds that have their own, for the lobby's kind choice (none for a visitor)."""
    if not user.is_authenticated:
        return []
    return [{"name": name, "title": kinds.get(name).title, "hint": kinds.get(name).lobby_hint,
             "form": kinds.get(name).lobby_form(prefix=name)}
            for name in kinds.names() if kinds.get(name).lobby_form is not None]


@require_POST
def practice(request):
    """The lobby's "Play against the computer": a game with the caller in seat 1 and computer players in the
    others, started at once (roboracer_services.practice_game); then its page. A refusal is a flash message in the lobby."""
    if not request.user.is_authenticated:
        return redirect("login")
    form = PracticeForm(request.POST, auto_id="practice_%s")
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {errors[0]}" if label else errors[0])
        return redirect("lobby")
    try:
        game = roboracer_services.practice_game(
            user=request.user,
            course=form.cleaned_data["course"],
            opponents=form.cleaned_data["opponents"],
            strength=form.cleaned_data["strength"],
        )
    except GameError as error:
        messages.error(request, sentence(error.message))
        return redirect("lobby")
    return redirect("game", game_id=game.pk)


def live_games(request):
    """The lobby's featured game and watch list alone (games/_live_games.html), with the featured course's data
    for its thumbnail: lobby.ts fetches it again when a public game starts or ends. Public facts only."""
    live = lobby_selectors.live_games(user=request.user)
    featured = live["featured"]
    scripts = (course_selectors.preview_scripts(courses=[featured["game"].course])
               if featured and featured["game"].course_id else [])
    return render(request, "games/_live_games_page.html", {"live": live, "course_scripts": scripts})
