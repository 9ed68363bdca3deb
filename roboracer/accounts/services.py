"""Writes to accounts: sign-up and the profile (each one function, used by the pages and the API alike)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from roboracer.accounts import signals
from roboracer.accounts.models import PALETTE, ApiToken, Profile
from roboracer.accounts.names import NameError_, clean_display_name, clean_username, lookalike_keys, name_key
from roboracer.common.errors import Conflict, InvalidInput, NotFound

TAKEN = "that name is taken (names are the same ignoring upper and lower case)"
LOOKALIKE = "that name is taken: it looks like another player's name (letters that look alike count as the same)"

FIELDS = ("display_name", "color", "vacation_from", "vacation_until", "e_mail_turns", "e_mail_notices")


def _name_in_use(*, name: str, user_id: int | None) -> bool:
    """Whether another account's username or display name equals `name` ignoring case (names.py)."""
    key = name_key(name)
    others = get_user_model().objects.exclude(pk=user_id) if user_id is not None else get_user_model().objects
    # Usernames are ASCII, so iexact (ASCII case-insensitive on SQLite) is exact for them.
    return (others.filter(username__iexact=key).exists()
            or Profile.objects.filter(display_name_key=key).exclude(user_id=user_id).exists())


def _name_looks_taken(*, name: str, user_id: int | None) -> bool:
    """Whether another account's username or display name looks like `name` (their TR39 confusable
    skeletons meet, names.lookalike_keys). Computed on the fly over every other name: skeletons are cached
    per name, and a name is checked only when it is chosen."""
    keys = lookalike_keys(name)
    users = get_user_model().objects.exclude(pk=user_id) if user_id is not None else get_user_model().objects
    profiles = Profile.objects.exclude(display_name="").exclude(user_id=user_id)
    names = users.values_list("username", flat=True).iterator(chunk_size=2000)
    shown = profiles.values_list("display_name", flat=True).iterator(chunk_size=2000)
    return any(not keys.isdisjoint(lookalike_keys(other)) for source in (names, shown) for other in source)


def checked_username(*, username: str, user_id: int | None) -> str:
    """The username as it would be stored, if it follows the rules and no other account has it (for the
    account `user_id`, or a new one); else InvalidInput/Conflict."""
    try:
        username = clean_username(username)
    except NameError_ as error:
        raise InvalidInput(str(error)) from None
    if _name_in_use(name=username, user_id=user_id):
        raise Conflict(f"username: {TAKEN}")
    if _name_looks_taken(name=username, user_id=user_id):
        raise Conflict(f"username: {LOOKALIKE}")
    if username.lower().startswith(COMPUTER_PREFIX) and not _is_computer_account(user_id):
        raise Conflict(f"username: names beginning with '{COMPUTER_PREFIX}' belong to the site's computer players")
    return username


COMPUTER_PREFIX = "computer-"  # games.services.computer_user's accounts (docs/computer-players.md)


def _is_computer_account(user_id: int | None) -> bool:
    if user_id is None:
        return False
    name = get_user_model().objects.filter(pk=user_id).values_list("username", flat=True).first() or ""
    return name.lower().startswith(COMPUTER_PREFIX)


def available_username(*, username: str) -> str:
    """The username for a new account (see checked_username)."""
    return checked_username(username=username, user_id=None)


def sign_up(*, username: str, password: str):
    """A new account (the sign-up form and the API both come here). The database's unique index on
    lower(username) settles a race between two sign-ups with the same name."""
    username = available_username(username=username)
    user_model = get_user_model()
    try:
        validate_password(password, user_model(username=username))
    except ValidationError as error:
        raise InvalidInput(" ".join(error.messages)) from None
    try:
        with transaction.atomic():
            return user_model.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise Conflict(f"username: {TAKEN}") from None


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
    try:
        profile.display_name = clean_display_name(profile.display_name or "")
    except NameError_ as error:
        raise InvalidInput(str(error)) from None
    if profile.display_name and _name_in_use(name=profile.display_name, user_id=user.pk):
        raise Conflict(f"display_name: {TAKEN}")
    if profile.display_name and _name_looks_taken(name=profile.display_name, user_id=user.pk):
        raise Conflict(f"display_name: {LOOKALIKE}")
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
    try:
        with transaction.atomic():
            profile.save()
    except IntegrityError:  # another player took the display name since the check
        raise Conflict(f"display_name: {TAKEN}") from None
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
        "e_mail_notices": profile.e_mail_notices,
        "bot": profile.is_bot,  # a bot account (docs/bot-api.md): read only here, changed by games.services.bots
        "palette": PALETTE,
    }


