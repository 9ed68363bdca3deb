"""What an arena and a destroy-the-crate puzzle score, on screen (issue 37 item 12): no "next check point" and no
check-points column where the mode counts none. Alice (desktop) and bob (phone) fight on Scrap Pit: each robot's
line says "still in" and the mode line "2 of 2 robots left"; bob resigns and alice's results table has a
"Survival" column ("last bot alive", and for bob what the standings say) instead of check points. Then each
opens Push Off from the puzzle page: the mode line counts "1 of 1 target left", and no line counts check points.
Screenshots of each, on both windows."""

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_modules import api
from tests.e2e.test_play_three_turns import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def no_check_points(page):
    assert page.locator(".rr-seat .stat-cp").count() == 0
    assert "check point" not in page.inner_text("#game-mode")
    assert "next check point" not in page.inner_text("body")


def test_arenas_and_destroy_puzzles_show_their_own_score(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, _ = new_page("alice", {"width": 1440, "height": 900})
    bob, _ = new_page("bob", {"width": 390, "height": 844})
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)
    created = api(alice, "POST", "/api/games/", {"course": "scrap-pit", "max_seats": 2, "rated": False})
    assert created["status"] == 201, created
    game_id = created["body"]["id"]
    assert api(bob, "POST", f"/api/games/{game_id}/join/")["status"] == 200
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for page, name in ((alice, "desktop"), (bob, "phone")):
        page.goto(f"{base}/games/{game_id}/?speed=0")
        page.wait_for_selector("#game-mode:has-text('2 of 2 robots left')")
        page.wait_for_function("() => document.querySelectorAll('.rr-seat .stat-arena').length === 2")
        lines = page.eval_on_selector_all(".rr-seat .stat-arena", "els => els.map(e => e.textContent)")
        assert all(line.endswith("still in") for line in lines), lines
        no_check_points(page)
        assert "@all" not in page.inner_text("#chat-help")  # said in team games only (issue 37 item 18)
        page.screenshot(path=str(ARTIFACTS / f"mode-scores-arena-{name}.png"))

    assert api(bob, "POST", f"/api/games/{game_id}/leave/")["status"] == 200  # bob resigns: alice wins
    alice.wait_for_selector("#results:not([hidden])")
    heads = alice.eval_on_selector_all("#results thead th", "els => els.map(e => e.textContent)")
    assert "Survival" in heads and "Check points" not in heads, heads
    cells = alice.eval_on_selector_all("#results tbody td.col-score", "els => els.map(e => e.textContent)")
    assert cells[0] == "last bot alive" and len(cells) == 2, cells
    alice.screenshot(path=str(ARTIFACTS / "mode-scores-arena-results-desktop.png"))

    for page, name in ((alice, "desktop"), (bob, "phone")):
        page.goto(f"{base}/puzzles/")
        page.locator("li.puzzle[data-slug='puzzle-push-off'] button.play-puzzle").click()
        page.wait_for_url(f"{base}/games/*/")
        page.goto(f"{page.url}?speed=0")
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
        page.wait_for_selector("#game-mode:has-text('1 of 1 target left')")
        assert "Puzzle: Destroy crate" in page.inner_text("#game-mode")
        no_check_points(page)
        page.screenshot(path=str(ARTIFACTS / f"mode-scores-puzzle-{name}.png"))
