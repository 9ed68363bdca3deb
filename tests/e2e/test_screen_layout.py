"""The game screen's look on a phone (390x844) and a desktop (1920x1080), through the real stack:
no page scrolls sideways on a phone; while programming, the hand, the submit button and the player's robot
are on screen together on every bundled course (right after loading and with the hand scrolled into view),
a board that fits its box shows whole, and the playback controls sit right by the board (one row on a
phone); a turn that starts playing is on screen; on a desktop the squares of a 16x24 course are at least
32 px. An "out" robot's badge is grey. The reboot toggle says what it does in visible text. Screenshots in
var/test-artifacts/screen-*.png."""

import json
import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from games.models import Game
from games.services import lobby, moves
from roboracer.accounts.services import update_profile
from tests.e2e.conftest import ARTIFACTS
from tests.games.factories import legal_program, started_game
from tests.helpers import wait_until

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


# Two frames drawn: what the page did before this (a message handled, an instant scroll) is laid out and painted.
DRAWN = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done())))"

# Whether the page is scrolling (the window or any box): from the first scroll event to the next scrollend.
# Installed before what makes the page scroll.
WATCH_SCROLLING = """() => {
  const state = { moving: false };
  addEventListener("scroll", () => { state.moving = true; }, { capture: true, passive: true });
  addEventListener("scrollend", () => { state.moving = false; }, { capture: true, passive: true });
  window.rrScrolling = state;
}"""


def watch_game_sockets(page) -> list:
    """(address, type) of each frame the page's game sockets receive from now on."""
    frames = []

    def kind(payload) -> str | None:
        try:
            return json.loads(payload).get("type")
        except (TypeError, ValueError, AttributeError):
            return None

    def on_socket(ws):
        if "/ws/games/" in ws.url:
            ws.on("framereceived", lambda payload: frames.append((ws.url, kind(payload))))

    page.on("websocket", on_socket)
    return frames


def wait_layout_settled(page, frames, game):
    """The layout the test measures is the final one: the snapshot the game socket sends on connecting has
    arrived (the page draws it again), the fonts are loaded, and two frames were drawn since."""
    wait_until(lambda: (f"/ws/games/{game.pk}/", "snapshot") in [(url[url.index("/ws/"):], kind) for url, kind in frames],
               "the game socket's snapshot", timeout=20, pause=lambda seconds: page.wait_for_timeout(seconds * 1000))
    page.evaluate("() => document.fonts.ready.then(() => undefined)")
    page.evaluate(DRAWN)


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
    lobby_game = lobby.create_game(user=alice, course=courses["maglev-freightyard"], max_seats=3,
                                      visibility="private")
    running = started_game(users=[alice, bob], course=courses["maglev-freightyard"])
    finished = started_game(users=[alice, bob], course=courses["bolt-bay"])
    lobby.leave_game(user=bob, game_id=finished.pk)
    assert Game.objects.get(pk=finished.pk).status == Game.Status.FINISHED
    moves.submit_program(user=bob, game_id=running.pk, turn=1, chips=legal_program(running, bob))

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
    frames = watch_game_sockets(page)
    page.goto(f"{live_stack.base_url}/games/{game.pk}/")
    page.wait_for_selector("button.chip >> nth=4")
    page.wait_for_load_state("networkidle")
    wait_layout_settled(page, frames, game)
    assert page.get_attribute(f"g.bot[data-bot='{me.bot_id}']", "data-y") == "0"
    robot = page.locator(f"g.bot[data-bot='{me.bot_id}']")
    chips = page.locator("button.chip")

    # The page scrolled just enough to show the whole hand (its last chip at the bottom of the screen):
    # the robot is on screen too.
    chips.last.evaluate("e => e.scrollIntoView({block: 'end'})")
    page.evaluate(DRAWN)
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


def on_screen_together(page, robot):
    """My robot (inside the board's box, which may scroll), every chip of the hand and the submit button,
    all inside the viewport at the page's current scroll position: the failures, or []."""
    missing = []
    box = page.locator(".rr-board-scroll").evaluate(RECT)
    bot = robot.evaluate(RECT)
    centre = ((bot["top"] + bot["bottom"]) / 2, (bot["left"] + bot["right"]) / 2)
    if not (box["top"] - 0.5 <= centre[0] <= box["bottom"] + 0.5 and box["left"] - 0.5 <= centre[1] <= box["right"] + 0.5):
        missing.append(("robot outside the board's box", bot, box))
    if not inside_viewport({**bot, "top": max(bot["top"], box["top"]), "bottom": min(bot["bottom"], box["bottom"])}, page):
        missing.append(("robot", bot))
    chips = page.locator("button.chip")
    for i in range(chips.count()):
        if not inside_viewport(chips.nth(i).evaluate(RECT), page):
            missing.append((f"chip {i + 1}", chips.nth(i).evaluate(RECT)))
    if not inside_viewport(page.locator("#submit-program").evaluate(RECT), page):
        missing.append(("submit", page.locator("#submit-program").evaluate(RECT)))
    return missing


# Every bundled course; the robot where the race starts (the bottom row) and far from the hand (the top row).
COURSES = ["tiny-yard", "bolt-bay", "crossfire-foundry", "hall-of-mirrors", "vent-works", "rail-junction",
           "cogwheel-crossing", "element-expo", "maglev-freightyard"]


