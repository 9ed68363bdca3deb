"""Celery tasks. Each is safe to run twice: the services check what is already done."""

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from games import services
from games.models import Game

STUCK_AFTER = timedelta(seconds=10)


@shared_task(name="games.tasks.resolve_turn")
def resolve_turn_task(game_id: int, turn: int) -> bool:
    return services.resolve_turn(game_id=game_id, turn=turn) is not None


@shared_task(name="games.tasks.sweep_games")
def sweep_games() -> int:
    """Beat task: re-enqueue resolutions whose task was lost (Redis restarted, worker died)."""
    stuck = Game.objects.filter(
        status=Game.Status.RESOLVING, resolving_since__lt=timezone.now() - STUCK_AFTER
    ).values_list("pk", "turn")
    count = 0
    for game_id, turn in stuck:
        resolve_turn_task.delay(game_id, turn)
        count += 1
    return count
