"""Ratings on the real stack (uvicorn, a Celery worker, PostgreSQL, Redis, Chromium): alice creates a rated
1-life game on Tiny Yard (the create form's "Rated" box is ticked by default) and bob joins from the lobby,
where the game's row says "rated" and links alice's name to her player page. Turn 1's hands are set to a known
deal (as the engine tests do), alice programs her robot backwards off the edge behind it and bob turns on the
spot: the worker resolves the turn, alice is out and bob wins. The results screen says "Rated game" with the
new ratings; bob follows his name to his player page, which shows his new rating, the chart and the game with
its place and rating change; alice's page shows hers lower. Screenshots, desktop 1280x900 and phone 390x844,
into var/test-artifacts/."""

import re

import pytest

from games.models import Game, Hand
from roboracer.ratings.models import RatingChange
from roboracer.ratings.selectors import shown_ratings_of
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import create_game, sign_up, wait_for_turn

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
HAND = ["B", "B", "1", "L", "R", "U", "L", "R", "2"]
BACK_OFF = [0, 3, 4, 6, 7]  # B L R L R: seat 1 of Tiny Yard backs off the edge behind it
STAY = [3, 4, 6, 7, 5]  # L R L R U: turns on the spot


def program(page, indices, *, last=False):
    page.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(HAND))
    for index in indices:
        page.click(f"button.chip[data-index='{index}']")
    page.click("#submit-program")
    if not last:
        page.wait_for_selector(".rr-program-message:has-text('Program submitted')")


def test_a_rated_game_moves_both_ratings_and_the_player_page_shows_them(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, alice_console = new_page("alice", DESKTOP)
    bob, bob_console = new_page("bob", PHONE)
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)

    assert alice.is_checked("#id_rated")
    alice.select_option("#id_course", label="Tiny Yard")
    alice.fill("#id_max_seats", "2")
    alice.fill("#id_lives", "1")
    game_url, game = create_game(alice, base)
    assert game.rated and game.lives == 1
    alice.wait_for_selector("#game-rated:has-text('Rated game')")

    # The lobby: the row says rated, and alice's name (with her rating) links to her page.
    bob.goto(f"{base}/")
    bob.wait_for_selector("#lobby-root[data-synced='1']")  # the socket's rows replaced the server's
    row = bob.locator(f"#open-games li[data-game-id='{game.pk}']")
    row.wait_for()
    assert " · rated · created by alice (1000)" in row.inner_text()
    assert row.locator("a[href='/players/alice/']").count() == 1
    row.scroll_into_view_if_needed()
    bob.screenshot(path=str(ARTIFACTS / "ratings-lobby-phone.png"))
    bob.goto(game_url)
    bob.click("#join-game")
    for page in (alice, bob):
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    # A known deal for turn 1, then both pages read it afresh.
    Hand.objects.filter(seat__game=game, turn=1).update(chips=HAND)
    for page in (alice, bob):
        page.reload()
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
        page.click(".rr-speed[data-speed='0']")  # instant turns
        assert page.inner_text("li.rr-seat[data-seat='1'] .stat-rating") == "rating 1000"
    program(alice, BACK_OFF)
    program(bob, STAY, last=True)
    wait_for_turn(game, 1)
    for page in (alice, bob):
        page.wait_for_selector("#results", state="visible")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user.username == "bob"
    assert RatingChange.objects.filter(game=game).count() == 2
    ratings = shown_ratings_of(users=[game.winner.user_id, game.seats.get(number=1).user_id])
    bob_rating, alice_rating = ratings[game.winner.user_id], ratings[game.seats.get(number=1).user_id]
    assert bob_rating > 1000 > alice_rating

    for page in (alice, bob):
        page.wait_for_selector("#results-ratings:has-text('Rated game')")
        text = page.inner_text("#results-ratings")
        assert f"alice {alice_rating} (\u2212{1000 - alice_rating})" in text, text
        assert f"bob {bob_rating} (+{bob_rating - 1000})" in text, text
    bob.locator("#results").scroll_into_view_if_needed()
    bob.screenshot(path=str(ARTIFACTS / "ratings-results-phone.png"))
    alice.locator("#results").scroll_into_view_if_needed()
    alice.screenshot(path=str(ARTIFACTS / "ratings-results-desktop.png"))

    # Bob follows his own name in the results to his player page.
    bob.click("#results a.rr-results-player[href='/players/bob/']")
    bob.wait_for_url(f"{base}/players/bob/")
    assert bob.inner_text("#player-rating") == str(bob_rating)
    assert bob.inner_text("#player-rated-games").startswith("1 rated game")
    assert bob.locator("#rating-chart polyline").count() == 1 and bob.locator("#rating-chart circle.dot").count() == 1
    game_row = bob.locator(f"#player-games tr[data-game-id='{game.pk}']")
    cells = game_row.locator("td").all_inner_texts()
    assert cells[0] == f"Game {game.pk}" and cells[1] == "Tiny Yard" and cells[3] == "1 of 2"
    assert re.fullmatch(rf"\+{bob_rating - 1000}", cells[4]), cells
    width = bob.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the player page is {width}px wide on a phone"
    bob.screenshot(path=str(ARTIFACTS / "ratings-player-phone.png"), full_page=True)

    alice.goto(f"{base}/players/alice/")
    assert alice.inner_text("#player-rating") == str(alice_rating)
    cells = alice.locator(f"#player-games tr[data-game-id='{game.pk}'] td").all_inner_texts()
    assert cells[3] == "2 of 2" and cells[4] == f"{alice_rating - 1000}"
    assert alice.locator("#rating-chart").is_visible()
    # Issue 38 item 14: the axis has dates, and hovering a game's point shows its rating and day.
    today = f"{game.finished_at.day} {game.finished_at:%b %Y}"
    assert alice.text_content("#chart-first-day") == today and alice.text_content("#chart-last-day") == today
    label = alice.locator("#rating-chart .dot-point .dot-label")
    assert not label.is_visible()
    alice.hover("#rating-chart .dot-point circle.dot")
    label.wait_for(state="visible")
    assert label.text_content() == f"{alice_rating} · {today}"
    alice.screenshot(path=str(ARTIFACTS / "ratings-player-desktop.png"), full_page=True)

    # The leaderboard: bob above alice.
    alice.goto(f"{base}/players/")
    names = alice.locator("#leaderboard tbody tr td:nth-child(2)").all_inner_texts()
    assert names == ["bob", "alice"]
    alice.screenshot(path=str(ARTIFACTS / "ratings-leaderboard-desktop.png"), full_page=True)
    assert alice_console.errors == [] and bob_console.errors == []
