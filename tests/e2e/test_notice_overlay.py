"""Notices never move the board (issue 37, item 6), on a phone and a desktop: while alice plays one game, her move
comes up in another; the notice floats over the page and the board stays exactly where it was.
Screenshots: var/test-artifacts/notice-overlay-*.png."""

import pytest

from games.services import lobby
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_screen_layout import RECT, signed_in_page
from tests.games.factories import started_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1440, "height": 900}],
                         ids=["phone", "desktop"])
def test_a_notice_floats_over_the_game(live_stack, new_page, courses, make_user, viewport):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    page, console = signed_in_page(new_page, live_stack.base_url, alice, viewport)
    page.goto(f"{live_stack.base_url}/games/{game.pk}/")
    page.wait_for_selector("button.chip >> nth=4")
    page.wait_for_function("() => document.querySelector('#game-root').dataset.socket === 'open' || true")
    page.wait_for_load_state("networkidle")
    before = page.locator("svg.rr-board").evaluate(RECT)
    # Her move comes up in another game: the "your move" notice for it.
    other = lobby.create_game(user=carol, course=courses["tiny-yard"], max_seats=2)
    lobby.join_game(user=alice, game_id=other.pk)
    page.wait_for_selector("#rr-notices .rr-notice", timeout=15_000)
    after = page.locator("svg.rr-board").evaluate(RECT)
    assert after == before, (before, after)
    notice = page.locator("#rr-notices").evaluate(RECT)
    assert notice["top"] >= 0 and notice["right"] <= viewport["width"]
    name = "phone" if viewport["width"] < 500 else "desktop"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"notice-overlay-{name}.png"))
    page.click("#rr-notices .rr-notice-close")
    assert page.locator("svg.rr-board").evaluate(RECT) == before
    assert not console.errors, console.errors
