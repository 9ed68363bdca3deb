"""The game screen's look on a phone (390x844) and a desktop (1920x1080), through the real stack:
no page scrolls sideways on a phone; while programming, the hand and the player's robot are on screen
together and the playback controls sit right by the board; on a desktop the squares of a 16x24 course
are at least 32 px. The reboot toggle says what it does in visible text. Screenshots in
var/test-artifacts/screen-*.png."""

import pytest
from django.test import Client

from games import services
from games.models import Game
from roboracer.accounts.services import update_profile
from tests.e2e.conftest import ARTIFACTS
from tests.games.factories import legal_program, started_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}

# Every rectangle in viewport (CSS px) coordinates.
RECT = "e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"


def signed_in_page(new_page, base_url, user, viewport):
    """A browser page with `user`'s session (made by Django's test client on the same database)."""
    client = Client()
    client.force_login(user)
    page, console = new_page(user.username, viewport)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])
    return page, console


def no_sideways_scroll(page):
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def too_wide(page):
    """What sticks out on the right (for the failure message)."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
      .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")


def inside_viewport(rect, page):
    height, width = page.evaluate("[window.innerHeight, window.innerWidth]")
    return rect["top"] >= -0.5 and rect["bottom"] <= height + 0.5 and rect["left"] >= -0.5 and rect["right"] <= width + 0.5


@pytest.fixture
def players(make_user, courses, django_user_model):
    alice, bob = make_user("alice"), make_user("bob")
    update_profile(user=bob, display_name="Bob the Builder")
    return [django_user_model.objects.get(pk=u.pk) for u in (alice, bob)]


def test_no_page_scrolls_sideways_on_a_phone(live_stack, new_page, courses, players):
    alice, bob = players
    base = live_stack.base_url
    lobby_game = services.create_game(user=alice, course=courses["maglev-freightyard"], max_seats=3,
                                      visibility="private")
    running = started_game(users=[alice, bob], course=courses["maglev-freightyard"])
    finished = started_game(users=[alice, bob], course=courses["bolt-bay"])
    services.leave_game(user=bob, game_id=finished.pk)
    assert Game.objects.get(pk=finished.pk).status == Game.Status.FINISHED
    services.submit_program(user=bob, game_id=running.pk, turn=1, chips=legal_program(running, bob))

    anonymous, console = new_page("anonymous", PHONE)
    pages = ["/", "/courses/", "/courses/maglev-freightyard/", "/accounts/signup/", "/accounts/login/",
             "/games/demo/", "/games/demo/?demo=eight-bots", "/games/demo/?demo=programming", "/no-such-page/"]
    wide = {}
    for path in pages:
        anonymous.goto(base + path)
        anonymous.wait_for_load_state("networkidle")
        scroll, inner = no_sideways_scroll(anonymous)
        if scroll > inner:
            wide[path] = (scroll, too_wide(anonymous))
    page, console = signed_in_page(new_page, base, alice, PHONE)
    for path in ["/", "/profile/", "/courses/", f"/games/{lobby_game.pk}/", f"/games/{running.pk}/",
                 f"/games/{finished.pk}/"]:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        if path.startswith("/games/"):
            page.wait_for_selector("#game-status:not(:has-text('Loading'))")
        scroll, inner = no_sideways_scroll(page)
        if scroll > inner:
            wide[path] = (scroll, too_wide(page))
        if path == f"/games/{finished.pk}/":  # not programming: the whole board, no box to scroll
            assert page.locator(".rr-board-scroll").evaluate("e => e.scrollHeight <= e.clientHeight + 1")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = path.strip("/").replace("/", "-") or "lobby"
        page.screenshot(path=str(ARTIFACTS / f"screen-phone-{name}.png"), full_page=True)
    assert wide == {}, f"wider than the 390 px phone: {wide}"
    assert console.errors == []


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_programming_on_a_big_course(live_stack, new_page, courses, players, viewport):
    """Maglev Freightyard (16x24): the hand and my robot on screen together, the playback controls by the
    board; on a desktop the squares are at least 32 px."""
    alice, bob = players
    game = started_game(users=[alice, bob], course=courses["maglev-freightyard"])
    me = game.seats.get(user=alice)
    # Mid-race, at the far end of the course from the hand: the top row (the race starts on the bottom row).
    state = game.state
    next(bot for bot in state["bots"] if bot["id"] == me.bot_id)["at"] = [2, 0]
    Game.objects.filter(pk=game.pk).update(state=state)
    page, console = signed_in_page(new_page, live_stack.base_url, alice, viewport)
    page.goto(f"{live_stack.base_url}/games/{game.pk}/")
    page.wait_for_selector("button.chip >> nth=4")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)  # the layout settles (fonts, the pushed snapshot)
    assert page.get_attribute(f"g.bot[data-bot='{me.bot_id}']", "data-y") == "0"
    robot = page.locator(f"g.bot[data-bot='{me.bot_id}']")
    chips = page.locator("button.chip")

    # The page scrolled just enough to show the whole hand (its last chip at the bottom of the screen):
    # the robot is on screen too.
    chips.last.evaluate("e => e.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(100)
    hand = [chips.nth(i).evaluate(RECT) for i in range(chips.count())]
    assert all(inside_viewport(rect, page) for rect in hand), hand
    assert inside_viewport(robot.evaluate(RECT), page), robot.evaluate(RECT)
    name = "phone" if viewport == PHONE else "desktop"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"screen-programming-{name}.png"))

    # The playback controls right under the board as it shows (its box, which scrolls on a phone).
    board = page.locator(".rr-board-scroll").evaluate(RECT)
    controls = page.locator(".rr-controls").evaluate(RECT)
    gap_below = controls["top"] - board["bottom"]
    assert 0 <= gap_below <= 24, (board, controls)
    assert controls["left"] < board["right"] and controls["right"] > board["left"]  # under it, not off to a side
    assert no_sideways_scroll(page)[0] <= no_sideways_scroll(page)[1]

    square = page.locator("svg.rr-board rect.tile >> nth=0").evaluate(RECT)
    size = square["right"] - square["left"]
    print(f"16x24 square at {viewport['width']}x{viewport['height']}: {size:.1f} px")
    if viewport == DESKTOP:
        # At least 32 px (the issue); 34 so that the page chrome cannot quietly grow back (it took 32.7).
        assert size >= 34, f"a square of the 16x24 course is {size:.1f} px on a 1920x1080 desktop"
        # ... and the whole board with its controls is still on screen without scrolling.
        page.evaluate("window.scrollTo(0, 0)")
        assert page.locator(".rr-controls").evaluate(RECT)["bottom"] <= DESKTOP["height"]
    assert console.errors == []
