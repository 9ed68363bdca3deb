"""Heats as a bracket and a finished tournament's podium (issue 38 item 6)."""

import pytest
from django.test import Client

from roboracer.tournaments import brackets
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


def test_the_bracket_marks_who_advanced_and_the_winner_and_the_podium_names_the_first_three(make_user, courses):
    olga = organiser(make_user)
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2), field)
    first, second = current_tables(tournament)
    (a, b), (c, d) = users_at(first), users_at(second)
    finish_table(first, [b, a])
    finish_table(second, [c, d])
    assert rounds.advance(tournament_id=tournament.pk) is not None
    (final,) = current_tables(tournament)
    finish_table(final, [c, b])
    rounds.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    bracket = brackets.bracket(tournament=tournament)
    assert [(r["number"], r["final"], len(r["tables"])) for r in bracket] == [(1, False, 2), (2, True, 1)]
    one = {p["name"]: (p["place"], p["advanced"], p["won"]) for t in bracket[0]["tables"] for p in t["players"]}
    assert one == {b.username: (1, True, False), a.username: (2, False, False), c.username: (1, True, False),
                   d.username: (2, False, False)}
    assert [(p["name"], p["won"]) for p in bracket[1]["tables"][0]["players"]] == [(c.username, True),
                                                                                   (b.username, False)]
    page = " ".join(Client().get(f"/tournaments/{tournament.pk}/").content.decode().split())
    assert 'id="bracket"' in page and "<h3>Final</h3>" in page
    podium = page.split('id="tournament-podium"')[1].split("</ol>")[0]
    assert podium.index(c.username) < podium.index(b.username) and "1st" in podium and "2nd" in podium


def test_a_league_has_no_bracket(make_user, courses):
    olga = organiser(make_user)
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2,
                                         format="league", league_rounds=1),
                         [make_user(name) for name in ("ann", "ben")])
    assert brackets.bracket(tournament=tournament) == []
    assert 'id="bracket"' not in Client().get(f"/tournaments/{tournament.pk}/").content.decode()
