"""The lines the site itself writes into a game's chat (ejections, timers, autopilot) and the players' names in
them."""

from __future__ import annotations

import logging

from django.db import transaction

from games import broadcast
from games.models import ChatMessage, Game, Seat
from games.selectors import chat
from games.services import publish
from roboracer.accounts import selectors as account_selectors

logger = logging.getLogger(__name__)


def names(seats: list[Seat]) -> str:
    """The players' names as others see them, for system chat lines: "ada", "ada and bob", "ada, bob and cy"."""
    names = [account_selectors.player_name(user=seat.user) for seat in seats]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def forfeit_line(seats: list[Seat], *, by: str, by_name: str, reason: str) -> str:
    """The system chat line of an ejection: whoever leaves a running race forfeits it, and the line says so."""
    who = names(seats)
    forfeits = "forfeits" if len(seats) == 1 else "forfeit"
    if reason == "resigned":
        return f"{who} forfeited (resigned)."
    if by == "timer":
        return f"{who} {forfeits}: out of game time, ejected automatically."
    if by == "staff":
        return f"{who} {forfeits}: ejected by a moderator."
    return f"{who} {forfeits}: out of game time, ejected by {by_name}."


def chat_line(game: Game, **fields) -> dict:
    """Store a chat line and push it as a `chat` event; returns what the event carries. A team's line is no
    public event: it goes only to that team's players' own sockets (docs/modes.md "Team chat")."""
    message = ChatMessage.objects.create(game=game, **fields)
    data = chat.chat_message(message=message)
    team = fields.get("team")
    if team:
        members = list(game.seats.filter(team=team, ejected_at__isnull=True).values_list("user_id", flat=True))
        message.readers.set([user_id for user_id in members if user_id is not None])  # who may ever read it
        game_id = game.pk
        transaction.on_commit(lambda: broadcast.push_team_chat(game_id, members, data), robust=True)
        return data
    publish.append_event(game, "chat", data)
    return data


def system_chat(game: Game, text: str) -> None:
    """A line the site writes into the game's chat (ejections, timers), pushed like any other."""
    chat_line(game, text=text, system=True)

