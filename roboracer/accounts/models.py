"""A player's profile: the name and colour opponents see, and vacation dates (003 "Time Limits")."""

import datetime
import secrets

from django.conf import settings
from django.db import models
from knox.models import AbstractAuthToken

from roboracer.accounts.names import name_key

# The robot colours, with the names players read (profile form); seat colours come from here too.
NAMED_PALETTE = [("#d62828", "red"), ("#1d4ed8", "blue"), ("#15803d", "green"), ("#ca8a04", "gold"),
                 ("#7c3aed", "violet"), ("#db2777", "pink"), ("#0891b2", "teal"), ("#ea580c", "orange")]
PALETTE = [colour for colour, _ in NAMED_PALETTE]


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40, blank=True, default="")
    # name_key(display_name), or None without one: unique, so no two players show names equal ignoring case
    # (roboracer/accounts/names.py). Kept in step by save().
    display_name_key = models.CharField(max_length=160, null=True, blank=True, unique=True, editable=False)
    color = models.CharField(max_length=7, blank=True, default="", help_text="preferred robot colour")
    vacation_from = models.DateField(null=True, blank=True)
    vacation_until = models.DateField(null=True, blank=True)
    e_mail_turns = models.BooleanField(default=True, help_text="e-mail me when it is my move in a slow game")
    e_mail_notices = models.BooleanField(
        default=True, help_text="e-mail me the notices of my bell (invitations, tournament games, challenges)")
    # A bot account (issue 41, docs/bot-api.md): a program plays it through the Bot API with a token. Set once,
    # on a fresh account, never unset; its name shows a BOT badge, and the game screen refuses it as a person.
    bot_since = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Profile of {self.user}"

    def save(self, *args, **kwargs):
        self.display_name_key = name_key(self.display_name) if self.display_name else None
        if kwargs.get("update_fields") is not None and "display_name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "display_name_key"}
        super().save(*args, **kwargs)

    @property
    def is_bot(self) -> bool:
        return self.bot_since is not None

    def name(self) -> str:
        return self.display_name or self.user.get_username()

    def vacation(self, today: datetime.date) -> dict | None:
        """The vacation to show opponents: current or upcoming, else None."""
        if self.vacation_from and self.vacation_until and self.vacation_until >= today:
            return {"from": self.vacation_from.isoformat(), "until": self.vacation_until.isoformat()}
        return None


def new_token_handle() -> str:
    return secrets.token_hex(6)


class ApiToken(AbstractAuthToken):
    """A personal API token (issue 41, docs/bot-api.md): django-rest-knox's token (stored as a SHA-512 digest,
    never in the clear, with an optional expiry) with the name its owner gave it and its scopes. `handle` is
    the public id the owner lists and revokes it by (the digest, the primary key, is never shown)."""

    handle = models.CharField(max_length=16, unique=True, default=new_token_handle, editable=False)
    name = models.CharField(max_length=60)
    scopes = models.JSONField(default=list)  # a sorted subset of roboracer.accounts.tokens.SCOPES

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"Token {self.name!r} of {self.user_id}"