# --- personal API tokens (issue 41, docs/bot-api.md) ---------------------------------------------------------

TOKEN_SCOPES = ("play", "read")  # roboracer.accounts.tokens.SCOPES describes them
TOKEN_EXPIRY_DAYS = (0, 30, 90, 365)  # 0: never expires
TOKEN_NAME_CHARS = 60


def create_token(*, user, name: str, scopes, expiry_days: int) -> tuple[ApiToken, str]:
    """A new token for the account: (the row, the token's text). The text is returned once, here, and never
    stored: knox keeps its SHA-512 digest. At most API_TOKENS_PER_ACCOUNT live tokens (409 beyond), each live one
    with a name of its own (409 for a name in use)."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > TOKEN_NAME_CHARS \
            or not name.strip().isprintable():
        raise InvalidInput(f"name: 1 to {TOKEN_NAME_CHARS} printable characters")
    if not isinstance(scopes, (list, tuple, set)) or not scopes or not all(isinstance(s, str) for s in scopes) \
            or not set(scopes) <= set(TOKEN_SCOPES):
        raise InvalidInput(f"scopes: one or more of {', '.join(TOKEN_SCOPES)}")
    if type(expiry_days) is not int or expiry_days not in TOKEN_EXPIRY_DAYS:
        raise InvalidInput(f"expiry_days: one of {', '.join(map(str, TOKEN_EXPIRY_DAYS))} (0: never)")
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # counted one create at a time
        live = ApiToken.objects.filter(user=user).exclude(expiry__lte=timezone.now())
        if live.count() >= settings.API_TOKENS_PER_ACCOUNT:
            raise Conflict(f"you have {settings.API_TOKENS_PER_ACCOUNT} tokens: revoke one before making another")
        # Names tell the owner's tokens apart (the list shows nothing else they chose), and a form sent twice (a
        # reload of the page that showed the token) makes no second token (docs/trials/issue-41).
        if same := live.filter(name__iexact=name.strip()).first():
            raise Conflict(f"you have a token named '{same.name}' already: give this one another name")
        expiry = datetime.timedelta(days=expiry_days) if expiry_days else None
        return ApiToken.objects.create(user=user, expiry=expiry, name=name.strip(), scopes=sorted(set(scopes)))


def revoke_token(*, user, handle: str) -> None:
    """Delete one of the account's own tokens: it stops working at once, on the API, on open streams and
    sockets (signals.token_revoked). Another account's token, or none, is a 404 alike."""
    token = ApiToken.objects.filter(user=user, handle=handle).first() if isinstance(handle, str) else None
    if token is None:
        raise NotFound("there is no such token")
    digest = token.digest
    token.delete()
    transaction.on_commit(lambda: signals.token_revoked.send(sender=ApiToken, user_id=user.pk, digest=digest),
                          robust=True)


def make_bot(*, user) -> Profile:
    """The account becomes a bot account, for good (docs/bot-api.md). The caller (games.services.bots) has
    checked, in its transaction with the account's row locked, that the account has played no game."""
    if user.get_username().lower().startswith(COMPUTER_PREFIX) or user.is_staff:
        raise Conflict("this account cannot become a bot account")
    profile = Profile.objects.select_for_update().get(pk=profile_of(user=user).pk)
    if profile.is_bot:
        raise Conflict("this account is a bot account already")
    profile.bot_since = timezone.now()
    profile.save(update_fields=["bot_since"])
    profile.user = user  # the caller's user object now reads this profile (`user.profile`), not one cached before
    transaction.on_commit(lambda: signals.became_bot.send(sender=Profile, user_id=user.pk), robust=True)
    return profile
