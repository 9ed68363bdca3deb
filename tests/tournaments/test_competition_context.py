"""A tournament's or the Pyramid's game carries its context (issue 38 item 2): the game page names the tournament
and its round and table (or the challenge) with a link back, and once the game is over the snapshot's
`competition.result` says what the result did: who advances, the league points, the swap or the point won."""

import re

import pytest
from django.test import Client

from games.selectors import competitions
from roboracer.pyramid import services as pyramid_services
from roboracer.pyramid.selectors import competition_of as pyramid_competition
from tests.pyramid.factories import place, pyramid
from tests.tournaments.factories import (
    current_tables,
    finish_table,
    open_tournament,
    organiser,
    started,
    users_at,
)

pytestmark = pytest.mark.django_db


def test_a_heats_table_names_its_round_and_table_and_then_who_advances(make_user, courses):
    olga = organiser(make_user)
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2), field)
    first, second = current_tables(tournament)
    before = competitions.competition(game=first.game)
    assert before == {"kind": "tournament", "name": "Spring Cup", "url": f"/tournaments/{tournament.pk}/",
                      "context": "round 1, table 1", "result": ""}
    winner, loser = users_at(first)
    finish_table(first, [winner, loser])
    first.refresh_from_db()
    assert competitions.competition(game=first.game)["result"] == f"{winner.username} advances to round 2"
    # The game page names it at the top, with the link back, for a player of the table.
    browser = Client()
    browser.force_login(winner)
    page = browser.get(f"/games/{first.game_id}/").content.decode()
    assert 'id="game-competition"' in page and f'href="/tournaments/{tournament.pk}/"' in page
    assert "round 1, table 1" in page


def test_a_league_table_says_the_points_as_whole_numbers(make_user, courses):
    olga = organiser(make_user)
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2,
                                         format="league", league_rounds=1, points=[5, 2]), field)
    table = current_tables(tournament)[0]
    a, b = users_at(table)
    finish_table(table, [b, a])
    assert competitions.competition(game=table.game)["result"] == f"Points: {b.username} 5, {a.username} 2"


def test_a_pyramid_game_names_the_challenge_and_then_what_it_did(make_user, courses):
    pyr = pyramid(courses=courses)
    ann, ben = make_user("ann"), make_user("ben")
    place(pyr, ann, 2, 1, points=8)
    place(pyr, ben, 1, 1)
    challenge = pyramid_services.create_challenge(user=ann, slug=pyr.slug, player="ben")
    game = challenge.game
    context = competitions.competition(game=game)
    assert context == {"kind": "Pyramid", "name": pyr.name, "url": f"/pyramid/{pyr.slug}/",
                       "context": "ann challenged ben", "result": ""}
    challenge.status = challenge.Status.DEFENDER_WON
    challenge.points_change = 1
    challenge.save()
    assert pyramid_competition(game=game)["result"] == "ben defended and wins 1 point"
    challenge.status = challenge.Status.CHALLENGER_WON
    challenge.challenger_to, challenge.defender_to = challenge.defender_from, challenge.challenger_from
    challenge.save()
    assert pyramid_competition(game=game)["result"] == "ann won: ann and ben swap places"


def test_the_tournament_page_says_your_game_is_ready_and_counts_down_to_the_start(make_user, courses):
    from datetime import timedelta

    from django.utils import timezone

    olga = organiser(make_user)
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    waiting = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2,
                              registration_closes=timezone.now() + timedelta(minutes=30))
    browser = Client()
    browser.force_login(field[0])
    page = browser.get(f"/tournaments/{waiting.pk}/").content.decode()
    # The server's words before the page's script counts to the second, and the close time it counts to.
    assert re.search(r'id="start-countdown" data-starts="[^"]+">Starts <span data-countdown>in \d+\xa0minutes', page)
    # Without scripts the page looks again by itself.
    refresh = page.split('<noscript><meta http-equiv="refresh" content="')[1].split('"')[0]
    assert refresh == "60"  # half an hour away: it looks again once a minute (just after the close when near)
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2,
                                         name="Summer Cup"), field)
    first = current_tables(tournament)[0]
    player = users_at(first)[0]
    browser.force_login(player)
    page = " ".join(browser.get(f"/tournaments/{tournament.pk}/").content.decode().split())
    assert 'id="my-game-ready"' in page and f'href="/games/{first.game_id}/"' in page
    assert "round 1, table 1, on Tiny Yard" in page
    finish_table(first, users_at(first))
    page = browser.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="my-game-ready"' not in page  # its game is over: nothing to play
