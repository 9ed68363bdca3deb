"""Celery tasks. Each is safe to run twice: the services check what is already done."""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import timezone

from games import kinds
from games.models import Game, Notice, Seat
from games.services import computer_seats, moves, timeouts, turns

STUCK_AFTER = timedelta(seconds=10)
COMPUTER_LOST_AFTER = timedelta(seconds=30)  # a computer decides in 2 s at most (make bench-bots)
logger = logging.getLogger(__name__)


@shared_task(name="games.tasks.resolve_turn")
def resolve_turn_task(game_id: int, turn: int) -> bool:
    return turns.resolve_turn(game_id=game_id, turn=turn) is not None


@shared_task(name="games.tasks.sweep_games")
def sweep_games() -> int:
    """Beat task: re-enqueue resolutions and computer moves whose task was lost (Redis restarted, worker died)."""
    stuck = Game.objects.filter(
        status=Game.Status.RESOLVING, resolving_since__lt=timezone.now() - STUCK_AFTER
    ).values_list("pk", "turn")
    count = 0
    for game_id, turn in stuck:
        resolve_turn_task.delay(game_id, turn)
        count += 1
    for game_id, turn, seat in computer_seats.stalled_computer_seats(older_than=COMPUTER_LOST_AFTER):
        computer_move_task.apply_async((game_id, turn, seat), queue="computers")
        count += 1
    return count


@shared_task(name="games.tasks.computer_move")
def computer_move_task(game_id: int, turn: int, seat_number: int) -> bool:
    """A computer player's program for one seat and turn (the `computers` queue: its own workers, so thinking
    never delays a resolution). Safe to run twice: a seat with a program this turn is left alone."""
    return moves.play_computer_turn(game_id=game_id, turn=turn, seat_number=seat_number) is not None


@shared_task(name="games.tasks.enforce_deadlines")
def enforce_deadlines() -> int:
    """Beat task: every game with a seat past its deadline gets its timeout policy applied (deadlines live in
    the database, so a Redis restart loses none)."""
    count = 0
    for game_id in timeouts.due_games():
        if timeouts.enforce_deadline(game_id=game_id):
            count += 1
    return count


@shared_task(name="games.tasks.send_turn_emails")
def send_turn_emails(game_id: int, turn: int, seat_ids: list[int]) -> int:
    """"Your turn" e-mails for a slow game, to players with an address who have not turned them off and have
    not already moved."""
    sent = 0
    seats = Seat.objects.filter(pk__in=seat_ids, game_id=game_id).select_related("user", "game", "game__course")
    for seat in seats:
        game, user = seat.game, seat.user
        if game.turn != turn or game.status != Game.Status.PROGRAMMING or not user.email:
            continue
        profile = getattr(user, "profile", None)
        if profile is not None and not profile.e_mail_turns:
            continue
        if seat.programs.filter(turn=turn).exists():
            continue
        deadline = timezone.localtime(seat.deadline).strftime("%Y-%m-%d %H:%M %Z") if seat.deadline else "none"
        link = f"{settings.SITE_URL}{reverse('game', args=[game.pk])}"
        send_mail(
            subject=f"RoboRacer: your move in game {game.pk} (turn {turn})",
            message=(
                f"Turn {turn} of game {game.pk} on {kinds.of(game).board_name(game)} has been dealt and your robot waits for "
                f"its program.\n\nYour game timer starts once your move time runs out; it all runs out at "
                f"{deadline}.\n\n{link}\n\nTurn these e-mails off on your profile page."
            ),
            from_email=None,
            recipient_list=[user.email],
        )
        sent += 1
    logger.info("game %s turn %s: %s turn e-mail(s)", game_id, turn, sent)
    return sent


@shared_task(name="games.tasks.send_notice_emails")
def send_notice_emails(notice_ids: list[int]) -> int:
    """The bell's notices by e-mail, to players with an address who want them (the profile's "E-mail me my
    notices"), each once: a notice already read or already e-mailed is skipped (the task may run twice)."""
    sent = 0
    notices = Notice.objects.filter(pk__in=notice_ids, read_at__isnull=True, emailed_at__isnull=True)
    for notice in notices.select_related("user", "user__profile"):
        user = notice.user
        profile = getattr(user, "profile", None)
        if not user.email or (profile is not None and not profile.e_mail_notices):
            continue
        # Claimed first (a conditional UPDATE): two runs of this task never send one notice twice.
        if not Notice.objects.filter(pk=notice.pk, emailed_at__isnull=True).update(emailed_at=timezone.now()):
            continue
        link = f"{settings.SITE_URL}{notice.link}" if notice.link.startswith("/") else settings.SITE_URL
        send_mail(
            subject=f"RoboRacer: {notice.text}"[:150],
            message=f"{notice.text}\n\n{link}\n\nTurn these e-mails off on your profile page "
                    f"({settings.SITE_URL}{reverse('profile')}).",
            from_email=None,
            recipient_list=[user.email],
        )
        sent += 1
    return sent
