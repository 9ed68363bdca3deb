"""Celery tasks; each safe to run twice (the services check what is already done)."""

from celery import shared_task

from roboracer.tournaments.services import rounds, sweeping


@shared_task(name="tournaments.tasks.advance")
def advance_task(tournament_id: int) -> bool:
    return rounds.advance(tournament_id=tournament_id) is not None


@shared_task(name="tournaments.tasks.sweep")
def sweep_tournaments() -> int:
    """Beat task: close due registrations (round 1), and repair an advance whose task was lost."""
    return sweeping.sweep()
