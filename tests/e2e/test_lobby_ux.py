"""The lobby as a new player meets it, in Chromium on the live stack, on a phone (390x844) and a desktop (1366x900):

- a signed-out visitor is asked to sign up or log in to create a game, with both links;
- the 11th open lobby of an account is refused where the player is looking: the page comes back with the
  sentence at the top, focused, though the form that sent it is far below two lists of ten games;
- the open games come a page at a time (Newer/Older): page 1 stays a page long as new games are pushed (the oldest
  goes out, and comes back when a newer one leaves), its "Showing the newest N of M" line follows, and page 2
  inserts nothing pushed but says how many new games page 1 has;
- a game its creator starts alone is an unrated solo game, and its screen says so.

Screenshots under var/test-artifacts/lobby-ux-*.png. No console errors, no sideways scrolling on the phone."""

import pytest
from django.conf import settings

from games.models import Game
from games.services import lobby
from tests.e2e.conftest import ARTIFACTS
from tests.helpers import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}



def shoot(page, name, *, full_page=False):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lobby-ux-{name}.png"), full_page=full_page)


def no_sideways_scrolling(page):
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]


def in_view(page, selector) -> bool:
    # A pixel of slack at each edge: an element scrolled to the top may sit a fraction of a pixel above it.
    return page.eval_on_selector(selector, """el => { const r = el.getBoundingClientRect();
        return r.top > -1 && r.bottom < window.innerHeight + 1 && r.height > 0; }""")


def lobbies(user, course, count, seats=2):
    return [lobby.create_game(user=user, course=course, max_seats=seats) for _ in range(count)]


def test_a_signed_out_visitor_is_asked_to_sign_up_or_log_in(live_stack, courses, make_user, new_page):
    base = live_stack.base_url
    # ---- signed out, nothing open: sign up or log in to create one (both links)
    visitor, visitor_console = new_page("visitor", PHONE)
    visitor.goto(f"{base}/")
    visitor.wait_for_selector("#lobby-root[data-synced='1']")
    empty = visitor.locator("#open-games-empty")
    assert empty.inner_text() == "No open games. Sign up or log in to create one."
    assert empty.locator("a", has_text="Sign up").get_attribute("href") == "/accounts/signup/"
    assert empty.locator("a", has_text="log in").get_attribute("href") == "/accounts/login/"
    assert visitor.locator("#lobby-signup").is_hidden()  # said once, not twice
    shoot(visitor, "signed-out-phone")

    alice, bob = make_user("alice"), make_user("bob")
    lobbies(alice, courses["tiny-yard"], 10)
    lobbies(bob, courses["tiny-yard"], 10)
    # Games came: the visitor's lobby lists them, and asks at the bottom instead.
    visitor.locator("#lobby-signup").wait_for()
    assert empty.is_hidden() and visitor.locator("#open-games > li").count() == 20
    no_sideways_scrolling(visitor)
    assert visitor_console.errors == []


def test_a_refused_create_is_shown_where_the_player_is(live_stack, courses, make_user, new_page):
    base = live_stack.base_url
    alice, bob = make_user("alice"), make_user("bob")
    lobbies(alice, courses["tiny-yard"], 10)
    lobbies(bob, courses["tiny-yard"], 10)
    sentence = "You already have 10 open games waiting for players. Start or cancel one before creating another."
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page, console = new_page(f"alice-{name}", viewport)
        log_in(page, base, "alice")
        page.wait_for_selector("#lobby-root[data-synced='1']")
        submit = page.locator("#create-game-submit")
        submit.scroll_into_view_if_needed()
        assert page.evaluate("() => window.scrollY") > 1500, "the form is far down the page"
        with page.expect_navigation():
            submit.click()
        summary = page.locator("#create-errors")
        assert summary.count() == 1, "the refusal is summed up at the top of the page"
        page.wait_for_function("() => document.activeElement?.id === 'create-errors'")
        # The page has loaded (expect_navigation waits for it), and lobby.ts scrolls the summary into view on load.
        page.wait_for_load_state("load")
        assert in_view(page, "#create-errors"), "the refusal is on the screen the player sees"
        assert summary.get_attribute("role") == "alert"
        assert sentence in summary.inner_text() and "Your game was not created" in summary.inner_text()
        assert Game.objects.filter(creator=alice).count() == 10
        shoot(page, f"refused-{name}")
        # Its link leads to the form, which says the same.
        summary.locator("a", has_text="You already have").click()
        page.wait_for_function("() => location.hash === '#create-game'")
        assert in_view(page, "#create-game .errorlist")
        assert sentence in page.locator("#create-game .errorlist").inner_text()
        if name == "phone":
            no_sideways_scrolling(page)
        assert console.errors == []


