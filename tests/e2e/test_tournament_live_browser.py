"""The live tournament page in Chromium on the real stack (issue 38 item 1): two players wait on the tournament
page while registration is open (one on a phone, one on a desktop), see the countdown tick, and when registration
closes their own "your game is ready → Play" card appears without a reload; a watcher who does not play sees the
round and no card. Screenshots before and after, phone and desktop."""

import pytest
from django.utils import timezone

from roboracer.tournaments.models import Tournament
from roboracer.tournaments.services import registration, rounds
from tests.e2e.conftest import ARTIFACTS
from tests.helpers import log_in
from tests.tournaments.factories import current_tables, open_tournament, organiser

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}


def test_players_waiting_on_the_page_are_told_their_game_is_ready(live_stack, courses, new_page, make_user):
    base = live_stack.base_url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    olga = organiser(make_user)
    tournament = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2, name="Live Cup")
    users = {"fay": make_user("fay"), "hal": make_user("hal"), "sam": make_user("sam")}
    for name in ("fay", "hal"):
        registration.register(user=users[name], tournament_id=tournament.pk)
    pages = {}
    for name, viewport in (("fay", "phone"), ("hal", "desktop"), ("sam", "phone")):
        page, console = new_page(name, VIEWPORTS[viewport])
        log_in(page, base, name)
        page.goto(f"{base}/tournaments/{tournament.pk}/")
        page.wait_for_selector("#tournament-live[data-socket='open']")
        page.evaluate("() => { window.notReloaded = true; }")
        pages[name] = (page, console, viewport)
    fay = pages["fay"][0]
    first = fay.inner_text("#start-countdown [data-countdown]")
    assert first.startswith("in ") and " min " in first  # about an hour to go, counted to the second
    fay.wait_for_function("t => document.querySelector('#start-countdown [data-countdown]').textContent !== t", arg=first)
    for name in ("fay", "hal"):
        page, _, viewport = pages[name]
        page.screenshot(path=str(ARTIFACTS / f"tournament-live-waiting-{viewport}-{name}.png"), full_page=True)

    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())
    assert rounds.close_registration(tournament_id=tournament.pk) == "started"
    game_id = current_tables(tournament)[0].game_id
    for name in ("fay", "hal"):
        page, console, viewport = pages[name]
        page.wait_for_selector("#my-game-ready")
        assert page.evaluate("() => window.notReloaded === true")
        assert page.get_attribute("#play-my-game", "href") == f"/games/{game_id}/"
        assert "Round 1" in page.inner_text("#rounds-heading + h3")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
        page.screenshot(path=str(ARTIFACTS / f"tournament-live-ready-{viewport}-{name}.png"), full_page=True)
        assert not console.errors, console.errors
    sam = pages["sam"][0]
    sam.wait_for_function("() => document.querySelector('#tournament-live h3') !== null")
    assert sam.evaluate("() => window.notReloaded === true") and sam.locator("#my-game-ready").count() == 0

    # A player who clicks Play lands on their game.
    fay.click("#play-my-game")
    fay.wait_for_url(f"{base}/games/{game_id}/")
