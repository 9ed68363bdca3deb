"""A player's registration: registering during the window, withdrawing (before the start, or leaving a running
tournament)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from roboracer.accounts import selectors as account_selectors
from roboracer.common.errors import Conflict, NotFound
from roboracer.tournaments import selectors
from roboracer.tournaments.models import Entry, Tournament
from roboracer.tournaments.services.common import leave_running_game, locked, log_action


@transaction.atomic
def register(*, user, tournament_id: int) -> Entry:
    tournament = locked(tournament_id)
    now = timezone.now()
    if tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict(f"registration is over: the tournament is {tournament.status}")
    if now < tournament.registration_opens:
        raise Conflict("registration has not opened yet")
    if now >= tournament.registration_closes:
        raise Conflict("registration has closed")
    if not tournament.allow_bots and account_selectors.is_bot(user=user):
        raise Conflict("this tournament does not take bot accounts (its organiser decides)")
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is not None:
        if entry.withdrawn_at is None:
            raise Conflict("you are already registered")
        entry.withdrawn_at = None  # registering again during the window
        entry.save(update_fields=["withdrawn_at"])
    else:
        entry = Entry.objects.create(tournament=tournament, user=user)
    log_action(tournament, "registered", f"{selectors.name_of(user)} registered", actor=user)
    return entry


@transaction.atomic
def withdraw(*, user, tournament_id: int) -> Entry:
    """Before the start: the registration is withdrawn. Running: the player leaves the tournament; a game they
    are playing is resigned for them, so they take the last place at its table."""
    tournament = locked(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn_at__isnull=True).first()
    if entry is None:
        raise NotFound("you are not registered in this tournament")
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(f"the tournament is {tournament.status}")
    if entry.disqualified_at is not None or entry.eliminated_in is not None:
        raise Conflict("you are already out of this tournament")
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    log_action(tournament, "withdrew", f"{selectors.name_of(user)} withdrew", actor=user)
    leave_running_game(tournament, entry)
    return entry