def test_programming_on_a_phone_on_every_course(live_stack, new_page, courses, players):
    """On a phone, while I program, my robot, my whole hand and the submit button are on screen together:
    right after the page loads (it scrolls the hand into view) and after I scroll the hand into view myself.
    A board that fits its box is drawn whole (no row hidden: Tiny Yard's was cut by 20 px); a bigger one
    scrolls inside the box, around my robot."""
    alice, bob = players
    page, console = signed_in_page(new_page, live_stack.base_url, alice, PHONE)
    frames = watch_game_sockets(page)
    failures = {}
    for slug in COURSES:
        for where in ("start", "top"):
            game = started_game(users=[alice, bob], course=courses[slug])
            me = game.seats.get(user=alice)
            if where == "top":  # mid-race, at the far end of the course from the hand
                state = game.state
                bot = next(bot for bot in state["bots"] if bot["id"] == me.bot_id)
                bot["at"] = [bot["at"][0], 0]
                Game.objects.filter(pk=game.pk).update(state=state)
            page.goto(f"{live_stack.base_url}/games/{game.pk}/")
            page.wait_for_selector("button.chip >> nth=4")
            page.wait_for_load_state("networkidle")
            wait_layout_settled(page, frames, game)
            robot = page.locator(f"g.bot[data-bot='{me.bot_id}']")
            if missing := on_screen_together(page, robot):
                failures[(slug, where, "after loading")] = missing
            if slug in ("tiny-yard", "maglev-freightyard"):
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"screen-programming-phone-{slug}-{where}.png"))
            page.locator("#submit-program").evaluate("e => e.scrollIntoView({block: 'end'})")
            page.evaluate(DRAWN)
            if missing := on_screen_together(page, robot):
                failures[(slug, where, "hand scrolled into view")] = missing
            scroll_height, client_height = page.locator(".rr-board-scroll").evaluate("e => [e.scrollHeight, e.clientHeight]")
            if slug == "tiny-yard" and scroll_height > client_height + 1:
                failures[(slug, where, "board")] = f"a part of the board is hidden: {scroll_height} > {client_height}"
            # The playback controls are one row while programming (nothing to play back).
            controls = page.locator(".rr-controls").evaluate(RECT)
            if controls["bottom"] - controls["top"] > 48:
                failures[(slug, where, "controls")] = controls
    for key, value in failures.items():
        print("FAIL", key, value)
    assert failures == {}
    assert console.errors == []


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_turn_plays_out_on_screen(live_stack, new_page, courses, players, viewport):
    """I submit the last program with the page scrolled down to my hand: while the turn plays, the whole
    board is on screen (a phone scrolls up to it); when the new hand arrives, it is on screen again."""
    alice, bob = players
    game = started_game(users=[alice, bob], course=courses["tiny-yard"])
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob))
    page, console = signed_in_page(new_page, live_stack.base_url, alice, viewport)
    page.goto(f"{live_stack.base_url}/games/{game.pk}/?speed=0.5")
    page.wait_for_selector("button.chip >> nth=4")
    page.wait_for_load_state("networkidle")
    name = "phone" if viewport == PHONE else "desktop"
    for index in range(5):
        page.click(f"button.chip[data-index='{index}']")
    page.locator("#submit-program").scroll_into_view_if_needed()
    if viewport == PHONE:  # scrolled well down, past the hand (a desktop has it by the board)
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.evaluate(WATCH_SCROLLING)
    page.click("#submit-program")
    page.wait_for_selector("#game-root[data-animating='1']", timeout=20_000)
    # The page brings the board on screen (a smooth scroll on a phone; nothing to do on a desktop): wait until
    # it is there and the scrolling has ended.
    page.wait_for_function(
        """() => { const r = document.querySelector(".rr-board-scroll").getBoundingClientRect();
                   return !window.rrScrolling.moving && r.top >= -0.5 && r.bottom <= innerHeight + 0.5; }""",
        timeout=10_000)
    assert page.get_attribute("#game-root", "data-animating") == "1", "the turn is still playing"
    board = page.locator(".rr-board-scroll")
    assert inside_viewport(board.evaluate(RECT), page), board.evaluate(RECT)
    assert board.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "a part of the board is hidden"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"screen-animation-{name}.png"))

    page.click("#skip-animation")
    page.wait_for_selector("#game-status:has-text('Turn 2 — programming')", timeout=20_000)
    page.wait_for_selector("button.chip >> nth=4")
    # The page brings the new hand and my robot on screen (a smooth scroll on a phone): once the scrolling has
    # ended, they are there.
    me = game.seats.get(user=alice)
    robot = page.locator(f"g.bot[data-bot='{me.bot_id}']")
    wait_until(lambda: not page.evaluate("window.rrScrolling.moving") and on_screen_together(page, robot) == [],
               "the new hand and my robot on screen", timeout=10)
    assert on_screen_together(page, robot) == []
    page.screenshot(path=str(ARTIFACTS / f"screen-programming-turn2-{name}.png"))
    assert console.errors == []


def test_a_robot_out_of_the_race_has_a_grey_badge(live_stack, new_page, courses, players):
    """"out" is not good news: its badge is the grey of ejected seats, not the green of "ready"."""
    alice, bob = players
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    state = game.state
    other = game.seats.get(user=bob)
    next(bot for bot in state["bots"] if bot["id"] == other.bot_id).update(lives=0, at=None)
    Game.objects.filter(pk=game.pk).update(state=state)
    page, console = signed_in_page(new_page, live_stack.base_url, alice, PHONE)
    page.goto(f"{live_stack.base_url}/games/{game.pk}/")
    # The seat list re-renders as snapshots arrive, so a badge found once may be replaced before it is read:
    # these checks retry against whichever badge is on the page.
    badge = page.locator(".seat-ready", has_text="out")
    expect(badge).to_have_class(re.compile(r"\bis-out\b"))
    expect(badge).to_have_css("background-color", "rgb(229, 231, 235)")
    assert console.errors == []
