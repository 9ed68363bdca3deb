"""The Bot API's limit on games (docs/bot-api.md "Limits"): a bot account plays at most BOT_MAX_GAMES games at
once (in a lobby or running, its seat not ejected). Asked wherever a bot takes a seat: creating a game, joining
one, accepting a challenge. People are not limited here."""

from __future__ import annotations

from django.conf import settings

from games.models import Game, Seat
from roboracer.accounts import selectors as account_selectors
from roboracer.common.errors import RateLimited

ONGOING = (Game.Status.LOBBY, Game.Status.PROGRAMMING, Game.Status.RESOLVING)


def check_bot_games(*, user) -> None:
    if not account_selectors.is_bot(user=user):
        return
    limit = settings.BOT_MAX_GAMES
    ongoing = Seat.objects.filter(user=user, game__status__in=ONGOING, ejected_at__isnull=True).count()
    if ongoing >= limit:
        raise RateLimited(f"{user.get_username()} is a bot account playing {ongoing} games: at most {limit} at once")
