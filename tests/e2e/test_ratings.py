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
    ratings = shown_ratings_of(users=[game.winner.user_id, game.seats.get(number=1).user_id], kind="roboracer")
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


WIDE = {"width": 1440, "height": 900}


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone-390x844", "desktop-1440x900"])
def test_the_leaderboards_kind_switch_and_the_player_pages_two_ratings(live_stack, courses, new_page,
                                                                       django_user_model, viewport):
    """Issue 38 item 15: /players/ switches between the RoboRacer and the RAMbots boards, and a player page shows
    each kind's rating and chart, "unrated" for a kind never played. The games are finished through the real
    services (the rating tests' helpers); the pages are the live server's."""
    from django.test import Client  # noqa: PLC0415 (only this test signs in without the form)

    from tests.ratings.helpers import played  # noqa: PLC0415
    from tests.ratings.test_kinds import rambots_played  # noqa: PLC0415

    base = live_stack.base_url
    ann, ben, cat = (django_user_model.objects.create_user(username=name, password="correct horse battery")
                     for name in ("ann", "ben", "cat"))
    played(users=[ann, ben], course=courses["tiny-yard"])  # RoboRacer: ben wins
    rambots_played([ben, cat], loser=ben)  # RAMbots: cat wins
    client = Client()
    client.force_login(cat)
    page, console = new_page("cat", viewport)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])
    tag = f"{viewport['width']}x{viewport['height']}"

    def no_overflow():
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{page.url} is {width}px wide in a {viewport['width']}px window"

    page.goto(f"{base}/players/")
    switch = page.locator("#kind-switch")
    assert switch.is_visible()
    assert switch.locator("a").all_inner_texts() == ["RoboRacer", "RAMbots"]
    assert switch.locator("a[aria-current='page']").inner_text() == "RoboRacer"
    for link in switch.locator("a").all():
        assert link.bounding_box()["height"] >= 44  # a finger's target on a phone
    assert page.locator("#leaderboard tbody tr td:nth-child(2)").all_inner_texts() == ["ben", "ann"]
    no_overflow()
    page.screenshot(path=str(ARTIFACTS / f"ratings-leaderboard-roboracer-{tag}.png"), full_page=True)

    switch.locator("a[data-kind='rambots']").click()
    page.wait_for_url(f"{base}/players/?kind=rambots")
    assert page.locator("#kind-switch a[aria-current='page']").inner_text() == "RAMbots"
    assert page.locator("#leaderboard[data-kind='rambots'] tbody tr td:nth-child(2)").all_inner_texts() == ["cat", "ben"]
    assert "RAMbots rating" in page.inner_text("#leaderboard thead")
    no_overflow()
    page.screenshot(path=str(ARTIFACTS / f"ratings-leaderboard-rambots-{tag}.png"), full_page=True)
    page.click("#kind-switch a[data-kind='roboracer']")
    page.wait_for_url(f"{base}/players/")
    page.locator("#leaderboard[data-kind='roboracer']").wait_for()

    # ben played both kinds: two cards, each with its own figure and chart.
    page.goto(f"{base}/players/ben/")
    shown = {kind: int(page.inner_text(selector)) for kind, selector in
             (("roboracer", "#player-rating"), ("rambots", "#player-rating-rambots"))}
    assert shown["roboracer"] > 1000 > shown["rambots"]
    for chart in ("#rating-chart", "#rating-chart-rambots"):
        assert page.locator(chart).is_visible() and page.locator(f"{chart} circle.dot").count() == 1
    robo, ram = page.locator("#rating-roboracer").bounding_box(), page.locator("#rating-rambots").bounding_box()
    if viewport is PHONE:
        assert ram["y"] >= robo["y"] + robo["height"], "the cards stack on a phone"
    else:
        assert ram["y"] == robo["y"] and ram["x"] > robo["x"] + robo["width"] - 1, "side by side on a desktop"
    no_overflow()
    page.screenshot(path=str(ARTIFACTS / f"ratings-player-two-kinds-{tag}.png"), full_page=True)
    # ann never played RAMbots: "unrated", no chart, a link to the RAMbots board.
    page.goto(f"{base}/players/ann/")
    assert page.inner_text("#player-rating-rambots") == "unrated"
    assert page.locator("#rating-rambots svg").count() == 0
    assert "No rated RAMbots games yet" in page.inner_text("#player-rated-games-rambots")
    page.click("#rating-rambots a[href='/players/?kind=rambots']")
    page.wait_for_url(f"{base}/players/?kind=rambots")
    assert console.errors == []
