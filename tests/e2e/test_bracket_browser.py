"""The heats bracket and the podium in a browser (issue 38 item 6): a finished heats tournament of eight on a phone
and a desktop; the bracket scrolls inside its own box, never the page. Screenshots of both."""

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.tournaments.factories import open_tournament, organiser, play_to_the_end, started

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_finished_heats_tournament_shows_its_bracket_and_podium(live_stack, courses, new_page, make_user):
    olga = organiser(make_user)
    field = [make_user(f"player{n}") for n in range(8)]
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2), field)
    play_to_the_end(tournament)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for viewport, name in (({"width": 390, "height": 844}, "phone"), ({"width": 1440, "height": 900}, "desktop")):
        page, _ = new_page(f"viewer{name}", viewport)
        page.goto(f"{live_stack.base_url}/tournaments/{tournament.pk}/")
        assert page.locator("#bracket .t-bracket-round").count() == 3  # 8 → 4 → 2 (the final)
        assert page.inner_text("#bracket .t-bracket-round >> nth=2 >> h3") == "Final"
        assert page.locator("#bracket li.won").count() == 1
        assert page.locator("#bracket .t-bracket-round >> nth=0 >> li.advanced").count() == 4
        assert page.locator("#tournament-podium li").count() >= 3
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        page.locator("#bracket").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"tournament-bracket-{name}.png"))
