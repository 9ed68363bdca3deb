"""A league's standings on a phone (issue 38, "the standings' Status column is off-screen"): after two rounds of
eight players, every row's Status cell lies inside a 390 px screen without scrolling; on a desktop the places per
round show too. Screenshots of both."""

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.tournaments.factories import open_tournament, organiser, play_to_the_end, started

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_status_column_stays_on_a_phone(live_stack, courses, new_page, make_user):
    olga = organiser(make_user)
    field = [make_user(f"player{n}") for n in range(8)]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=4,
                                         format="league", league_rounds=2), field)
    play_to_the_end(tournament)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, viewport in (("phone", {"width": 390, "height": 844}), ("desktop", {"width": 1440, "height": 900})):
        page, console = new_page(f"viewer{name}", viewport)
        page.goto(f"{live_stack.base_url}/tournaments/{tournament.pk}/")
        page.locator("#standings").scroll_into_view_if_needed()
        rights = page.eval_on_selector_all("#standings td.status", "cells => cells.map(c => c.getBoundingClientRect().right)")
        assert len(rights) == 8 and max(rights) <= viewport["width"], rights
        assert page.evaluate("() => document.querySelector('.standings-wrap').scrollWidth "
                             "<= document.querySelector('.standings-wrap').clientWidth")
        assert page.locator("#standings th.col-places").is_visible() == (name == "desktop")
        page.screenshot(path=str(ARTIFACTS / f"tournament-league-standings-{name}.png"), full_page=True)
        assert not console.errors, console.errors
