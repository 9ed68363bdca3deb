"""Bot accounts (issue 41, docs/bot-api.md): a fresh account becomes a bot account, for good. "Fresh": it has never
had a seat in a game, in any lobby, of any kind. Accounts keeps the flag (Profile.bot_since); games knows
whether an account has played, so the check and the change are made here, in one transaction with the
account's row locked."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Seat
from roboracer.accounts import services as account_services
from roboracer.common.errors import Conflict


@transaction.atomic
def become_bot(*, user) -> None:
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if Seat.objects.filter(user=user).exists():
        raise Conflict("only a fresh account can become a bot account: this one has played (or joined) a game")
    account_services.make_bot(user=user)
