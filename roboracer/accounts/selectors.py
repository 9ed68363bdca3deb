"""Reads about accounts that every other app shows: the name other players see, and a vacation (issue 35:
these lived in games.selectors, which made ratings, courses, tournaments and the Pyramid depend on games)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from roboracer.accounts.models import ApiToken, Profile


def profile_of(user) -> Profile | None:
    try:
        return user.profile
    except Profile.DoesNotExist:
        return None


def player_name(*, user) -> str:
    """The name other players see: the profile's display name, else the username."""
    profile = profile_of(user)
    return profile.name() if profile else user.get_username()


def vacation(*, user, now) -> dict | None:
    """The user's vacation on `now`'s date, if one is set (Profile.vacation), else None."""
    profile = profile_of(user)
    return profile.vacation(timezone.localdate(now)) if profile else None


def is_bot(*, user) -> bool:
    """Whether the account is a bot account (Profile.bot_since; docs/bot-api.md)."""
    profile = profile_of(user)
    return bool(profile and profile.is_bot)


def bot_annotation(user_field: str) -> Exists:
    """An annotation: whether the account in `user_field` (an OuterRef path, "creator_id") is a bot account."""
    return Exists(Profile.objects.filter(user_id=OuterRef(user_field), bot_since__isnull=False))


def bot_user_ids(*, user_ids) -> set[int]:
    """Which of these accounts are bot accounts (one query)."""
    return set(Profile.objects.filter(user_id__in=list(user_ids), bot_since__isnull=False)
               .values_list("user_id", flat=True))


def api_tokens(*, user) -> list[dict]:
    """The account's live tokens as their owner lists them: never the token itself or its digest."""
    now = timezone.now()
    return [{"id": token.handle, "name": token.name, "scopes": token.scopes, "created": token.created,
             "expiry": token.expiry}
            for token in ApiToken.objects.filter(user=user).exclude(expiry__lte=now).order_by("-created")]


def stream_user_ids(*, user_ids) -> set[int]:
    """Which of these accounts may read a Bot API event stream: bot accounts and accounts with a live token
    (one query). Only theirs get game starts and invitations as account events (docs/bot-api.md)."""
    now = timezone.now()
    live_token = Exists(ApiToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=now), user_id=OuterRef("pk")))
    return set(get_user_model().objects.filter(pk__in=list(user_ids))
               .filter(Q(profile__bot_since__isnull=False) | Q(live_token)).values_list("pk", flat=True))
