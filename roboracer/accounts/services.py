"""Writes to a player's profile (one function, used by the profile page and the API)."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from games.errors import InvalidInput
from roboracer.accounts.models import PALETTE, Profile

FIELDS = ("display_name", "color", "vacation_from", "vacation_until", "e_mail_turns")


def profile_of(*, user) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


@transaction.atomic
def update_profile(*, user, email: str | None = None, **changes) -> Profile:
    """Change some of FIELDS (and the account's e-mail address); all checked before anything is saved."""
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise InvalidInput(f"unknown profile field(s): {', '.join(sorted(unknown))}")
    profile = Profile.objects.select_for_update().get(pk=profile_of(user=user).pk)
    for name, value in changes.items():
        setattr(profile, name, value)
    profile.display_name = (profile.display_name or "").strip()
    if len(profile.display_name) > 40:
        raise InvalidInput("display_name: at most 40 characters")
    if any(ch in profile.display_name for ch in "<>") or any(not ch.isprintable() for ch in profile.display_name):
        raise InvalidInput("display_name: letters, digits, spaces and punctuation other than < and >")
    if profile.color and profile.color not in PALETTE:
        raise InvalidInput(f"color: one of {', '.join(PALETTE)}")
    start, end = profile.vacation_from, profile.vacation_until
    if (start is None) != (end is None):
        raise InvalidInput("vacation: give both the first and the last day, or neither")
    if start and end and end < start:
        raise InvalidInput("vacation: the last day is before the first")
    if start and end and end - start > datetime.timedelta(days=365):
        raise InvalidInput("vacation: at most a year")
    if email is not None:
        email = email.strip()
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise InvalidInput("email: not an e-mail address") from None
        user.email = email
        user.save(update_fields=["email"])
    profile.save()
    return profile


def profile_data(*, user) -> dict:
    profile = profile_of(user=user)
    return {
        "username": user.get_username(),
        "email": user.email,
        "display_name": profile.display_name,
        "color": profile.color,
        "vacation_from": profile.vacation_from,
        "vacation_until": profile.vacation_until,
        "e_mail_turns": profile.e_mail_turns,
        "palette": PALETTE,
    }
