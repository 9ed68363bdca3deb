"""The tournament list names each tournament's game and time control (organisers' issue, smaller points)."""

import pytest
from django.test import Client

from tests.tournaments.factories import open_tournament, organiser

pytestmark = pytest.mark.django_db


def test_each_listed_tournament_says_its_game_and_its_timers(make_user, courses):
    olga = organiser(make_user)
    open_tournament(organiser=olga, courses=[courses["tiny-yard"]], name="Quick Cup", move_time=120, game_time=600)
    open_tournament(organiser=olga, courses=[], name="Chess Cup", kind="rambots", move_time=86400, game_time=0)
    page = " ".join(Client().get("/tournaments/").content.decode().split())
    quick = page[page.index("Quick Cup"):page.index("</li>", page.index("Quick Cup"))]
    assert "RoboRacer ·" in quick and "2 min a move, 10 min game time" in quick
    chess = page[page.index("Chess Cup"):page.index("</li>", page.index("Chess Cup"))]
    assert "RAMbots ·" in chess and "1 day a move, no game time" in chess


@pytest.mark.parametrize(("policy", "ejected"), [("wait", True), ("eject", True), ("computer", False),
                                                  ("random", False)])
def test_the_rules_text_follows_the_time_out_policy(make_user, courses, policy, ejected):
    olga = organiser(make_user)
    tournament = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], timeout_policy=policy)
    page = " ".join(Client().get(f"/tournaments/{tournament.pk}/").content.decode().split())
    rules = page.split('id="rules-leaving">')[1].split("</p>")[0]
    assert ("being ejected for time" in rules) is ejected, rules
    assert ("Nobody is ejected for time" in rules) is (not ejected)


def test_a_paused_round_whose_tables_are_all_played_does_not_say_running(make_user, courses):
    from roboracer.tournaments.models import Tournament
    from tests.tournaments.factories import current_tables, finish_table, started, users_at

    olga = organiser(make_user)
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2), field)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.PAUSED)
    for table in current_tables(tournament):
        finish_table(table, users_at(table))
    page = " ".join(Client().get(f"/tournaments/{tournament.pk}/").content.decode().split())
    status = page.split("data-round-status>")[1].split("</span>")[0]
    assert status == "played; the next waits for the organiser to resume"


@pytest.mark.parametrize(("advance", "words"), [
    (1, "Heats: the winner of each table goes through"), (2, "Heats: the top 2 of each table go through")])
def test_the_heats_rule_reads_well_for_one_and_for_more(make_user, courses, client, advance, words):
    tournament = open_tournament(organiser=organiser(make_user), courses=[courses["cogwheel-crossing"]],
                                 table_size=4, advance=advance)
    assert words in client.get(f"/tournaments/{tournament.pk}/").content.decode()
