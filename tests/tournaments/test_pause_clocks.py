"""A paused tournament stops the clocks of its running games, and resume restarts them (issue 38 item 7; this
reverses the earlier choice in docs/tournaments.md "Pause"). Through the real services, on games the tournament
seated."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import clocks
from games.models import ChatMessage, Game, Seat
from games.services import moves, timeouts, turns
from roboracer.tournaments.services import organising
from tests.games.factories import legal_program
from tests.helpers import many_players
from tests.tournaments.factories import current_tables, open_tournament, organiser, started, users_at

pytestmark = pytest.mark.django_db


def running_game(make_user, courses, size=2):
    olga = organiser(make_user)
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=size,
                                         move_time=60, game_time=300), many_players(make_user, size))
    (table,) = current_tables(tournament)
    return olga, tournament, Game.objects.get(pk=table.game_id), users_at(table)


def test_pause_holds_every_clock_and_resume_gives_back_the_same_time(make_user, courses):
    olga, tournament, game, (ann, ben) = running_game(make_user, courses)
    seats = list(game.seats.order_by("number"))
    assert all(clocks.running(seat) for seat in seats)

    organising.pause(user=olga, tournament_id=tournament.pk)
    game.refresh_from_db()
    assert game.clocks_from == clocks.PAUSED
    held = {seat.number: clocks.left_at(seat, timezone.now()) for seat in game.seats.all()}
    a_week_later = timezone.now() + timedelta(days=7)
    for seat in game.seats.all():
        assert clocks.paused(seat) and not clocks.expired_at(seat, a_week_later)
        assert clocks.left_at(seat, a_week_later) == held[seat.number]  # nothing spent, however long it lasts
        assert clocks.public(seat, a_week_later) == {
            "number": seat.number, "move_left": round(held[seat.number].move, 1),
            "game_left": round(held[seat.number].game, 1), "clock_running": False, "expired": False, "paused": True}
    assert timeouts.due_games(now=a_week_later) == []  # nobody can be ejected for time meanwhile
    assert ChatMessage.objects.filter(game=game, text__contains="paused").exists()

    # A program may still be sent; its clock stops as always; the other's stays held.
    moves.submit_program(user=ann, game_id=game.pk, turn=game.turn, chips=legal_program(game, ann))
    ben_seat = Seat.objects.get(game=game, user=ben)
    assert clocks.paused(ben_seat)

    organising.resume(user=olga, tournament_id=tournament.pk)
    game.refresh_from_db()
    now = timezone.now()
    ben_seat.refresh_from_db()
    assert game.clocks_from <= now and not clocks.paused(ben_seat) and clocks.running(ben_seat)
    left = clocks.left_at(ben_seat, now)
    assert abs(left.total - held[ben_seat.number].total) < 5  # what it had when paused, counting from now
    assert ben_seat.deadline < now + timedelta(seconds=left.total + 5)
    assert timeouts.due_games(now=now + timedelta(seconds=left.total + 1)) == [game.pk]


def test_a_turn_dealt_during_the_pause_starts_paused(make_user, courses):
    olga, tournament, game, players = running_game(make_user, courses)
    organising.pause(user=olga, tournament_id=tournament.pk)
    game.refresh_from_db()
    # The turn is played while paused (as the worker would after both programs are in) and the next dealt.
    for user in players:
        moves.submit_program(user=user, game_id=game.pk, turn=game.turn, chips=legal_program(game, user))
    turn = game.turn
    turns.resolve_turn(game_id=game.pk, turn=turn)
    game.refresh_from_db()
    assert game.turn == turn + 1 and game.status == Game.Status.PROGRAMMING
    thinking = [seat for seat in game.seats.all() if clocks.running(seat)]
    assert thinking and all(clocks.paused(seat) for seat in thinking)
    assert game.clocks_from == clocks.PAUSED


def test_ending_a_paused_tournament_lets_its_games_clocks_run_again(make_user, courses):
    olga, tournament, game, _ = running_game(make_user, courses)
    organising.pause(user=olga, tournament_id=tournament.pk)
    organising.end(user=olga, tournament_id=tournament.pk)
    game.refresh_from_db()
    assert game.clocks_from != clocks.PAUSED
    assert not any(clocks.paused(seat) for seat in game.seats.all())
    assert all(clocks.running(seat) for seat in game.seats.all())
