"""A game's chat: players' lines (to all, or to their team), and the chat commands (!eject, !archive; 003 "Chat
Commands")."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import clocks, kinds
from games.models import ChatMessage, Game
from games.selectors import seats
from games.services import ejection, lines, locking, turns
from roboracer.accounts import selectors as account_selectors
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, RateLimited

logger = logging.getLogger(__name__)


CHAT_BURST = 5  # messages per CHAT_WINDOW per player and game


CHAT_WINDOW = timedelta(seconds=10)


COMMANDS = ("!eject", "!archive")


def _eject_command(game: Game, user) -> list[int]:
    """!eject (003 "Chat Commands"): before the start, close the empty seats (and start if enough are
    seated); while programming, eject every bot whose game timer has run out."""
    if game.status == Game.Status.LOBBY:
        seated = game.seats.count()
        minimum = seats.start_minimum(game)
        if seated < minimum:
            raise Conflict(f"{kinds.of(game).board_name(game)} needs at least {minimum} player(s); {seated} seated")
        closed = list(range(seated + 1, game.max_seats + 1))
        turns.start(game)
        return closed
    if game.status == Game.Status.RESOLVING:
        raise Conflict("a turn is being played; try again once it has been")
    if game.status != Game.Status.PROGRAMMING:
        raise Conflict(f"this game is {game.status}")
    now = timezone.now()
    expired = [s for s in game.seats.filter(ejected_at__isnull=True) if clocks.expired_at(s, now)]
    if not expired:
        return []
    return ejection.eject(game, expired, by=user.get_username(), reason="game time ran out",
                  by_name=account_selectors.player_name(user=user))


@transaction.atomic
def post_chat(*, user, game_id: int, text: str) -> dict:
    """A chat line, or a chat command. Returns what the caller sees: {"message": ...} or {"command": ...}."""
    game = locking.locked_game(game_id, user=user)
    seat = game.seats.filter(user=user).first()
    if seat is None and not user.is_staff:
        raise NotAllowed("only the players of this game can chat in it")
    text = (text or "").strip()
    if not text:
        raise InvalidInput("text: a chat message can't be empty")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise InvalidInput(f"text: at most {ChatMessage.MAX_LENGTH} characters, not {len(text)}")
    now = timezone.now()
    recent = ChatMessage.objects.filter(game=game, user=user, created_at__gte=now - CHAT_WINDOW).count()
    if recent >= CHAT_BURST:
        raise RateLimited(f"slow down: at most {CHAT_BURST} messages in {int(CHAT_WINDOW.total_seconds())} seconds")
    command = text.split()[0].lower()
    if command == "!eject":
        ejected = _eject_command(game, user)
        game.save()
        return {"command": "eject", "ejected": ejected}
    if command == "!archive":
        if seat is None:
            raise Conflict("only a game in your own list can be archived")
        seat.archived = not seat.archived
        seat.save(update_fields=["archived"])
        return {"command": "archive", "archived": seat.archived}
    if command.startswith("!"):
        raise InvalidInput(f"unknown command {command}; the commands are {', '.join(COMMANDS)} and @all")
    to_all = False
    if command == "@all":
        text, to_all = text[len("@all"):].strip(), True
        if not text:
            raise InvalidInput("text: @all needs a message after it")
    # Team play: a player's line goes to their own team unless it starts with @all (003 "Chat Commands").
    team = seat.team if seat is not None and game.teams and seat.team and not to_all else ""
    data = lines.chat_line(
        game, user=user, seat_number=seat.number if seat else None, text=text, to_all=not team, team=team
    )
    game.save(update_fields=["version", "updated_at"])
    return {"message": data}

