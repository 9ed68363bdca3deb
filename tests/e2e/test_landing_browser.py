"""First impressions (issue 37, item 17), on a phone and a desktop: a signed-out visitor's front page says what
the game is, replays a turn of eight robots on a real board, and offers a styled sign-up and log-in; after
signing up, one click on the first screen starts a race against the computer.
Screenshots: var/test-artifacts/landing-*.png, signup-*.png, login-*.png."""

import pytest

from games.models import Game
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.animated, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1440, "height": 900}],
                         ids=["phone", "desktop"])
def test_a_visitor_sees_the_game_and_is_racing_two_clicks_later(live_stack, courses, new_page, viewport):
    base = live_stack.base_url
    name = "phone" if viewport["width"] < 500 else "desktop"
    page, console = new_page("visitor", viewport)
    page.goto(f"{base}/")
    # What the game is, and the way in, on the first screen.
    page.wait_for_selector("#landing")
    assert "Program your robot" in page.inner_text("#landing-heading")
    for selector in ("#landing-heading", "#landing-signup", "#landing-login"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] + box["height"] <= viewport["height"], (selector, box)
    # A real board replays a turn: the game screen in the frame plays its events to the end.
    frame = page.frame_locator("#landing-replay")
    frame.locator("g.bot").first.wait_for(timeout=20_000)
    assert frame.locator("g.bot").count() == 8
    replay = next(f for f in page.frames if "/games/demo/embed/" in f.url)
    replay.wait_for_function("() => document.querySelector('#game-root').dataset.animating === '1'", timeout=20_000)
    replay.wait_for_selector("#phase-status:has-text('Phase')", state="attached")  # the turn plays, phase by phase
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"landing-{name}.png"))
    page.click("#landing-login")
    page.wait_for_url(f"{base}/accounts/login/*")
    page.screenshot(path=str(ARTIFACTS / f"login-{name}.png"))
    page.goto(f"{base}/")
    page.click("#landing-signup")
    page.wait_for_url(f"{base}/accounts/signup/*")
    page.screenshot(path=str(ARTIFACTS / f"signup-{name}.png"))
    page.fill("#id_username", f"newbie{viewport['width']}")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_url(f"{base}/")
    # Signed in: no landing; "Play against the computer" on the first screen, one click to a race.
    assert page.locator("#landing").count() == 0
    box = page.locator("#practice-submit").bounding_box()
    assert box and box["y"] + box["height"] <= viewport["height"], box
    page.click("#practice-submit")
    page.wait_for_url(f"{base}/games/*/")
    page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert game.status == Game.Status.PROGRAMMING and game.seats.filter(computer__gt="").count() == 1
    assert not console.errors, console.errors
