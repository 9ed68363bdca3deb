"""The beat task's sweep: due registrations closed, missed table results and advances repaired, each tournament
in its own transaction so that one failing tournament is marked stalled and never stops the others."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.services import locking, turns
from roboracer.tournaments.models import Round, Table, Tournament
from roboracer.tournaments.services.results import record_table
from roboracer.tournaments.services.rounds import advance, close_registration

logger = logging.getLogger(__name__)


def _mark_stalled(tournament_id: int, step: str, error: Exception, now: datetime) -> None:
    """A step of this tournament failed: mark it, and log it once (the conditional UPDATE marks it once; a
    marked tournament is not swept again until staff clear the mark). The reason names the step and the
    error's type only: it is shown to the organiser, and an error's text may hold anything."""
    reason = f"{step} failed ({type(error).__name__}); staff must look at it and clear the mark"[:200]
    if Tournament.objects.filter(pk=tournament_id, stalled_at__isnull=True).update(stalled_at=now,
                                                                                  stalled_reason=reason):
        logger.error("tournament %s: %s failed; marked stalled, the sweep passes over it", tournament_id, step,
                     exc_info=error)


def _isolated(tournament_id: int, step: str, now: datetime, work) -> bool:
    """Run one tournament's step in its own transaction; a failure rolls back that step only, marks the
    tournament and lets the sweep go on with the others. Returns whether the step moved the tournament."""
    try:
        with transaction.atomic():
            return work() is not None
    except Exception as error:  # noqa: BLE001 - any failure of one tournament must not stop the others
        _mark_stalled(tournament_id, step, error, now)
        return False


def sweep(*, now: datetime | None = None) -> int:
    """The beat task's work: close registrations that are due, and repair a missed advance (a task lost with
    Redis, a worker killed mid-task). Returns how many tournaments it moved.

    One bad tournament never stops the sweep: each tournament's step runs in its own transaction, and a
    failure marks that tournament (`stalled_at`, `stalled_reason`), is logged once, and the sweep goes on; a
    marked tournament is passed over until staff clear the mark (docs/tournaments.md "When a step fails")."""
    now = now or timezone.now()
    moved = 0
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION, registration_closes__lte=now,
                                    stalled_at__isnull=True)
    for tournament_id in list(due.values_list("pk", flat=True)):
        moved += _isolated(tournament_id, "closing the registration", now,
                           lambda pk=tournament_id: close_registration(tournament_id=pk, now=now))
    # First a game that finished while its table's places were not recorded (none expected: the receiver
    # runs in the finishing transaction), then the advances.
    missed = (Table.objects.filter(finished=False, game__status=Game.Status.FINISHED,
                                   round__tournament__stalled_at__isnull=True)
              .values_list("game_id", "round__tournament_id"))
    for game_id, tournament_id in list(missed):
        def record(game_id=game_id):
            game = locking.locked_game(game_id=game_id)
            record_table(game=game, state=turns.outcome_of(game))
            return None

        _isolated(tournament_id, f"recording the places of game {game_id}", now, record)
    stalled = (Round.objects.filter(status=Round.Status.RUNNING, tournament__status=Tournament.Status.RUNNING,
                                    tournament__stalled_at__isnull=True)
               .exclude(tables__finished=False).values_list("tournament_id", flat=True))
    for tournament_id in list(stalled):
        moved += _isolated(tournament_id, "advancing to the next round", now,
                           lambda pk=tournament_id: advance(tournament_id=pk))
    return moved
