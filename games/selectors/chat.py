"""A game's chat as each reader may read it: lines to everyone, and team lines only to that team's members."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from games.models import ChatMessage, Game
from roboracer.accounts.selectors import is_bot, player_name
from roboracer.common import compiled

CHAT_IN_SNAPSHOT = 100


def chat_message(*, message: ChatMessage) -> dict:
    """A chat line as every viewer sees it (plain text; the browser never renders it as HTML)."""
    return {
        "id": message.pk,
        "seat": message.seat_number,
        "user": message.user.get_username() if message.user else None,
        "display_name": player_name(user=message.user) if message.user else None,
        "bot_account": bool(message.user) and is_bot(user=message.user),  # its BOT badge (docs/bot-api.md)
        "text": message.text,
        "at": message.created_at.isoformat(),
        "system": message.system,
        "team": message.team or None,  # team chat: only that team ever receives it
    }


_recent_chat = compiled.Compiled(lambda limit, *, game_id: ChatMessage.objects.filter(game_id=game_id).select_related(
    "user", "user__profile").order_by("-id")[:limit])


def recent_chat(
    *, game: Game, limit: int = CHAT_IN_SNAPSHOT, before: int | None = None, reader=None, teams: bool = False
) -> list[dict]:
    """The last `limit` messages (before message id `before`, if given), oldest first, that `reader` may read:
    messages to everyone, and the team lines said in their team while they were in it (they are among the
    line's readers; a spectator, staff and anonymous users read none). `teams`: every message, each with its
    team, for the caller to filter per viewer (`team_chat_readers`, `visible_chat`)."""
    if before is None and teams:  # a snapshot's (every snapshot, every deal): its SQL built once
        return [chat_message(message=m) for m in _recent_chat.run(limit, game_id=game.pk)[::-1]]
    messages = game.chat.select_related("user", "user__profile").order_by("-id")
    if before is not None:
        messages = messages.filter(id__lt=before)
    if not teams:
        if reader is not None and reader.is_authenticated:
            messages = messages.filter(Q(team="") | Q(Exists(ChatMessage.readers.through.objects.filter(
                chatmessage_id=OuterRef("pk"), user_id=reader.pk))))
        else:
            messages = messages.filter(team="")
    return [chat_message(message=m) for m in list(messages[:limit])[::-1]]


def team_chat_readers(*, chat: list[dict]) -> dict[int, set[int]]:
    """{team line id: the ids of the users who may read it} for the team lines among `chat` (one query, none
    when there are no team lines)."""
    ids = [line["id"] for line in chat if line["team"]]
    readers: dict[int, set[int]] = {line_id: set() for line_id in ids}
    if ids:
        rows = ChatMessage.readers.through.objects.filter(chatmessage_id__in=ids)
        for line_id, user_id in rows.values_list("chatmessage_id", "user_id"):
            readers[line_id].add(user_id)
    return readers


def viewer_team(*, game: Game, user) -> str:
    """The team whose chat `user` may read in this game: their seat's, or "" (a spectator, staff)."""
    if not game.teams or not (user and user.is_authenticated):
        return ""
    return game.seats.filter(user=user).values_list("team", flat=True).first() or ""


def visible_chat(*, chat: list[dict], readers: dict[int, set[int]], user) -> list[dict]:
    """Of the recent lines (with their teams), those `user` may read: a team line only if they were in that team
    when it was said (`readers`: `team_chat_readers`); team chat is hidden from the other team, from spectators
    and from whoever joins the team later (docs/modes.md "Team chat")."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    return [line for line in chat
            if line["team"] is None or (user_id is not None and user_id in readers.get(line["id"], ()))
            ][-CHAT_IN_SNAPSHOT:]
