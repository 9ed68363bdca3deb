"""A tournament in Chromium on the real stack: the organiser creates it with the form, a player registers on
the tournament page (three more through the API), the organiser closes registration, the player plays round 1
in the game screen (the other seats play through the API), and the tournament page's standings and rounds
update with the places. Screenshots, desktop 1280x900 and phone 390x844, into var/test-artifacts/."""

import random

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from roboracer.tournaments.models import Round, TableSeat, Tournament
from roboracer.tournaments.services import common
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import sign_up
from tests.e2e.test_site_features import submit_first_chips
from tests.helpers import wait_until
from tests.integration.client import Player
from tests.integration.test_tournaments import play_turn

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def standings(page):
    return page.eval_on_selector_all(
        "#standings tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")


def test_organiser_creates_players_register_and_play_round_one(live_stack, courses, new_page):
    base = live_stack.base_url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    olga, olga_console = new_page("olga", DESKTOP)
    ann, ann_console = new_page("ann", PHONE)
    sign_up(olga, base, "olga")
    common.grant_organiser(user=get_user_model().objects.get(username="olga"))
    sign_up(ann, base, "ann")

    # The organiser creates the tournament with the form.
    olga.goto(f"{base}/tournaments/")
    olga.click("#new-tournament")
    olga.fill("#id_name", "Tiny Yard Cup")
    olga.fill("#id_description", "Two at a table; the winner goes through.")
    olga.get_by_label("Tiny Yard (1-4 players)").check()
    olga.fill("#id_table_size", "2")
    olga.fill("#id_lives", "1")
    olga.fill("#id_min_players", "4")
    olga.screenshot(path=str(ARTIFACTS / "tournament-create-desktop.png"), full_page=True)
    olga.click("#create-tournament")
    olga.wait_for_url(f"{base}/tournaments/*/organise/")
    tournament = Tournament.objects.get(name="Tiny Yard Cup")
    assert (tournament.table_size, tournament.lives, tournament.format) == (2, 1, "heats")

    # A player registers on the page; three more through the API.
    ann.goto(f"{base}/tournaments/")
    ann.click("text=Tiny Yard Cup")
    ann.click("#register")
    ann.wait_for_selector("#withdraw")
    others = {name: Player(base, name) for name in ("bob", "cat", "dan")}
    for player in others.values():
        assert player.post(f"/api/tournaments/{tournament.pk}/register/").status_code == 200
    ann.reload()
    assert len(standings(ann)) == 4

    # The organiser closes registration: round 1 is seated, its games start.
    olga.click("#start-now")
    olga.wait_for_selector("text=Registration closed: round 1 is seated.")
    olga.screenshot(path=str(ARTIFACTS / "tournament-organise-desktop.png"), full_page=True)
    assert Round.objects.filter(tournament=tournament).count() == 1

    # Ann finds her game on the tournament page and plays its first turn in the game screen.
    ann.goto(f"{base}/tournaments/{tournament.pk}/")
    ann.screenshot(path=str(ARTIFACTS / "tournament-round-one-phone.png"), full_page=True)
    mine = TableSeat.objects.select_related("table").get(entry__user__username="ann")
    ann.click(f".t-table[data-table='{mine.table.number}'] a:has-text('Game {mine.table.game_id}')")
    ann.wait_for_url(f"{base}/games/{mine.table.game_id}/")
    ann.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    game = Game.objects.get(pk=mine.table.game_id)
    submit_first_chips(ann, game, "ann", 1)

    # The other seats play through the API until both games of round 1 are over (Ann too, after turn 1).
    rng = random.Random(18)

    def round_two_or_play() -> bool:
        """True once round 2 exists; else every seat of round 1 that waits for a program gets one."""
        if Round.objects.filter(tournament=tournament).count() >= 2:
            return True
        for seat in TableSeat.objects.filter(table__round__number=1).select_related("entry__user", "table"):
            name = seat.entry.user.username
            if name in others:
                play_turn(others[name], seat.table.game_id, rng)
            elif Game.objects.get(pk=seat.table.game_id).turn > 1:
                ann_page_plays = Game.objects.get(pk=seat.table.game_id)
                ann.goto(f"{base}/games/{ann_page_plays.pk}/")
                ann.wait_for_selector("#game-status")
                if ann_page_plays.status == "programming":
                    submit_first_chips(ann, ann_page_plays, "ann", ann_page_plays.turn)
        return False

    wait_until(round_two_or_play, "round 1 to finish", timeout=90, interval=0.5)
    assert Round.objects.filter(tournament=tournament).count() == 2, "round 1 did not finish"

    # The standings now carry round 1's places, and round 2 (the final) is on the page.
    ann.goto(f"{base}/tournaments/{tournament.pk}/")
    ann.wait_for_selector("h3:has-text('Round 2')")
    rows = standings(ann)
    places = {row[1]: row for row in rows}
    winners = set(TableSeat.objects.filter(table__round__number=1, place=1).values_list(
        "entry__user__username", flat=True))
    assert len(winners) == 2 and all(places[name][4] == "in" for name in winners)
    assert sorted(row[4] for row in rows if row[1] not in winners) == ["out in round 1", "out in round 1"]
    assert [row[0] for row in rows] == ["1", "1", "3", "3"]
    assert all(places[name][3].startswith("1") for name in winners)
    ann.screenshot(path=str(ARTIFACTS / "tournament-standings-phone.png"), full_page=True)
    olga.goto(f"{base}/tournaments/{tournament.pk}/")
    olga.screenshot(path=str(ARTIFACTS / "tournament-standings-desktop.png"), full_page=True)
    assert olga.locator("#tournament-log").inner_text().count("round 2") == 1
    # The page must not scroll sideways on a phone.
    assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not olga_console.errors and not ann_console.errors, olga_console.errors + ann_console.errors
