"""Classic (000) end-of-race awards on the results screen (issue 37 item 10): alice (desktop 1440x900) and bob
(phone 390x844) play one classic turn on Classic Conveyor Court, bob resigns, and both results screens list
every award the finished game's snapshot carries (engine.reports.awards), with its winners' names. Screenshots
of both viewports."""

import pytest

from engine.reports import AWARDS
from engine.reports import awards as engine_awards
from games.models import Game
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import wait_for_turn
from tests.e2e.test_rulesets_browser import two_players_in_a_game
from tests.e2e.test_site_features import submit_first_chips

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def test_classic_results_show_the_awards(live_stack, courses, new_page):
    alice, _, bob, _, game_url, game = two_players_in_a_game(
        live_stack, courses, new_page, ruleset="classic", slug="classic-conveyor-court")
    alice.set_viewport_size(DESKTOP)
    bob.set_viewport_size(PHONE)
    for page in (alice, bob):
        page.goto(f"{game_url}?speed=0")
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    submit_first_chips(alice, game, "alice", 1)
    submit_first_chips(bob, game, "bob", 1, last=True)
    wait_for_turn(game, 1)
    bob.wait_for_selector("#game-status:has-text('Turn 2 — programming')")
    bob.click("#leave-game")
    bob.click("#confirm-yes")
    bob.wait_for_selector("#results", state="visible")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for page, name in ((alice, "desktop"), (bob, "phone")):
        page.wait_for_selector("#results", state="visible")
        page.locator("#results").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"classic-awards-{name}.png"), full_page=True)
    seats = list(game.seats.select_related("user"))
    names = {seat.bot_id: seat.user.username for seat in seats}
    turns = [turn.events for turn in game.turns.order_by("number")]
    awards = {entry["award"]: entry for entry in engine_awards([seat.bot_id for seat in seats], turns)}
    for page in (alice, bob):
        page.wait_for_selector("#results:not([hidden])")
        shown = page.eval_on_selector_all(
            "#results-awards li", "els => els.map(e => [e.dataset.award, e.innerText])")
        # An award both robots share singles nobody out and is not shown; every other one is, in 000's order.
        expected = [award[0] for award in AWARDS if len(set(awards[award[0]]["bots"])) < len(seats)]
        assert [key for key, _ in shown] == expected, (shown, awards)
        for key, text in shown:
            title = next(a[1] for a in AWARDS if a[0] == key)
            assert title.split(":")[0] in text, text
            assert all(names[bot] in text for bot in awards[key]["bots"]), (key, text)
        if expected:
            box = page.locator("#results-awards").bounding_box()
            assert box and box["width"] <= page.viewport_size["width"]
