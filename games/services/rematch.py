"""Play again on a finished game: one new lobby, exactly once, the other players invited."""

from __future__ import annotations

import logging

from django.db import transaction

from games import kinds
from games.models import Game
from games.selectors import access, competitions, rematch
from games.services import computer_seats, lobby, locking, notices, publish, turns
from roboracer.common.errors import Conflict, NotAllowed, NotFound

logger = logging.getLogger(__name__)


def play_again(*, user, game_id: int) -> tuple[Game, bool]:
    """"Play again" on a finished game: a new lobby on the same course (the finished game's own copy of it) and
    settings (seats, lives, visibility, timers, timeout policy), the presser in seat 1, and the finished game's
    other players invited (a notice on their own socket; the game in their "My games"; a private game lets
    them in without its code). Exactly once: a second press, or another player's at the same moment, gets the
    same new game. Returns (the new game, whether this call made it)."""
    with transaction.atomic():
        game = locking.locked_game(game_id)
        seats = list(game.seats.select_related("user").order_by("number"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            if game.visibility == Game.Visibility.PRIVATE and not user.is_staff:
                raise NotFound(f"game {game_id} does not exist")  # a private game is absent to strangers
            raise NotAllowed("only the players of this game can play it again")
        if game.status != Game.Status.FINISHED:
            raise Conflict("only a finished game can be played again")
        competition = competitions.competition(game=game)
        if competition is not None:  # a tournament's table: the tournament seats its players' next games
            raise Conflict(f"this game was played in the {competition['kind']} {competition['name']}, which seats "
                           "its players' next games: it is not played again")
        if game.rematch_id is not None:
            return Game.objects.get(pk=game.rematch_id), False
        if game.test_drive and not access.may_test_drive(user=user, course_id=game.course_id):
            # A guest of a test drive would otherwise re-create the author's private draft (issue 33 item 12).
            raise NotAllowed("only the course's author and staff can play a test drive again")
        new = lobby.create_game(
            user=user, kind=game.kind or kinds.DEFAULT, visibility=game.visibility, timer_preset=game.timer_preset,
            move_time=game.move_time, game_time=game.game_time, timeout_policy=game.timeout_policy,
            **kinds.of(game).again(game),
        )
        computers = [seat.computer for seat in seats if seat.computer]
        if computers:
            _rematch_computers(new, computers)  # the computer players come back to the new lobby
        # The row lock makes this the only writer on PostgreSQL; the condition keeps it so on any database.
        if not Game.objects.filter(pk=game.pk, rematch__isnull=True).update(rematch=new):
            raise Conflict("this game was played again meanwhile: open it from the results")
        game.rematch = new
        publish.append_event(game, "rematch", {"game": new.pk, "seat": mine.number})
        game.save(update_fields=["version", "updated_at"])
        notice = rematch.rematch_notice(old=game, new=new, by=user)
        notices.notify(
            user_ids=[seat.user_id for seat in seats if seat.user_id != user.pk and seat.user_id is not None],
            kind="rematch", text=f"{notice['by']} wants to play again: game {new.pk} ({notice['course']})",
            link=notice["url"], source={"game": new.pk}, message={k: v for k, v in notice.items() if k != "type"},
        )
    return new, True


def _rematch_computers(game: Game, strengths: list[str]) -> None:
    """Play again with computer players: they take the new lobby's free seats again, and a game that fills up
    starts at once (a practice game plays on with one click). The caller holds the transaction."""
    game = locking.locked_game(game.pk)
    why = computer_seats.computer_refusal(game, computers=len(strengths))
    if why is not None:
        raise Conflict(why)
    placed = list(game.seats.all())
    for strength in strengths:
        free = [n for n in range(1, game.max_seats + 1) if n not in {seat.number for seat in placed}]
        if not free:
            break
        seat = computer_seats.seat_computer(game, placed, strength, free[0])
        placed.append(seat)
        computer_seats.computer_joined(game, seat)
    game.rated = False
    if len(placed) == game.max_seats and not game.teams:
        turns.start(game)
    game.save()

