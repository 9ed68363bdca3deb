"""The Pyramid's pages: the list, a pyramid's page (rows, challenges, history), and its three forms."""

from types import SimpleNamespace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.services import lobby
from games.templatetags.durations import timer_figures
from games.words import POLICY_LABELS
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
    # The games' timers in words (the walkthrough: "with the pyramid's timers" named none), as a challenge's
    # game gets them (services.create_challenge) and as the lobby writes them.
    try:
        move, game = lobby.timer_settings(preset=pyramid.timer_preset, move_time=pyramid.move_time,
                                          game_time=pyramid.game_time)
        timers = timer_figures(SimpleNamespace(move_time=move, game_time=game))
    except GameError:  # custom timers without their times (Pyramid.clean refuses them in the admin)
        timers = ""
    policy = dict(POLICY_LABELS).get(pyramid.timeout_policy, pyramid.timeout_policy)
    return render(request, "pyramid/pyramid.html", {"pyramid": pyramid, "state": state, "costs": costs,
                                                    "timers": timers, "policy": policy})


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
def confirm_challenge(request, slug: str):
    """The question before a challenge spends points (issue 38 item 12): whom, what it costs and what is left,
    that the game starts at once, and what revoking gives back. Its button sends the challenge itself."""
    pyramid = selectors.pyramid_by_slug(slug=slug)
    if pyramid is None:
        raise Http404("no such pyramid")
    player = request.GET.get("player", "")[:150]
    state = selectors.pyramid_state(pyramid=pyramid, user=request.user)
    card = next((p for row in state["rows"] for p in row if p and p["username"] == player), None)
    if state["me"] is None or card is None or not card.get("can_challenge"):
        why = card.get("why_not") if card else None
        messages.error(request, why or ("Join the pyramid first." if state["me"] is None
                                        else "There is no such player to challenge here."))
        return redirect("pyramid", slug=slug)
    cost = card["challenge_cost"] or 0
    return render(request, "pyramid/confirm.html", {
        "state": state, "card": card, "cost": cost, "left": state["me"]["points"] - cost,
        "refund": cost // 2,
    })


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
        if change > 0:
            return f"Challenge revoked; {change} point{'s' if change != 1 else ''} back."
        if change < 0:
            return f"Challenge revoked; it cost you {-change} point{'s' if change != -1 else ''}."
        return "Challenge revoked; no points back (half of its cost, rounded down, is nothing)."

    _act(request, slug, lambda: services.revoke_challenge(user=request.user, slug=slug, challenge_id=challenge_id),
         done)
    return redirect("pyramid", slug=slug)
