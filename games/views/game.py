"""A game's page (the shell of the game screen: the TypeScript module does the rest), its buttons' actions and
a private game's invite link."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games import kinds
from games.selectors import access, competitions, snapshots
from games.selectors import lobby as lobby_selectors
from games.services import lobby
from roboracer.accounts import selectors as account_selectors
from roboracer.common.errors import GameError, NotFound
from roboracer.courses import selectors as course_selectors


@login_required
def game_page(request, game_id: int):
    game = access.visible_game(game_id=game_id, user=request.user)
    if game is None:
        raise Http404("no such game")
    if account_selectors.is_bot(user=request.user):  # docs/bot-api.md: a program plays a bot account
        raise PermissionDenied("this is a bot account; it plays through the Bot API with a token, not on the game screen")
    snapshot = snapshots.game_snapshot(game=game, user=request.user)
    notes = competitions.viewer_notes(game=game, user=request.user) if snapshot["me"] is None else []
    # The tournament or Pyramid the game belongs to, named with a link back at the top of the page while it is
    # played too (the snapshot carries it once the game is over, with what the result did).
    competition = snapshot.get("competition") or competitions.competition(game=game)
    return render(request, "games/game.html", {"game": game, "snapshot": snapshot, "viewer_notes": notes,
                                               "competition": competition,
                                               "animation_timing": kinds.of(game).animation_timing})


def _act(request, game_id: int, action) -> None:
    """Run a form's action; its refusal becomes a flash message on the next page. A game the user may not see
    (missing, or private and theirs to know nothing of) is the game page's own 404 instead: a flash such as
    "you have no seat in this game" would tell a stranger that a private game exists."""
    try:
        action(user=request.user, game_id=game_id)
    except NotFound:
        raise Http404("no such game") from None
    except GameError as error:
        messages.error(request, error.message)


@login_required
@require_POST
def join(request, game_id: int):
    _act(request, game_id, lobby.join_game)
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def start(request, game_id: int):
    _act(request, game_id, lobby.start_game)
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def leave(request, game_id: int):
    _act(request, game_id, lobby.leave_game)
    return redirect("lobby")


@login_required
@require_POST
def cancel(request, game_id: int):
    _act(request, game_id, lobby.cancel_game)
    return redirect("lobby")


@login_required
def invite(request, game_id: int, code: str):
    """A private game's invite link: the course and the seats, and a button to take a seat."""
    game = access.invited_game(game_id=game_id, code=code)
    if game is None:
        raise Http404("no such game")
    game = lobby_selectors.with_winner_names([game])[0]
    if request.method == "POST":
        try:
            lobby.join_game(user=request.user, game_id=game_id, invite=code)
        except NotFound:
            raise Http404("no such game") from None
        except GameError as error:
            messages.error(request, error.message)
            if not access.can_view(user=request.user, game=game):
                return redirect("game-invite", game_id=game_id, code=code)
        return redirect("game", game_id=game_id)
    if access.can_view(user=request.user, game=game):
        return redirect("game", game_id=game_id)
    context = {
        "game": game,
        "seats": game.seats.select_related("user").order_by("number"),
        "course_scripts": course_selectors.preview_scripts(courses=[game.course] if game.course_id else []),
    }
    return render(request, "games/invite.html", context)
