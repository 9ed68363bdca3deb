"""The bell (issue 37's "one notification mechanism", docs/site.md "Notices"): bob has the lobby open on his
phone when alice, after their game, presses "play again": the bell in his header counts one unread notice at
once (over the socket, no reload), and its page lists "alice wants to play again" linking to the new game, then
counts none. On a desktop, the same page for alice shows no notice of bob's. Screenshots of both."""

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_modules import api
from tests.e2e.test_play_three_turns import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_notice_rings_the_bell_live_and_its_page_lists_it(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, _ = new_page("alice", {"width": 1440, "height": 900})
    bob, _ = new_page("bob", {"width": 390, "height": 844})
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)
    created = api(alice, "POST", "/api/games/", {"course": "bolt-bay", "max_seats": 2, "rated": False})
    assert created["status"] == 201, created
    game_id = created["body"]["id"]
    assert api(bob, "POST", f"/api/games/{game_id}/join/")["status"] == 200
    assert api(bob, "POST", f"/api/games/{game_id}/leave/")["status"] == 200  # resigns: the game is over
    bob.goto(f"{base}/")
    bob.wait_for_selector("#lobby-root[data-synced='1']")
    assert bob.is_hidden("#rr-bell-count")
    # The notices socket is open (its group joined) before alice presses: a notice sent earlier is lost by design.
    bob.wait_for_function("() => window.roboracerNotices?.socket?.ws?.readyState === 1")
    again = api(alice, "POST", f"/api/games/{game_id}/play-again/")
    assert again["status"] in (200, 201), again
    new_id = again["body"]["game"]
    bob.wait_for_function("() => document.querySelector('#rr-bell-count')?.textContent === '1'")
    assert bob.get_attribute("#rr-bell", "aria-label") == "Notices (1 unread)"
    box = bob.locator("#rr-bell").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 60, box  # in view
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "bell-phone-lobby.png"))
    bob.click("#rr-bell")
    bob.wait_for_url(f"{base}/notices/")
    row = bob.locator("#notice-list li.notice-unread")
    assert row.count() == 1 and row.get_attribute("data-kind") == "rematch"
    assert "alice wants to play again" in row.inner_text()
    assert row.locator("a").get_attribute("href") == f"/games/{new_id}/"
    assert bob.is_hidden("#rr-bell-count")
    width = bob.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width  # nothing runs off the phone's screen
    bob.screenshot(path=str(ARTIFACTS / "bell-phone-notices.png"))
    bob.goto(f"{base}/notices/")
    assert bob.locator("#notice-list li.notice-unread").count() == 0  # read once shown
    alice.goto(f"{base}/notices/")
    assert alice.locator("#notice-list li.notice").count() == 0 and alice.is_visible(".notice-empty")
    alice.screenshot(path=str(ARTIFACTS / "bell-desktop-notices.png"))


def test_a_your_move_notice_goes_away_when_its_game_ends(live_stack, courses, new_page):
    """Organisers' issue, smaller points: a "Your move" notice stayed after the game ended. Bob watches the lobby
    on his phone; joining alice's game deals turn 1 and his lobby says "Your move in game N"; alice resigns, the
    game is over, and the notice and the row's "your move" badge go away without a reload."""
    base = live_stack.base_url
    alice, _ = new_page("alice", {"width": 1440, "height": 900})
    bob, _ = new_page("bob", {"width": 390, "height": 844})
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)
    created = api(alice, "POST", "/api/games/", {"course": "bolt-bay", "max_seats": 2, "rated": False})
    game_id = created["body"]["id"]
    bob.goto(f"{base}/")
    bob.wait_for_selector("#lobby-root[data-synced='1']")
    bob.wait_for_function("() => window.roboracerNotices?.socket?.ws?.readyState === 1")
    assert api(bob, "POST", f"/api/games/{game_id}/join/")["status"] == 200  # full: turn 1 is dealt
    notice = bob.locator(f".rr-notice[data-game='{game_id}']")
    notice.wait_for()
    assert f"Your move in game {game_id}" in notice.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "notice-your-move-phone.png"))
    assert api(alice, "POST", f"/api/games/{game_id}/leave/")["status"] == 200  # alice resigns: the game is over
    notice.wait_for(state="detached")
    bob.wait_for_function(f"() => !document.querySelector('#my-games li[data-game-id=\"{game_id}\"] .badge')"
                          " || ![...document.querySelectorAll('#my-games li[data-game-id=\"{game_id}\"] .badge')]"
                          ".some(b => b.textContent === 'your move')")
    bob.screenshot(path=str(ARTIFACTS / "notice-your-move-gone-phone.png"))