def test_pages_of_open_games_and_the_live_list_stay_bounded(live_stack, courses, make_user, new_page):
    base = live_stack.base_url
    size = settings.LOBBY_PAGE_SIZE  # the live stack's too: both read the environment's (50 unless set)
    makers = [make_user(f"maker{n}") for n in range(size // 10 + 1)]
    for n in range(size + 2):
        lobby.create_game(user=makers[n // 10], course=courses["tiny-yard"], max_seats=2)
    newest = list(Game.objects.order_by("-pk").values_list("pk", flat=True))
    make_user("bob"), make_user("carol")
    alice = make_user("alice")

    bob, bob_console = new_page("bob", DESKTOP)
    log_in(bob, base, "bob")
    bob.wait_for_selector("#lobby-root[data-synced='1']")
    rows = bob.locator("#open-games > li")
    assert rows.count() == size
    assert bob.locator("#open-games-more").inner_text() == f"Showing the newest {size} of {size + 2} open games."
    assert bob.locator("#open-games-newer").count() == 0

    carol, carol_console = new_page("carol", PHONE)
    log_in(carol, base, "carol")
    carol.locator("#open-games-older").click()
    carol.wait_for_url(f"{base}/?page=2")
    carol.wait_for_selector("#lobby-root[data-synced='1']")
    assert [int(i) for i in carol.eval_on_selector_all("#open-games > li", "els => els.map(e => e.dataset.gameId)")] \
        == newest[size:]
    page_two = f"Showing open games {size + 1}\u2013{size + 2} of {size + 2} (page 2 of 2)."
    assert carol.locator("#open-games-more").inner_text() == page_two
    assert carol.locator("#open-games-newer").get_attribute("href") == "/"
    assert carol.locator("#open-games-older").count() == 0
    assert carol.title() == "Lobby, page 2 · RoboRacer"

    # ---- a new game: page 1 puts it first and stays a page long; page 2 only says there is a new game
    fresh = lobby.create_game(user=alice, course=courses["tiny-yard"], max_seats=2)
    bob.locator(f"#open-games > li[data-game-id='{fresh.pk}']").wait_for()
    bob.wait_for_selector(f"#open-games > li[data-game-id='{newest[size - 1]}']", state="detached")
    assert rows.count() == size and rows.first.get_attribute("data-game-id") == str(fresh.pk)
    assert bob.locator("#open-games-more").inner_text() == f"Showing the newest {size} of {size + 3} open games."
    carol.wait_for_selector("#open-games-new a:has-text('1 new open game on page 1')")
    assert carol.locator(f"li[data-game-id='{fresh.pk}']").count() == 0
    assert carol.locator("#open-games > li").count() == 2
    assert carol.locator("#open-games-more").inner_text() == page_two.replace(f"of {size + 2} (", f"of {size + 3} (")
    bob.locator("#open-games-pages").scroll_into_view_if_needed()
    shoot(bob, "pages-desktop")
    carol.locator("#open-heading").evaluate("el => el.scrollIntoView()")
    shoot(carol, "page-2-phone")
    no_sideways_scrolling(carol)

    # ---- it is cancelled: page 1 takes back the game it had pushed out; page 2's note goes
    lobby.cancel_game(user=alice, game_id=fresh.pk)
    bob.wait_for_selector(f"#open-games > li[data-game-id='{fresh.pk}']", state="detached")
    bob.locator(f"#open-games > li[data-game-id='{newest[size - 1]}']").wait_for()
    assert rows.count() == size
    bob.wait_for_function(f"() => document.querySelector('#open-games-more').textContent === "
                          f"'Showing the newest {size} of {size + 2} open games.'")
    carol.wait_for_selector("#open-games-new a", state="detached")

    # ---- a page-2 game starts: it leaves page 2, and the count goes down everywhere
    lobby.join_game(user=alice, game_id=newest[size])
    carol.wait_for_selector(f"#open-games > li[data-game-id='{newest[size]}']", state="detached")
    assert carol.locator("#open-games > li").count() == 1
    bob.wait_for_function(f"() => document.querySelector('#open-games-more').textContent === "
                          f"'Showing the newest {size} of {size + 1} open games.'")

    # ---- the other way round, for the screenshots: page 1 on the phone, page 2 on the desktop
    carol.locator("#open-games-newer").click()
    carol.wait_for_url(f"{base}/")
    carol.wait_for_selector("#lobby-root[data-synced='1']")
    carol.locator("#open-games-pages").scroll_into_view_if_needed()
    shoot(carol, "pages-phone")
    no_sideways_scrolling(carol)
    bob.locator("#open-games-older").click()
    bob.wait_for_url(f"{base}/?page=2")
    bob.wait_for_selector("#lobby-root[data-synced='1']")
    shoot(bob, "page-2-desktop")
    assert bob_console.errors == [] and carol_console.errors == []


def test_a_game_started_alone_is_unrated_and_waits_for_its_only_player(live_stack, courses, make_user, new_page):
    base = live_stack.base_url
    alice = make_user("alice")
    game = lobby.create_game(user=alice, course=courses["tiny-yard"], max_seats=3)
    page, console = new_page("alice", DESKTOP)
    log_in(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    page.wait_for_selector("#game-rated:has-text('Rated game')")  # others may still come
    page.click("#start-game")
    question = page.locator("#start-confirm-text")
    question.wait_for()
    assert question.inner_text() == ("Start now with 1 of 3 players? The empty seats will be closed, and a game "
                                     "with one player is not rated.")
    page.click("#start-confirm-yes")
    page.wait_for_selector("#game-rated:has-text('Unrated game')")
    timers = page.locator("#game-timers").inner_text()
    assert "the game waits for your program" in timers and "others" not in timers
    assert page.locator("#game-rated").inner_text() == "Unrated game"
    game.refresh_from_db()
    assert (game.status, game.max_seats) == (Game.Status.PROGRAMMING, 1)
    shoot(page, "solo-desktop")
    assert console.errors == []
