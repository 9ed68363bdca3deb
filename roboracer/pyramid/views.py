"""The Pyramid's pages: the list, a pyramid's page (rows, challenges, history), and its three forms."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from roboracer.common.errors import GameError, NotFound
from roboracer.pyramid import selectors, services


def pyramid_list(request):
    pyramids = list(selectors.pyramids())
    if len(pyramids) == 1:
        return redirect("pyramid", slug=pyramids[0].slug)
    return render(request, "pyramid/list.html", {"pyramids": pyramids})


def pyramid_page(request, slug: str):
    pyramid = selectors.pyramid_by_slug(slug=slug)
    if pyramid is None:
        raise Http404("no such pyramid")
    state = selectors.pyramid_state(pyramid=pyramid, user=request.user)
    costs = [{"rows": int(rows), "cost": cost} for rows, cost in state["rules"]["costs"].items()]
    return render(request, "pyramid/pyramid.html", {"pyramid": pyramid, "state": state, "costs": costs})


def _act(request, slug: str, action, done) -> None:
    """Run a form's service; a refusal becomes a flash on the page, a missing pyramid a 404."""
    try:
        result = action()
    except NotFound as error:
        if selectors.pyramid_by_slug(slug=slug) is None:
            raise Http404("no such pyramid") from None
        messages.error(request, error.message)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done(result))


@login_required
@require_POST
def join(request, slug: str):
    _act(request, slug, lambda: services.join_pyramid(user=request.user, slug=slug),
         lambda place: f"You joined the pyramid in row {place.row}.")
    return redirect("pyramid", slug=slug)


@login_required
@require_POST
def challenge(request, slug: str):
    player = request.POST.get("player", "")[:150]
    _act(request, slug, lambda: services.create_challenge(user=request.user, slug=slug, player=player),
         lambda made: f"Challenge sent: your game against {made.defender.get_username()} has started.")
    return redirect("pyramid", slug=slug)


@login_required
@require_POST
def revoke(request, slug: str, challenge_id: int):
    def done(challenge) -> str:
        change = challenge.points_change
        return f"Challenge revoked; {'refunded' if change >= 0 else 'it cost you'} {abs(change)} point(s)."

    _act(request, slug, lambda: services.revoke_challenge(user=request.user, slug=slug, challenge_id=challenge_id),
         done)
    return redirect("pyramid", slug=slug)
