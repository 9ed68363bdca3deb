"""The site's one way of telling a player something (docs/site.md "Notices"): a game's "your move", a rematch,
a tournament's invitation, "your tournament game is ready", a Pyramid challenge. Each notice names its source
and where to go. `notify` sends it to the player's own sockets after the commit (the lobby notice), keeps it for
the bell when the kind is kept, and e-mails it to players who want e-mails. Callers build the words; this module
decides how they travel."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from celery import current_app
from django.db import transaction
from django.utils import timezone

from games import broadcast
from games.models import Notice
from games.services import account_events

NOTICE_EMAILS = "games.tasks.send_notice_emails"


@dataclass(frozen=True)
class Kind:
    """How a kind of notice travels: kept for the bell (and so e-mailed to players who want that), or only pushed
    to the open pages (a "your move" is replaced by the next one and the lobby's badges read the database)."""

    kept: bool
    emailed: bool = True  # a kept notice goes by e-mail to players who want e-mails


KINDS: Mapping[str, Kind] = {
    "your_turn": Kind(kept=False),  # the lobby badge and the slow games' own e-mails (publish.notify_turn)
    "game_over": Kind(kept=False),  # clears the game's "your move" notice on the player's other pages
    "rematch": Kind(kept=True),
    "tournament_invitation": Kind(kept=True),
    # The game's own "your move" e-mail (slow games) already says it; a real-time table is played online.
    "tournament_game_ready": Kind(kept=True, emailed=False),
    "tournament_result": Kind(kept=True),
    "tournament_status": Kind(kept=True),  # disqualified (with the reason) or replaced
    "pyramid_challenge": Kind(kept=True),
    # A direct challenge between two accounts (docs/bot-api.md "Challenges"), never the Pyramid's: sent, and answered.
    "direct_challenge": Kind(kept=True),
    "direct_challenge_answer": Kind(kept=True, emailed=False),
}
INVITATIONS = ("rematch", "tournament_invitation")  # also `invitation` events of the Bot API's stream
SOURCE_KEYS = frozenset({"game", "tournament", "round", "table", "challenge", "pyramid", "invitation",
                         "direct_challenge"})


def notify(*, user_ids: Iterable[int], kind: str, text: str, link: str = "", source: Mapping[str, int] | None = None,
           message: Mapping | None = None) -> list[Notice]:
    """Tell each of `user_ids` something. `message` is the socket message's own fields (what the page's notice
    shows); the kept notice's fields (`notice`: id, kind, text, link, source, created) are added to it. Call it
    inside the transaction that made the news: nothing is sent or e-mailed unless it commits."""
    spec = KINDS[kind]  # a KeyError is a caller's bug: every kind is declared above
    source = dict(source or {})
    if set(source) - SOURCE_KEYS or not all(type(v) is int for v in source.values()):
        raise ValueError(f"a notice's source holds ids only ({', '.join(sorted(SOURCE_KEYS))}), got {source!r}")
    users = list(dict.fromkeys(user_ids))
    kept: list[Notice] = []
    if spec.kept:
        kept = Notice.objects.bulk_create(
            [Notice(user_id=user_id, kind=kind, text=text[:300], link=link[:300], source=source) for user_id in users]
        )
    now = timezone.now()
    pushes = []
    for index, user_id in enumerate(users):
        push = {"type": kind, **(message or {}), "text": text, "link": link, "source": source}
        if kept:
            notice = kept[index]
            push["notice"] = {"id": notice.pk, "kind": kind, "text": notice.text, "link": notice.link,
                              "source": source, "created": (notice.created_at or now).isoformat()}
        pushes.append((user_id, push))
    transaction.on_commit(lambda: broadcast.notify_users(pushes), robust=True)
    if kind in INVITATIONS:  # a bot program reads them on its event stream too (docs/bot-api.md)
        account_events.invited(user_ids=users, kind=kind, text=text, link=link, source=source)
    if kept and spec.emailed:
        ids = [notice.pk for notice in kept]
        transaction.on_commit(lambda: current_app.signature(NOTICE_EMAILS, args=(ids,)).apply_async(), robust=True)
    return kept


def settle(*, user_ids: Iterable[int], kind: str, source: Mapping[str, int]) -> int:
    """Mark read the unread notices of `kind` of these users whose source holds `source` (a game's "your game is
    ready" once that game is over: the bell no longer calls anyone to it). The users keep it to their own rows
    (the index on user and read_at), not every unread notice of the site. Returns how many changed."""
    unread = Notice.objects.filter(user_id__in=list(user_ids), kind=kind, read_at__isnull=True)
    for key, value in source.items():
        unread = unread.filter(**{f"source__{key}": value})
    return unread.update(read_at=timezone.now())


def mark_read(*, user, ids: Iterable[int] | None = None) -> int:
    """Mark the user's own unread notices read (all of them, or those of `ids`: others' ids change nothing).
    Returns how many changed."""
    unread = Notice.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    return unread.update(read_at=timezone.now())
