"""Direct challenges between two accounts (issue 41, docs/bot-api.md "Challenges"): a person or a bot challenges a
named player or bot to a game with given settings; the challenged accepts (the game is made, both seated, and
started at once) or declines; the challenger may cancel while it waits. Never the Pyramid's challenges.

The settings are POST /api/games/'s, checked when the challenge is sent by the same policy as any game
(the kind's own settings, games.services.setup with `use` CHALLENGE, the timers), and checked again when the
game is made. Each step tells both sides: a notice for the bell (the lobby shows the challenge) and an account
event for their Bot API event streams."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import kinds
from games.models import DirectChallenge, Game
from games.selectors import challenges as selectors
from games.services import account_events, limits, lobby, notices, organisers, setup
from roboracer.accounts import selectors as account_selectors
from roboracer.accounts.services import COMPUTER_PREFIX
from roboracer.common.errors import Conflict, InvalidInput, NotFound, RateLimited

PENDING_PER_ACCOUNT = 20  # challenges one account may have waiting for an answer
GAME_FIELDS = ("visibility", "timer_preset", "move_time", "game_time", "timeout_policy")  # create_game's own
REASON_CHARS = 200


def _target(username) -> object:
    """The account a challenge names: an active player or bot, by username ignoring case; never a computer
    player's account. Anything else is the same 404."""
    missing = NotFound("there is no such player")
    if not isinstance(username, str) or not username.strip() or len(username) > 150 or not username.isprintable():
        raise missing  # (a NUL is no name, and PostgreSQL refuses it in a query)
    user = get_user_model().objects.filter(username__iexact=username.strip(), is_active=True).first()
    if user is None or user.get_username().lower().startswith(COMPUTER_PREFIX):
        raise missing
    return user


def _checked(*, user, settings: dict) -> dict:
    """The settings as stored: a two-seat game of its kind, no teams, checked as a game being made now."""
    kind = settings.get("kind", kinds.DEFAULT)
    if kind not in kinds.names():
        raise InvalidInput(f"kind: one of {', '.join(kinds.names())}")
    settings = {key: value for key, value in settings.items() if key not in ("kind", "teams", "max_seats")}
    game = {key: settings.pop(key) for key in GAME_FIELDS if key in settings}
    lobby.timer_settings(preset=game.get("timer_preset", Game.Preset.REALTIME), move_time=game.get("move_time"),
                         game_time=game.get("game_time"))
    kinds.get(kind).settings(user=user, use=setup.CHALLENGE, computers=0, max_seats=2, **settings)
    return {"kind": kind, "max_seats": 2, **game, **settings}


@transaction.atomic
def send_challenge(*, user, username, settings: dict) -> DirectChallenge:
    challenged = _target(username)
    if challenged.pk == user.pk:
        raise InvalidInput("player: you cannot challenge yourself")
    stored = _checked(user=user, settings=settings)
    _lock_players(user.pk, challenged.pk)  # one count at a time per account
    waiting = DirectChallenge.objects.filter(challenger=user, status=DirectChallenge.Status.PENDING)
    if waiting.count() >= PENDING_PER_ACCOUNT:
        raise RateLimited(f"You have {PENDING_PER_ACCOUNT} challenges waiting for an answer. Cancel one first.")
    if waiting.filter(challenged=challenged).exists():
        raise Conflict("you have already challenged this player; wait for the answer or cancel it")
    challenge = DirectChallenge.objects.create(challenger=user, challenged=challenged, settings=stored)
    data = selectors.challenge_dict(challenge)
    name = account_selectors.player_name(user=user)
    notices.notify(user_ids=[challenged.pk], kind="direct_challenge", link=f"{reverse('lobby')}#challenges",
                   text=f"{name} challenges you to a game of {data['board']}", source={"direct_challenge": challenge.pk},
                   message={"challenge": data})
    account_events.append(user_ids=[user.pk, challenged.pk], kind="challenge", data={"challenge": data})
    return challenge


def _lock_players(*user_ids: int) -> None:
    """Both accounts' rows, locked in one statement in one order, before anything else here locks them (the
    account events number each account's events with its row locked): two challenges between the same two
    accounts, sent or answered at once, wait for each other instead of deadlocking."""
    list(get_user_model().objects.select_for_update().filter(pk__in=user_ids).order_by("pk").values_list("pk"))


def _locked(challenge_id, *, user, side: str) -> DirectChallenge:
    """The challenge, locked, if `user` is its `side` (challenger, challenged); else the 404 of a missing id."""
    if type(challenge_id) is not int:
        raise NotFound("there is no such challenge")
    challenge = DirectChallenge.objects.filter(pk=challenge_id, **{side: user}).first()
    if challenge is None:
        raise NotFound("there is no such challenge")
    _lock_players(challenge.challenger_id, challenge.challenged_id)
    challenge = DirectChallenge.objects.select_for_update().get(pk=challenge.pk)
    if challenge.status != DirectChallenge.Status.PENDING:
        raise Conflict(f"this challenge is {challenge.status}")
    return challenge


def _answered(challenge: DirectChallenge, status: str, *, kind: str, words: str, reason: str = "") -> None:
    challenge.status, challenge.answered_at, challenge.reason = status, timezone.now(), reason
    challenge.save(update_fields=["status", "answered_at", "reason", "game"])
    data = selectors.challenge_dict(challenge)
    account_events.append(user_ids=[challenge.challenger_id, challenge.challenged_id], kind=kind,
                          data={"challenge": data})
    source = {"direct_challenge": challenge.pk}
    notices.settle(user_ids=[challenge.challenged_id], kind="direct_challenge", source=source)
    if status != DirectChallenge.Status.CANCELLED:
        link = f"/games/{challenge.game_id}/" if challenge.game_id else f"{reverse('lobby')}#challenges"
        notices.notify(user_ids=[challenge.challenger_id], kind="direct_challenge_answer", link=link, source=source,
                       text=f"{data['challenged_name']} {words} your challenge", message={"challenge": data})


@transaction.atomic
def accept(*, user, challenge_id) -> DirectChallenge:
    """The challenged accepts: the game is made with the settings, the challenger in seat 1, and started."""
    challenge = _locked(challenge_id, user=user, side="challenged")
    challenger = challenge.challenger
    for player in (challenger, user):
        limits.check_bot_games(user=player)
    settings = dict(challenge.settings)
    challenge.game = organisers.create_seated_game(creator=challenger, users=[challenger, user], use=setup.CHALLENGE,
                                                   **settings)
    _answered(challenge, DirectChallenge.Status.ACCEPTED, kind="challenge_accepted", words="accepted")
    return challenge


@transaction.atomic
def decline(*, user, challenge_id, reason: str = "") -> DirectChallenge:
    if not isinstance(reason, str) or len(reason) > REASON_CHARS or not (reason == "" or reason.isprintable()):
        raise InvalidInput(f"reason: at most {REASON_CHARS} printable characters")
    challenge = _locked(challenge_id, user=user, side="challenged")
    _answered(challenge, DirectChallenge.Status.DECLINED, kind="challenge_declined", words="declined",
              reason=reason.strip())
    return challenge


@transaction.atomic
def cancel(*, user, challenge_id) -> DirectChallenge:
    challenge = _locked(challenge_id, user=user, side="challenger")
    _answered(challenge, DirectChallenge.Status.CANCELLED, kind="challenge_cancelled", words="cancelled")
    return challenge
