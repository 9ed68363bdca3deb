"""Controls in reach in a module game (issue 37, items 4 and 9), on a phone and a desktop: with all 17 modules,
my robot, my hand and Submit are on screen together after the page loads; the prices are one folded line
(a compact table when opened); the menu says installing is free, apart from a charge's price, and that the
charge price can change before I pay it. Screenshots: var/test-artifacts/modules-screen-*.png."""

import pytest

from games.models import Game
from games.services import lobby
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_screen_layout import (
    DRAWN,
    PHONE,
    RECT,
    inside_viewport,
    on_screen_together,
    signed_in_page,
    wait_layout_settled,
    watch_game_sockets,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1440, "height": 900}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_submit_stays_in_reach_with_every_module(live_stack, new_page, courses, make_user, viewport):
    alice, bob = make_user("alice"), make_user("bob")
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=2, modules="all")
    lobby.join_game(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING and len(game.modules) == 17
    me = game.seats.get(user=alice)
    page, console = signed_in_page(new_page, live_stack.base_url, alice, viewport)
    frames = watch_game_sockets(page)
    page.goto(f"{live_stack.base_url}/games/{game.pk}/")
    page.wait_for_selector("button.chip >> nth=4")
    page.wait_for_selector("#module-action")
    page.wait_for_load_state("networkidle")
    wait_layout_settled(page, frames, game)
    page.evaluate(DRAWN)
    name = "phone" if viewport == PHONE else "desktop"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"modules-screen-{name}.png"))
    robot = page.locator(f"g.bot[data-bot='{me.bot_id}']")
    assert on_screen_together(page, robot) == []
    if viewport == DESKTOP:  # (on a phone the menu is a scroll away; Submit stays pinned in view)
        assert inside_viewport(page.locator("#module-action").evaluate(RECT), page)
    # The prices: one folded line; opened, a table of the 17.
    summary = page.locator("#module-prices summary")
    assert summary.inner_text() == "Module prices (17): one charge now"
    assert page.eval_on_selector("#module-prices", "d => d.open") is False
    summary.click()
    assert page.locator("#module-prices tr").count() == 17
    # Installing is free; the figure is a charge's price, said apart. The charge help says the price may move.
    labels = page.eval_on_selector_all("#module-action option", "os => os.map(o => o.textContent)")
    assert "Install Turbo (free · a charge 250)" in labels, labels
    page.select_option("#module-action", '{"install":"turbo"}')
    assert "Install Turbo" in page.inner_text("#module-help")
    assert not console.errors, console.errors
