"""League standings' figures as players read them (organisers' issue items 4 and 5): the tie-break counts only
tables already played and nobody disqualified; the rating column is the shown rating; numbers are whole."""

import pytest
from django.utils import timezone

from roboracer.ratings.selectors import DEFAULT_SHOWN
from roboracer.tournaments import selectors
from roboracer.tournaments.models import Entry
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


def figures(tournament):
    return {row["username"]: (row["points"], row["opponents_points"]) for row in selectors.standings(tournament=tournament)}


def test_the_tie_break_counts_played_tables_only_and_no_disqualified_player(make_user, courses):
    olga = organiser(make_user)
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2,
                                         format="league", league_rounds=2, points=[3, 1]), field)
    first, second = current_tables(tournament)
    (a, b), (c, d) = users_at(first), users_at(second)
    finish_table(first, [a, b])
    finish_table(second, [c, d])
    after_one = figures(tournament)
    assert after_one == {a.username: (3, 1), b.username: (1, 3), c.username: (3, 1), d.username: (1, 3)}
    assert rounds.advance(tournament_id=tournament.pk) is not None  # round 2 is seated, not played
    assert figures(tournament) == after_one  # a table just seated adds nothing to anyone's tie-break
    rows = selectors.standings(tournament=tournament)
    assert all(type(row["points"]) is int and type(row["opponents_points"]) is int for row in rows)
    assert all(row["rating"] == DEFAULT_SHOWN for row in rows)  # the shown rating, as on profiles
    # Disqualify the winner of table 1: their 3 points no longer count in their old opponent's tie-break.
    Entry.objects.filter(tournament=tournament, user=a).update(disqualified_at=timezone.now())
    assert figures(tournament)[b.username] == (1, 0)
