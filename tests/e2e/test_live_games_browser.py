"""Live games can be found (issue 37, item 8), in Chromium on the live stack: a signed-in visitor's lobby
features the strongest table being played and lists the others to watch; when the featured game ends, the
card switches to the next one without a reload. On a phone and a desktop; screenshots in
var/test-artifacts/live-games-*.png."""

import pytest

from games.services import lobby
from roboracer.ratings.models import Rating
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import sign_up
from tests.games.factories import started_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1440, "height": 900}],
                         ids=["phone", "desktop"])
def test_the_lobby_features_the_strongest_table_and_switches_when_it_ends(
        live_stack, courses, new_page, make_user, viewport):
    base = live_stack.base_url
    players = {name: make_user(f"{name}{viewport['width']}") for name in ("al", "bo", "cy", "di")}
    for name in ("cy", "di"):
        Rating.objects.create(user=players[name], mu=45, sigma=2)
    weaker = started_game(users=[players["al"], players["bo"]], course=courses["bolt-bay"])
    stronger = started_game(users=[players["cy"], players["di"]], course=courses["bolt-bay"])
    page, console = new_page("watcher", viewport)
    sign_up(page, base, f"watcher{viewport['width']}")
    page.goto(f"{base}/")
    page.wait_for_selector("#lobby-root[data-socket='open']")
    assert page.get_attribute("#featured-game", "data-game-id") == str(stronger.pk)
    assert page.locator("#featured-game svg.rr-board").count() == 1  # its board's thumbnail
    assert page.locator("#watch-games li").count() == 2
    name = "phone" if viewport["width"] < 500 else "desktop"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-games-{name}.png"), full_page=True)
    # The featured game ends (a player resigns, the other wins): the card moves on to the other table.
    lobby.leave_game(user=players["cy"], game_id=stronger.pk)
    page.wait_for_selector(f"#featured-game[data-game-id='{weaker.pk}']", timeout=15_000)
    assert page.locator("#watch-games li").count() == 1
    assert page.locator("#featured-game svg.rr-board").count() == 1
    page.click("#featured-game .featured-link")
    page.wait_for_url(f"{base}/games/{weaker.pk}/")
    page.wait_for_selector("#game-status:has-text('programming')")
    assert not console.errors, console.errors
