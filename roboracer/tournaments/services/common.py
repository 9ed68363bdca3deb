"""What every write to a tournament shares: the organisers group, the tournament's row lock, its log, and a
player leaving their running game (through games' services, as every organiser action on a game does)."""

from __future__ import annotations

import logging

from celery import current_app
from django.contrib.auth.models import Group

from games.services import lobby
from roboracer.common.errors import GameError, NotFound
from roboracer.tournaments.models import Action, Entry, Round, TableSeat, Tournament

logger = logging.getLogger(__name__)
ORGANISERS = "organisers"


def is_organiser(user) -> bool:
    return bool(user and user.is_authenticated and (user.groups.filter(name=ORGANISERS).exists()))


def grant_organiser(*, user) -> None:
    """What staff do in the admin (the "organisers" group), for tests and the shell."""
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS)[0])


def log_action(tournament: Tournament, kind: str, text: str, *, actor=None) -> None:
    Action.objects.create(tournament=tournament, actor=actor, kind=kind, text=text[:500])


def locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(f"tournament {tournament_id} does not exist") from None


def organised(tournament_id: int, user) -> Tournament:
    """The tournament locked, for its organiser (or staff); anyone else gets the NotFound of a missing id."""
    tournament = locked(tournament_id)
    if tournament.organiser_id != user.pk and not user.is_staff:
        raise NotFound(f"tournament {tournament_id} does not exist")
    return tournament


def entry_of(tournament: Tournament, entry_id) -> Entry:
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).select_related("user").first()
    if entry is None:
        raise NotFound(f"entry {entry_id} is not in this tournament")
    return entry


def leave_running_game(tournament: Tournament, entry: Entry) -> None:
    """Resign the entry's bot from its game in the current round, if it is still playing (the game lock is
    taken after the tournament's). A game in the middle of resolving a turn cannot take it: the table's result
    puts a withdrawn or disqualified player last whatever the game says."""
    seat = (TableSeat.objects.filter(entry=entry, table__round__tournament=tournament,
                                     table__round__status=Round.Status.RUNNING, table__game__isnull=False)
            .select_related("table").first())
    if seat is None:
        return
    try:
        lobby.leave_game(user=entry.user, game_id=seat.table.game_id)
    except GameError as error:
        logger.info("tournament %s: %s left game %s later (%s)", tournament.pk, entry.user_id,
                    seat.table.game_id, error.message)


ADVANCE = "tournaments.tasks.advance"  # the task's name (roboracer/tournaments/tasks.py registers it)


def send_task(name: str, *args) -> None:
    """The task `name` with `args`, by name (the services never import the tasks that call them): through the
    registered task when this process has it (its options, a test's eager mode), else to the broker."""
    current_app.signature(name, args=args).apply_async()
