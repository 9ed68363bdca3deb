"""Reads about accounts that every other app shows: the name other players see, and a vacation (issue 35:
these lived in games.selectors, which made ratings, courses, tournaments and the Pyramid depend on games)."""

from __future__ import annotations

from django.utils import timezone

from roboracer.accounts.models import Profile


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
