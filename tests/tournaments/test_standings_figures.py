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


@pytest.mark.parametrize("fmt", ["heats", "league"])
def test_before_any_game_nobody_has_a_place_and_a_taken_back_registration_is_no_row(make_user, courses, fmt):
    from django.test import Client

    from roboracer.tournaments.services import registration

    olga = organiser(make_user)
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    quitter = make_user("eve")
    options = {"format": fmt, "league_rounds": 1} if fmt == "league" else {}
    tournament = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2, **options)
    registration.register(user=quitter, tournament_id=tournament.pk)
    registration.withdraw(user=quitter, tournament_id=tournament.pk)
    tournament = started(tournament, field)
    rows = selectors.standings(tournament=tournament)
    assert sorted(row["username"] for row in rows) == ["ann", "ben", "cat", "dan"]  # no eve
    assert all(row["place"] is None for row in rows), rows  # not everyone 1st, not 1, 2, 2, 2 by rating
    assert all(row.get("round_reached") is None for row in rows)
    page = " ".join(Client().get(f"/tournaments/{tournament.pk}/").content.decode().split())
    assert "Round 0" not in page and ">eve<" not in page
    # Each table names its course; its players are a plain list in seat order, not numbered like places.
    assert page.count('<p class="t-course">On <strong>Tiny Yard</strong></p>') == 2
    assert '<ul class="t-players">' in page and "<ol><li>" not in page
    first = current_tables(tournament)[0]
    a, b = users_at(first)
    finish_table(first, [a, b])
    places = {row["username"]: row["place"] for row in selectors.standings(tournament=tournament)}
    assert places[a.username] == 1  # once a table is played, places count


def test_a_disqualified_player_is_told_with_the_reason_everywhere_and_never_withdrawn(make_user, courses):
    from django.test import Client

    from games.models import Notice
    from roboracer.tournaments.services import organising
    from tests.helpers import client_for

    olga = organiser(make_user)
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2), field)
    ann = field[0]
    entry = Entry.objects.get(tournament=tournament, user=ann)
    organising.disqualify(user=olga, tournament_id=tournament.pk, entry_id=entry.pk, reason="played two accounts")
    browser = Client()
    browser.force_login(ann)
    page = " ".join(browser.get(f"/tournaments/{tournament.pk}/").content.decode().split())
    assert 'id="disqualified-note"' in page and "<q>played two accounts</q>" in page
    mine = " ".join(browser.get("/tournaments/mine/").content.decode().split())
    assert "disqualified: played two accounts" in mine and "withdrawn" not in mine
    detail = client_for(ann).get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["entry"] == {"status": "disqualified", "reason": "played two accounts"}
    row = next(r for r in detail["standings"] if r["username"] == "ann")
    assert row["status"] == "disqualified"
    (notice,) = Notice.objects.filter(user=ann, kind="tournament_status")
    assert notice.text == f"You were disqualified from {tournament.name}: played two accounts"
    assert client_for(field[1]).get(f"/api/tournaments/{tournament.pk}/").json()["entry"]["status"] == "in"
