"""An account's Bot API event stream (docs/bot-api.md "GET /api/bot/events/"): what a bot program waits for
besides its games' own streams. Each event is stored (games.models.AccountEvent) in the transaction that made the
news, numbered per account with the accounts' rows locked, and the accounts' open streams are woken after the
commit; a stream reads the rows, so nothing depends on the wake-up arriving.

Game starts, game ends and invitations are stored only for accounts that can read the stream (bot accounts,
accounts with a live token: accounts.selectors.stream_user_ids); challenges, which only the Bot API and the
lobby send, for both sides always."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max

from games import broadcast
from games.models import AccountEvent, Game
from roboracer.accounts import selectors as account_selectors

# What each kind carries besides its "type" and "id" (docs/bot-api.md has the shapes).
KINDS = ("challenge", "challenge_cancelled", "challenge_declined", "challenge_accepted", "game_start",
         "game_finish", "invitation")


def append(*, user_ids: Iterable[int], kind: str, data: dict) -> None:
    """Store the event for each account (in the caller's transaction) and wake their streams after the commit."""
    if kind not in KINDS:
        raise ValueError(f"unknown account event {kind!r}")
    users = sorted(set(user_ids))
    if not users:
        return
    # The accounts' rows, locked in one order: two transactions numbering the same accounts' events wait for
    # each other instead of taking the same number.
    list(get_user_model().objects.select_for_update().filter(pk__in=users).order_by("pk").values_list("pk"))
    last = dict(AccountEvent.objects.filter(user_id__in=users).values("user_id").annotate(last=Max("number"))
                .values_list("user_id", "last"))
    AccountEvent.objects.bulk_create([AccountEvent(user_id=user_id, number=last.get(user_id, 0) + 1, kind=kind,
                                                   data=data) for user_id in users])
    transaction.on_commit(lambda: broadcast.wake_accounts(users), robust=True)


def _game_data(game: Game) -> dict:
    return {"game": {"id": game.pk, "url": f"/games/{game.pk}/", "kind": game.kind, "status": game.status,
                     "stream": f"/api/bot/games/{game.pk}/stream/"}}


def game_started(*, game: Game, user_ids: Iterable[int]) -> None:
    """`game_start` to the players who read the stream (games.services.turns.start)."""
    append(user_ids=account_selectors.stream_user_ids(user_ids=user_ids), kind="game_start", data=_game_data(game))


def game_finished(*, game: Game, user_ids: Iterable[int]) -> None:
    """`game_finish` to the players who read the stream (games.services.turns.finish)."""
    append(user_ids=account_selectors.stream_user_ids(user_ids=user_ids), kind="game_finish", data=_game_data(game))


def invited(*, user_ids: Iterable[int], kind: str, text: str, link: str, source: dict) -> None:
    """`invitation` (play again, a tournament's seat) to the invitees who read the stream (games.services.notices)."""
    append(user_ids=account_selectors.stream_user_ids(user_ids=user_ids), kind="invitation",
           data={"invitation": {"kind": kind, "text": text, "link": link, "source": source}})
