"""The pages' side of the Bot API (docs/bot-api.md): the profile page's "make this a bot account" button."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from games.services import bots
from roboracer.common.errors import GameError


@login_required
@require_POST
def become_bot(request):
    if request.POST.get("confirm") != "bot":
        messages.error(request, "Tick the box to confirm: a bot account stays a bot account.")
        return redirect("profile")
    try:
        bots.become_bot(user=request.user)
    except GameError as error:
        messages.error(request, error.message[:1].upper() + error.message[1:] + ".")
    else:
        messages.success(request, "This is a bot account now: a program plays it with an API token.")
    return redirect("profile")
