"""The Pyramid in a real browser on the real stack (uvicorn, a Celery worker): dora joins through the API and
takes the top; chad signs up in the browser, joins at the bottom, challenges her for 1 point, and plays his
program on the game screen while dora plays hers through the API (her robot backs off the edge of Tiny Yard
with 1 life). The worker resolves the turn, chad wins, and the pyramid page shows the swap. sam watches on a
phone. Screenshots desktop 1280x900 and phone 390x844 into var/test-artifacts/."""

import pytest

from games.models import Game, Hand
from roboracer.pyramid.models import Challenge, Place, Pyramid
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import sign_up, wait_for_turn
from tests.integration.client import Player
from tests.pyramid.factories import BACK_OFF, HAND, pyramid

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
STAY_FIRST = ["L", "R", "L", "R", "U", "B", "B", "1", "2"]  # the first five chips keep chad on the course


def cards(page):
    return page.eval_on_selector_all(
        ".pyramid-card[data-player]", "els => els.map(e => [e.dataset.player, +e.dataset.row, +e.dataset.position])")


def test_join_challenge_play_and_swap(live_stack, courses, new_page):
    base = live_stack.base_url
    Pyramid.objects.all().delete()  # the site's own ("main"), if the migration's row is still there
    pyr = pyramid(courses=courses, slug="ladder", timeout_policy=Game.TimeoutPolicy.EJECT)
    url = f"{base}/pyramid/{pyr.slug}/"

    dora = Player(base, "dora")
    assert dora.post(f"/api/pyramids/{pyr.slug}/join/").status_code == 201

    chad, chad_console = new_page("chad", DESKTOP)
    sign_up(chad, base, "chad")
    chad.click("nav >> text=Pyramid")  # the only pyramid: the list goes straight to it
    chad.wait_for_url(url)
    chad.click("#join-pyramid")
    chad.wait_for_selector(".messages >> text=You joined the pyramid in row 2.")
    assert cards(chad) == [["dora", 1, 1], ["chad", 2, 1]]
    assert chad.inner_text("#my-points") == "2"

    sam, sam_console = new_page("sam", PHONE)
    sign_up(sam, base, "sam")
    sam.goto(url)
    sam.click("#join-pyramid")
    sam.wait_for_selector(".pyramid-card.me[data-player='sam']")

    # chad challenges dora, one row up: 1 point; the game starts at once.
    button = chad.locator(".pyramid-card[data-player='dora'] .pyramid-challenge")
    assert button.inner_text() == "Challenge · 1 pt"
    button.click()
    # A confirmation first (issue 38 item 12): nothing is spent until chad confirms.
    chad.wait_for_selector("#challenge-confirm")
    assert "costs 1 point: you have 2, 1 left after it" in " ".join(chad.inner_text("#challenge-question").split())
    assert not Challenge.objects.filter(pyramid=pyr).exists()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    chad.screenshot(path=str(ARTIFACTS / "pyramid-confirm-desktop.png"))
    chad.click("#confirm-challenge")
    chad.wait_for_selector("#my-challenge")
    challenge = Challenge.objects.get(pyramid=pyr)
    game = Game.objects.get(pk=challenge.game_id)
    assert game.status == Game.Status.PROGRAMMING and game.course.slug == "tiny-yard"
    assert chad.inner_text("#my-points") == "1"
    assert chad.locator("#revoke-challenge").is_visible()
    assert "chad challenged dora (1 point)." in chad.inner_text("#pyramid-history-list")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    chad.screenshot(path=str(ARTIFACTS / "pyramid-challenge-desktop.png"), full_page=True)
    # The challenge shows on the other players' pages too, with a link to its game.
    sam.reload()
    assert sam.locator(f".pyramid-card[data-player='dora'] a[href='/games/{game.pk}/']").count() == 1

    # Known hands, so the result is known: chad keeps to the course, dora backs off its edge.
    Hand.objects.filter(seat__game=game, seat__number=1, turn=1).update(chips=STAY_FIRST)
    Hand.objects.filter(seat__game=game, seat__number=2, turn=1).update(chips=HAND)
    answer = dora.post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": BACK_OFF})
    assert answer.status_code in (200, 201), answer.text
    # dora has played: the challenge is no longer pending, so no Revoke.
    chad.reload()
    assert chad.locator("#revoke-challenge").count() == 0
    with chad.expect_navigation():
        chad.click("#my-challenge a.button")
    chad.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    chad.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(STAY_FIRST))
    for index in range(5):
        chad.click(f"button.chip[data-index='{index}']")
    chad.click("#submit-program")
    wait_for_turn(game, 1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user.username == "chad"

    chad.goto(url)
    assert cards(chad) == [["chad", 1, 1], ["dora", 2, 1], ["sam", 2, 2]]
    assert chad.inner_text("#my-row") == "1"
    assert "chad beat dora: they swapped places, chad is now in row 1." in chad.inner_text("#pyramid-history-list")
    assert {p.user.username: p.rank for p in Place.objects.filter(pyramid=pyr)} == {
        "chad": (1, 1), "dora": (2, 1), "sam": (2, 2)}
    state = dora.get(f"/api/pyramids/{pyr.slug}/")
    assert state["me"] == {"row": 2, "position": 1, "points": 2, "open_challenge": None, "defending": []}
    chad.screenshot(path=str(ARTIFACTS / "pyramid-desktop.png"), full_page=True)

    sam.reload()
    assert cards(sam) == [["chad", 1, 1], ["dora", 2, 1], ["sam", 2, 2]]
    assert sam.locator(".pyramid-card[data-player='dora'] .pyramid-challenge").inner_text() == "Challenge · free"
    assert sam.locator(".pyramid-card[data-player='chad'] .pyramid-challenge").inner_text() == "Challenge · 1 pt"
    assert sam.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    sam.screenshot(path=str(ARTIFACTS / "pyramid-phone.png"), full_page=True)
    assert chad_console.errors == [] and sam_console.errors == []


def test_a_big_pyramid_on_a_phone_and_a_desktop(live_stack, courses, new_page, django_user_model):
    """Five rows: on a phone the rows keep their shape and their box scrolls sideways (the page does not); the
    Challenge buttons are on exactly the players the rules allow, with their costs, and the others say why."""
    Pyramid.objects.all().delete()
    pyr = pyramid(courses=courses, slug="big")
    base = live_stack.base_url
    phone, phone_console = new_page("pia", PHONE)
    sign_up(phone, base, "pia")
    spots = [(row, position) for row in range(1, 6) for position in range(1, row + 1)]
    for number, (row, position) in enumerate(spots):
        user = (django_user_model.objects.get(username="pia") if (row, position) == (5, 3)
                else django_user_model.objects.create_user(username=f"player{number}", password="x" * 20))
        Place.objects.create(pyramid=pyr, user=user, row=row, position=position, points=2)
    phone.goto(f"{base}/pyramid/{pyr.slug}/")
    offered = phone.eval_on_selector_all(
        ".pyramid-card:has(.pyramid-challenge)",
        "els => els.map(e => [+e.dataset.row, +e.dataset.position, e.querySelector('.pyramid-challenge').innerText])")
    assert offered == [[3, 1, "Challenge · 2 pts"], [3, 2, "Challenge · 2 pts"], [3, 3, "Challenge · 2 pts"]] + [
        [4, p, "Challenge · 1 pt"] for p in range(1, 5)] + [[5, 1, "Challenge · free"], [5, 2, "Challenge · free"]]
    assert phone.locator(".pyramid-card[data-row='1'] .pyramid-why").inner_text() == "costs 8 points; you have 2"
    assert phone.locator(".pyramid-card[data-row='5'][data-position='4'] .pyramid-why").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = phone.locator(".pyramid-scroll")
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")  # the bottom rows scroll inside their box
    # ... and the box opens on pia's own card, wholly in view.
    mine, shown = phone.locator(".pyramid-card.me").bounding_box(), box.bounding_box()
    assert shown["x"] <= mine["x"] and mine["x"] + mine["width"] <= shown["x"] + shown["width"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "pyramid-big-phone.png"), full_page=True)
    desktop, desktop_console = new_page("desk", DESKTOP)
    desktop.goto(f"{base}/pyramid/{pyr.slug}/")
    rows = desktop.locator(".pyramid-scroll")
    assert rows.evaluate("e => e.scrollWidth <= e.clientWidth")  # no sideways scrolling on a desktop
    desktop.screenshot(path=str(ARTIFACTS / "pyramid-big-desktop.png"), full_page=True)
    assert phone_console.errors == [] and desktop_console.errors == []
