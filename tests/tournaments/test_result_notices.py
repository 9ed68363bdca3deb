"""Players are told how their tournament went (the organisers' walkthrough: after the end nobody was told, and the
bell still said "your game ... is ready"): a heats player out after a round hears it, everyone who played hears
the end with their place, and a finished table's "your game is ready" notice no longer calls anyone."""

import pytest

from games.models import Notice
from roboracer.tournaments.services import rounds
from tests.tournaments.factories import (
    current_tables,
    finish_table,
    open_tournament,
    organiser,
    started,
    users_at,
)

pytestmark = pytest.mark.django_db


def test_out_and_result_notices_and_the_ready_notice_settles(make_user, courses):
    olga = organiser(make_user)
    field = [make_user(f"p{n}") for n in range(4)]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2,
                                         name="Cup"), field)
    first_tables = current_tables(tournament)
    ready = Notice.objects.filter(kind="tournament_game_ready", read_at__isnull=True)
    assert ready.count() == 4
    orders = [users_at(table) for table in first_tables]
    for table, order in zip(first_tables, orders, strict=True):
        finish_table(table, order)
    assert ready.count() == 0  # every round 1 table is over: the bell no longer calls anyone to it
    rounds.advance(tournament_id=tournament.pk)
    losers = [order[1] for order in orders]
    for user in losers:
        assert Notice.objects.filter(user=user, kind="tournament_status", text="You are out of Cup after round 1").exists()
    (final,) = current_tables(tournament)
    winner, second = users_at(final)
    finish_table(final, [winner, second])
    rounds.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    results = {n.user.username: n.text for n in Notice.objects.filter(kind="tournament_result").select_related("user")}
    assert results[winner.username] == f"Cup is over: you finished 1st; {winner.username} wins"
    assert results[second.username] == f"Cup is over: you finished 2nd; {winner.username} wins"
    assert set(results) == {u.username for u in field}  # the round 1 losers hear the end too
    assert not Notice.objects.filter(user=olga, kind="tournament_result").exists()
